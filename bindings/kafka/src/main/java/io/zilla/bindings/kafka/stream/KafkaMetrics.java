/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.metrics.BindingMetrics;
import io.zilla.engine.metrics.Buckets;
import io.zilla.engine.metrics.Histogram;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricUnit;
import org.agrona.concurrent.status.AtomicCounter;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The {@code kafka.*} metrics of one kafka binding on one worker, each null unless the binding's telemetry selects it,
 * so that the data path pays one null check for a metric nobody wants. Which kind records which: a client binding the
 * produce (records, bytes, retries), fetch, broker connection and request duration metrics, a cache_client
 * {@code kafka.cache.reads} and a cache_server {@code kafka.cache.fetched} and {@code kafka.cache.lag}
 * (docs/telemetry.md, "kafka"). A proxy records none of its own: it passes Produce and Fetch through without
 * remembering them (only the requests whose responses it rewrites), so it has no request to time them against.
 */
public final class KafkaMetrics
{
    public static final Metric PRODUCE_RECORDS = Metric.counter("kafka.produce.records", MetricUnit.COUNT,
        "Records produced, counted when Kafka acknowledged them");
    public static final Metric PRODUCE_BYTES = Metric.counter("kafka.produce.bytes", MetricUnit.BYTES,
        "Value bytes of the records produced, counted when Kafka acknowledged them");
    public static final Metric PRODUCE_RETRIES = Metric.counter("kafka.produce.retries", MetricUnit.COUNT,
        "Record batches sent to Kafka again after a retriable error or a lost connection, one per batch per retry");
    public static final Metric FETCH_RECORDS = Metric.counter("kafka.fetch.records", MetricUnit.COUNT,
        "Records fetched and delivered to the application");
    public static final Metric FETCH_BYTES = Metric.counter("kafka.fetch.bytes", MetricUnit.BYTES,
        "Value bytes of the records fetched and delivered to the application");
    public static final Metric BROKER_CONNECTIONS = Metric.gauge("kafka.broker.connections",
        "Broker connections open now");
    /** Kafka's names of the apis, by key ({@code Produce}, {@code Fetch}), as its own request metrics label them. */
    private static final String[] API_NAMES = apiNames();
    public static final Metric REQUEST_DURATION = Metric.histogram("kafka.request.duration", MetricUnit.NANOSECONDS,
        "Time from writing a request to a broker to reading its response", Buckets.DURATIONS, "api",
        Arrays.stream(API_NAMES).filter(Objects::nonNull).toArray(String[]::new));
    public static final Metric CACHE_READS = Metric.counter("kafka.cache.reads", MetricUnit.COUNT,
        "Records delivered from the cache to its readers");
    public static final Metric CACHE_FETCHED = Metric.counter("kafka.cache.fetched", MetricUnit.COUNT,
        "Records the cache fetched from Kafka and appended");
    public static final Metric CACHE_LAG = Metric.gauge("kafka.cache.lag",
        "Records Kafka has that the cache has not fetched yet, over the partitions it caches");

    /** What a kafka binding records beyond stream.*. */
    public static final List<Metric> DECLARED = List.of(PRODUCE_RECORDS, PRODUCE_BYTES, PRODUCE_RETRIES, FETCH_RECORDS,
        FETCH_BYTES, BROKER_CONNECTIONS, REQUEST_DURATION, CACHE_READS, CACHE_FETCHED, CACHE_LAG);

    final AtomicCounter produceRecords;
    final AtomicCounter produceBytes;
    final AtomicCounter produceRetries;
    final AtomicCounter fetchRecords;
    final AtomicCounter fetchBytes;
    final AtomicCounter brokerConnections;
    /** Whether kafka.request.duration is recorded: its series by api are made at each api's first answer. */
    final boolean timed;
    final AtomicCounter cacheReads;
    final AtomicCounter cacheFetched;
    final AtomicCounter cacheLag;

    private final BindingMetrics metrics;
    private final Histogram[] requestDurations = new Histogram[API_NAMES.length];

    /**
     * The selected metrics of {@code binding}, the one that records them, among those its kind records: a selected
     * handle is a series from the start (at 0), so a client binding asking for {@code kafka.*} shows no cache series.
     */
    KafkaMetrics(EngineContext context, BindingConfig binding)
    {
        final BindingMetrics metrics = context.supplyMetrics(binding.id());
        final KindConfig kind = binding.kind();
        final boolean client = kind == KindConfig.CLIENT;
        this.produceRecords = client ? metrics.counter(PRODUCE_RECORDS) : null;
        this.produceBytes = client ? metrics.counter(PRODUCE_BYTES) : null;
        this.produceRetries = client ? metrics.counter(PRODUCE_RETRIES) : null;
        this.fetchRecords = client ? metrics.counter(FETCH_RECORDS) : null;
        this.fetchBytes = client ? metrics.counter(FETCH_BYTES) : null;
        this.brokerConnections = client ? metrics.counter(BROKER_CONNECTIONS) : null;
        this.timed = client && metrics.selects(REQUEST_DURATION);
        this.metrics = metrics;
        this.cacheReads = kind == KindConfig.CACHE_CLIENT ? metrics.counter(CACHE_READS) : null;
        this.cacheFetched = kind == KindConfig.CACHE_SERVER ? metrics.counter(CACHE_FETCHED) : null;
        this.cacheLag = kind == KindConfig.CACHE_SERVER ? metrics.counter(CACHE_LAG) : null;
    }

    /** The kafka.request.duration series of one api, made at its first answer on this worker; null when not timed. */
    Histogram requestDuration(short apiKey)
    {
        Histogram histogram = null;
        if (timed && apiKey >= 0 && apiKey < API_NAMES.length && API_NAMES[apiKey] != null)
        {
            histogram = requestDurations[apiKey];
            if (histogram == null)
            {
                histogram = metrics.histogram(REQUEST_DURATION, "api=" + API_NAMES[apiKey]);
                requestDurations[apiKey] = histogram;
            }
        }
        return histogram;
    }

    private static String[] apiNames()
    {
        int max = 0;
        for (ApiKeys api : ApiKeys.values())
        {
            max = Math.max(max, api.id);
        }
        final String[] names = new String[max + 1];
        for (ApiKeys api : ApiKeys.values())
        {
            names[api.id] = api.name;
        }
        return names;
    }
}
