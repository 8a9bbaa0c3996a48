/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.Properties;

/**
 * One OMB driver file: which driver to run and its client properties. {@code topicConfig}, {@code commonConfig},
 * {@code producerConfig} and {@code consumerConfig} are Java-properties text, as in OMB's Kafka driver files.
 * <p>
 * Fields we do not know are ignored, as OMB ignores them; so is {@code reset}, which current OMB no longer reads. A
 * {@code replicationFactor} or {@code min.insync.replicas} above the cluster's size is capped by the Kafka driver.
 * <p>
 * {@code throughZilla: true} is our extension (OMB ignores it): the benchmark starts zilla's kafka proxy in-process in
 * front of the brokers and points this driver's {@code bootstrap.servers} at it; for the SSE driver it starts the SSE
 * fan-out graph ({@code tcp -> http -> sse -> sse-kafka -> kafka cache}) instead and points the driver's
 * {@code sseUrl} at it, the producers going to the brokers directly.
 * <p>
 * {@code sseUrl}, {@code sseConnectionsPerSecond}, {@code sseSelectorThreads} and {@code sseReconnect} are the SSE
 * driver's ({@link SseOptions}), the {@code http*} fields the HTTP driver's ({@link HttpOptions}), ignored by the
 * others. For the HTTP driver {@code throughZilla} starts the http-kafka graph ({@code tcp -> http -> http-kafka ->
 * kafka cache}) and points {@code httpUrl} at it, the consumers reading the brokers directly.
 * <p>
 * The properties are copied in and out, so a record never changes after it is read.
 */
public record DriverConfig(
    String name,
    String driverClass,
    int replicationFactor,
    Properties topicConfig,
    Properties commonConfig,
    Properties producerConfig,
    Properties consumerConfig,
    boolean throughZilla,
    SseOptions sse,
    HttpOptions http)
{
    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";

    public DriverConfig
    {
        topicConfig = copy(topicConfig);
        commonConfig = copy(commonConfig);
        producerConfig = copy(producerConfig);
        consumerConfig = copy(consumerConfig);
        sse = sse != null ? sse : SseOptions.DEFAULT;
        http = http != null ? http : HttpOptions.DEFAULT;
    }

    @Override
    public Properties topicConfig()
    {
        return copy(topicConfig);
    }

    @Override
    public Properties commonConfig()
    {
        return copy(commonConfig);
    }

    @Override
    public Properties producerConfig()
    {
        return copy(producerConfig);
    }

    @Override
    public Properties consumerConfig()
    {
        return copy(consumerConfig);
    }

    /** The file's own {@code bootstrap.servers}, or null. */
    public String bootstrapServers()
    {
        return commonConfig.getProperty(BOOTSTRAP_SERVERS);
    }

    /** The same driver against other brokers: {@code bootstrap.servers} of {@code commonConfig} replaced. */
    public DriverConfig withBootstrapServers(String bootstrapServers)
    {
        final Properties common = copy(commonConfig);
        common.setProperty(BOOTSTRAP_SERVERS, bootstrapServers);
        return new DriverConfig(name, driverClass, replicationFactor, topicConfig, common, producerConfig, consumerConfig,
            throughZilla, sse, http);
    }

    /** The same driver with its SSE endpoints at {@code url} (a template with {@code {topic}}). */
    public DriverConfig withSseUrl(String url)
    {
        return new DriverConfig(name, driverClass, replicationFactor, topicConfig, commonConfig, producerConfig,
            consumerConfig, throughZilla, sse.withUrl(url), http);
    }

    /**
     * The same driver with its HTTP produce endpoints at {@code url} and, unless the file names its own, its fetch
     * endpoints at {@code fetchUrl} (templates with {@code {topic}}).
     */
    public DriverConfig withHttpUrls(String url, String fetchUrl)
    {
        return new DriverConfig(name, driverClass, replicationFactor, topicConfig, commonConfig, producerConfig,
            consumerConfig, throughZilla, sse, http.withUrls(url, fetchUrl));
    }

    public static DriverConfig read(Path file)
    {
        return read(YamlFields.read(file));
    }

    public static DriverConfig parse(String source, String yaml)
    {
        return read(YamlFields.parse(source, yaml));
    }

    private static DriverConfig read(YamlFields fields)
    {
        final String name = fields.requiredString("name");
        final String driverClass = fields.requiredString("driverClass");
        final int replicationFactor = fields.intValue("replicationFactor", 1, 1, Short.MAX_VALUE);
        return new DriverConfig(name, driverClass, replicationFactor,
            properties(fields, "topicConfig"),
            properties(fields, "commonConfig"),
            properties(fields, "producerConfig"),
            properties(fields, "consumerConfig"),
            fields.booleanValue("throughZilla", false),
            SseOptions.read(fields),
            HttpOptions.read(fields));
    }

    private static Properties properties(YamlFields fields, String name)
    {
        final Properties properties = new Properties();
        final String text = fields.string(name, "");
        try
        {
            properties.load(new StringReader(text));
        }
        catch (IOException | IllegalArgumentException ex)
        {
            throw fields.invalid(name, "not Java properties text: " + ex.getMessage());
        }
        return properties;
    }

    private static Properties copy(Properties properties)
    {
        final Properties copy = new Properties();
        if (properties != null)
        {
            copy.putAll(properties);
        }
        return copy;
    }
}
