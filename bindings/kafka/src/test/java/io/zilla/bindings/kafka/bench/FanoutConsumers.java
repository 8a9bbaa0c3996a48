/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.zilla.engine.test.ThreadStats;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The reference side of the fan-out benchmark: one KafkaConsumer per subscriber, each on its own thread (a
 * KafkaConsumer is not thread-safe: an application gives each subscriber one), each assigned every partition of the
 * topic from its beginning, no group, fetch.min.bytes 1 (as the client benchmark), kafka-clients' defaults otherwise,
 * counting the records it polls. A consumer is ready once its first poll has returned (its positions resolved, its
 * first Fetch sent). Their CPU and allocation are those of their threads ({@value #THREAD_PREFIX}...).
 */
final class FanoutConsumers implements AutoCloseable
{
    static final String THREAD_PREFIX = "bench-fanout-consumer-";

    private final int count;
    private final AtomicLong records = new AtomicLong();
    private final AtomicInteger ready = new AtomicInteger();
    private final AtomicInteger stopped = new AtomicInteger();
    private final AtomicReference<String> error = new AtomicReference<>();
    private final long[] byConsumer;
    private final long[] fetches;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    FanoutConsumers(String bootstrap, String topic, int partitions, int count)
    {
        this.count = count;
        this.byConsumer = new long[count];
        this.fetches = new long[count];
        for (int i = 0; i < count; i++)
        {
            final int index = i;
            final Properties config = new Properties();
            config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            config.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-fanout-" + i);
            config.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
            config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            final Thread thread = new Thread(() -> consume(index, config, topic, partitions), THREAD_PREFIX + i);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    private void consume(int index, Properties config, String topic, int partitions)
    {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config))
        {
            final List<TopicPartition> assigned = new ArrayList<>();
            for (int p = 0; p < partitions; p++)
            {
                assigned.add(new TopicPartition(topic, p));
            }
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            boolean first = true;
            long metricsAt = System.nanoTime();
            while (running)
            {
                if (System.nanoTime() - metricsAt >= 0L)
                {
                    // the Fetch requests this consumer sent, once a second: what it asks of the broker
                    metricsAt = System.nanoTime() + 1_000_000_000L;
                    fetches[index] = fetchTotal(consumer);
                }
                final ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(100));
                final int got = polled.count();
                if (got > 0)
                {
                    byConsumer[index] += got;
                    records.addAndGet(got);
                }
                if (first)
                {
                    first = false;
                    ready.incrementAndGet();
                }
            }
        }
        catch (RuntimeException ex)
        {
            error.compareAndSet(null, ex.toString());
        }
        finally
        {
            stopped.incrementAndGet();
        }
    }

    private static long fetchTotal(KafkaConsumer<byte[], byte[]> consumer)
    {
        for (Map.Entry<MetricName, ? extends Metric> metric : consumer.metrics().entrySet())
        {
            final MetricName name = metric.getKey();
            if ("fetch-total".equals(name.name()) && "consumer-fetch-manager-metrics".equals(name.group()))
            {
                return (long) ((Number) metric.getValue().metricValue()).doubleValue();
            }
        }
        return 0L;
    }

    /** The Fetch requests the consumers sent, as of each one's last look (once a second). */
    long fetchRequests()
    {
        long total = 0L;
        for (long each : fetches)
        {
            total += each;
        }
        return total;
    }

    int count()
    {
        return count;
    }

    long records()
    {
        return records.get();
    }

    int ready()
    {
        return ready.get();
    }

    String error()
    {
        return error.get();
    }

    long minRecords()
    {
        long min = Long.MAX_VALUE;
        for (long each : byConsumer)
        {
            min = Math.min(min, each);
        }
        return count > 0 ? min : 0L;
    }

    long maxRecords()
    {
        long max = 0L;
        for (long each : byConsumer)
        {
            max = Math.max(max, each);
        }
        return max;
    }

    static ThreadStats threads()
    {
        return ThreadStats.of(THREAD_PREFIX);
    }

    @Override
    public void close() throws InterruptedException
    {
        running = false;
        for (Thread thread : threads)
        {
            thread.join(30_000L);
        }
    }
}
