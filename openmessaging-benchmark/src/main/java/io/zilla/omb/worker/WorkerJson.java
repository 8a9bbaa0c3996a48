/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.config.HttpOptions;

/**
 * The JSON of the worker protocol, on both sides: OMB's endpoint bodies ({@code TopicsInfo}, {@code ConsumerAssignment},
 * {@code ProducerWorkAssignment}, {@code PeriodStats}, {@code CountersStats}), byte arrays and histograms as base64
 * strings. Unknown fields are ignored, as OMB's mapper does, so a newer coordinator can talk to an older worker.
 */
final class WorkerJson
{
    static final ObjectMapper JSON = new ObjectMapper()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private WorkerJson()
    {
    }

    /** OMB's {@code /create-topics} body. */
    record TopicsInfo(int numberOfTopics, int numberOfPartitionsPerTopic)
    {
    }

    /** OMB's {@code /create-consumers} body. */
    record ConsumerAssignment(List<TopicSubscription> topicsSubscriptions)
    {
    }

    /** The driver as a driver file, for {@code /initialize-driver} (OMB sends the file's bytes). */
    static String driverFile(DriverConfig config) throws Exception
    {
        final TreeMap<String, Object> file = new TreeMap<>();
        file.put("name", config.name());
        file.put("driverClass", config.driverClass());
        file.put("replicationFactor", config.replicationFactor());
        file.put("topicConfig", properties(config.topicConfig()));
        file.put("commonConfig", properties(config.commonConfig()));
        file.put("producerConfig", properties(config.producerConfig()));
        file.put("consumerConfig", properties(config.consumerConfig()));
        // the SSE driver's, the url already pointed at the coordinator's in-process zilla for a throughZilla file
        if (config.sse().url() != null)
        {
            file.put("sseUrl", config.sse().url());
        }
        file.put("sseConnectionsPerSecond", config.sse().connectionsPerSecond());
        file.put("sseSelectorThreads", config.sse().selectorThreads());
        file.put("sseReconnect", config.sse().reconnect());
        // the HTTP driver's, the urls likewise pointed at the coordinator's in-process zilla
        final HttpOptions http = config.http();
        if (http.url() != null)
        {
            file.put("httpUrl", http.url());
        }
        if (http.fetchUrl() != null)
        {
            file.put("httpFetchUrl", http.fetchUrl());
        }
        if (http.keyHeader() != null)
        {
            file.put("httpKeyHeader", http.keyHeader());
        }
        file.put("httpTransport", http.transport());
        file.put("httpConnections", http.connections());
        file.put("httpMaxStreams", http.maxStreams());
        file.put("httpMaxPending", http.maxPending());
        file.put("httpSelectorThreads", http.selectorThreads());
        file.put("httpConsumer", http.consumer());
        file.put("httpFetchWaitSeconds", http.fetchWaitSeconds());
        return YAML.writeValueAsString(file);
    }

    /** Java properties text, escaped by the JDK's own writer, that DriverConfig reads back with Properties.load. */
    private static String properties(Properties properties) throws IOException
    {
        final StringWriter text = new StringWriter();
        properties.store(text, null);
        return text.toString();
    }
}
