/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.resource.v1.Resource;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.internal.event.EngineEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's events as OTLP log records: each event is made a record on the events thread and queued (at most
 * {@link #MAX_QUEUED}; beyond, it is dropped and counted), and every interval the exporter's own thread POSTs what is
 * queued as {@code ExportLogsServiceRequest}s. A push the collector may take later (no connection, 429, 502, 503,
 * 504) keeps its records queued, first, for the next; one it refuses for good (another status) drops them.
 */
final class OtlpLogs implements AutoCloseable
{
    /** Records queued at most, those a failed push kept among them. */
    static final int MAX_QUEUED = 10_000;

    private static final Logger LOGGER = LoggerFactory.getLogger(OtlpLogs.class);
    private static final int BATCH = 1_000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** What the collector may take later (the OTLP specification's retryable statuses). */
    private static final Set<Integer> RETRYABLE = Set.of(429, 502, 503, 504);
    /** The events that report zilla doing its job; every other reports something refused, failed or cut short. */
    private static final Set<String> INFO = Set.of("engine.config.reloaded");

    private final String exporter;
    private final String uri;
    private final Map<String, String> headers;
    private final Resource resource;
    private final Supplier<NamespaceConfig> namespace;
    private final int interval;
    private final HttpClient client;
    private final ArrayBlockingQueue<LogRecord> queue = new ArrayBlockingQueue<>(MAX_QUEUED);
    private final AtomicLong dropped = new AtomicLong();
    private ScheduledExecutorService pusher;
    private long reported;
    private boolean failing;

    OtlpLogs(String exporter, String uri, Map<String, String> headers, Resource resource,
        Supplier<NamespaceConfig> namespace, int interval)
    {
        this.exporter = exporter;
        this.uri = uri;
        this.headers = headers;
        this.resource = resource;
        this.namespace = namespace;
        this.interval = interval;
        this.client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
    }

    /** Pushes every interval from now on, on a thread of {@code threads}. */
    void start(ThreadFactory threads)
    {
        pusher = Executors.newSingleThreadScheduledExecutor(threads);
        pusher.scheduleAtFixedRate(this::push, interval, interval, TimeUnit.SECONDS);
    }

    /** On the events thread: the event as a record, queued, or dropped and counted when the queue is full. */
    void onEvent(EngineEvent event)
    {
        if (!queue.offer(record(event, namespace.get().name(), Instant.now())))
        {
            dropped.incrementAndGet();
        }
    }

    /** Stops the pushes, with a last one of what is queued, on the exporter's thread after any push in flight. */
    @Override
    public void close()
    {
        if (pusher == null)
        {
            return;
        }
        pusher.execute(this::push);
        pusher.shutdown();
        try
        {
            if (!pusher.awaitTermination(CLOSE_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
            {
                pusher.shutdownNow();
            }
        }
        catch (InterruptedException ex)
        {
            pusher.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** What the event is in OTLP: its timestamp, its detail as the body, and where it came from as attributes. */
    static LogRecord record(EngineEvent event, String namespace, Instant observed)
    {
        final SeverityNumber severity = severity(event);
        final LogRecord.Builder record = LogRecord.newBuilder()
            .setTimeUnixNano(TimeUnit.MILLISECONDS.toNanos(event.timestamp()))
            .setObservedTimeUnixNano(TimeUnit.SECONDS.toNanos(observed.getEpochSecond()) + observed.getNano())
            .setSeverityNumber(severity)
            .setSeverityText(severity.name().substring("SEVERITY_NUMBER_".length()))
            .setEventName(event.event())
            .setBody(AnyValue.newBuilder().setStringValue(event.detail()))
            .addAttributes(attribute("namespace", namespace))
            .addAttributes(attribute("binding", event.binding()))
            .addAttributes(attribute("event", event.event()));
        if (event.traceId() != 0L)
        {
            // zilla's trace id, as its stdout line shows it: not an OTLP trace_id, which names a W3C trace of 16 bytes
            record.addAttributes(attribute("zilla.trace.id", "0x" + Long.toHexString(event.traceId())));
        }
        return record.build();
    }

    /** ERROR for a binding that threw (a fault), INFO for zilla doing its job, WARN for the rest. */
    static SeverityNumber severity(EngineEvent event)
    {
        final SeverityNumber severity;
        if (event.isFault() || event.event().endsWith(".fault"))
        {
            severity = SeverityNumber.SEVERITY_NUMBER_ERROR;
        }
        else if (INFO.contains(event.event()))
        {
            severity = SeverityNumber.SEVERITY_NUMBER_INFO;
        }
        else
        {
            severity = SeverityNumber.SEVERITY_NUMBER_WARN;
        }
        return severity;
    }

    /**
     * Sends what was queued when it began, a batch at a time, and removes each batch once the collector took it. Only
     * this thread removes records, and the events thread only adds them at the tail: the first records are still
     * those sent.
     */
    private void push()
    {
        try
        {
            reportDrops();
            int remaining = queue.size();
            final List<LogRecord> batch = new ArrayList<>(BATCH);
            while (remaining > 0)
            {
                batch.clear();
                final Iterator<LogRecord> records = queue.iterator();
                while (batch.size() < Math.min(BATCH, remaining) && records.hasNext())
                {
                    batch.add(records.next());
                }
                if (batch.isEmpty() || !send(batch))
                {
                    break;
                }
                for (int i = 0; i < batch.size(); i++)
                {
                    queue.poll();
                }
                remaining -= batch.size();
            }
        }
        catch (RuntimeException ex)
        {
            // a scheduled task that throws is never run again: the next interval tries anew
            LOGGER.warn("{}: cannot push the logs to {}: {}", exporter, uri, ex.toString());
        }
    }

    /** Whether the batch is done with: taken, or refused for good (and dropped); false when it is to be sent again. */
    private boolean send(List<LogRecord> batch)
    {
        final byte[] body = ExportLogsServiceRequest.newBuilder()
            .addResourceLogs(ResourceLogs.newBuilder()
                .setResource(resource)
                .addScopeLogs(ScopeLogs.newBuilder().addAllLogRecords(batch)))
            .build()
            .toByteArray();
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri))
            .timeout(REQUEST_TIMEOUT)
            .header("Content-Type", "application/x-protobuf")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        final int status;
        try
        {
            status = client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        }
        catch (IOException ex)
        {
            failed("cannot push the logs to {}: {} (keeping {} records, retrying every interval)", ex.toString(),
                queue.size());
            return false;
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
        if (status / 100 == 2)
        {
            failing = false;
            return true;
        }
        if (RETRYABLE.contains(status))
        {
            failed("cannot push the logs to {}: HTTP {} (keeping {} records, retrying every interval)", status,
                queue.size());
            return false;
        }
        failed("the collector at {} refused the logs: HTTP {} ({} records dropped)", status, batch.size());
        return true;
    }

    /** Says so once, until a push succeeds: not at every interval. */
    private void failed(String format, Object why, int records)
    {
        if (!failing)
        {
            LOGGER.warn("{}: " + format, exporter, uri, why, records);
        }
        failing = true;
    }

    private void reportDrops()
    {
        final long now = dropped.get();
        if (now > reported)
        {
            LOGGER.warn("{}: {} events dropped since the last push, {} in all: more than {} records queued for {}",
                exporter, now - reported, now, MAX_QUEUED, uri);
            reported = now;
        }
    }

    private static KeyValue attribute(String key, String value)
    {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }
}
