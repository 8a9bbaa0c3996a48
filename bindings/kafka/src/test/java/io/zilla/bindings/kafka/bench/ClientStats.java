/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What the benchmark's clients cost and how they batched: the CPU of this JVM without zilla's workers (the producer,
 * the consumer, and the GC and JIT threads that serve them), the producer's requests and the consumer's fetches. The
 * counts come from the clients' JMX metrics, which any thread may read (a KafkaConsumer's own {@code metrics()} is
 * for its polling thread only). Fewer records per request or per fetch costs the broker and the clients more CPU per
 * message: this is how a hop that changes the clients' batching shows.
 */
record ClientStats(long cpuNanos, long produceRequests, long fetches)
{
    static final ClientStats NONE = new ClientStats(0L, 0L, 0L);

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    /** Now: this whole JVM's CPU (zilla's workers included, see {@link #withoutWorkers}) and the clients' totals. */
    static ClientStats now(String producerClientId, String consumerClientId)
    {
        final long cpu = ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
        return new ClientStats(cpu,
            metric("kafka.producer:type=producer-metrics,client-id=" + producerClientId, "request-total"),
            metric("kafka.consumer:type=consumer-fetch-manager-metrics,client-id=" + consumerClientId, "fetch-total"));
    }

    ClientStats minus(ClientStats other)
    {
        return new ClientStats(cpuNanos - other.cpuNanos, produceRequests - other.produceRequests, fetches - other.fetches);
    }

    ClientStats plus(ClientStats other)
    {
        return new ClientStats(cpuNanos + other.cpuNanos, produceRequests + other.produceRequests, fetches + other.fetches);
    }

    ClientStats withoutWorkers(long workerCpuNanos)
    {
        return new ClientStats(cpuNanos - workerCpuNanos, produceRequests, fetches);
    }

    private static long metric(String name, String attribute)
    {
        try
        {
            final Object value = SERVER.getAttribute(new ObjectName(name), attribute);
            return value instanceof Number number ? number.longValue() : 0L;
        }
        catch (JMException ex)
        {
            // a client not yet registered (or already closed) has made no requests this run can count
            return 0L;
        }
    }
}
