/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The fan-out benchmark's source of records: one KafkaProducer on its own thread ({@value #THREAD_NAME}) that sends
 * records of one size, no key, round robin over the partitions, at a fixed rate (record i at {@code i / rate} seconds
 * from the start, never in bursts to catch up more than the schedule says), for a fixed time, then flushes. acks all,
 * idempotence off (as the client benchmark's producer), linger.ms 5, batch.size 64 KiB.
 */
final class FixedRateProducer
{
    static final String THREAD_NAME = "bench-fanout-producer";

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicReference<String> error = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean done;
    private volatile long startNanos;

    FixedRateProducer(String bootstrap, String topic, int partitions, int size, double rate, long nanos)
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 65536);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        final byte[] value = new byte[size];
        for (int i = 0; i < size; i++)
        {
            value[i] = (byte) ('a' + i % 26);
        }
        final double interval = TimeUnit.SECONDS.toNanos(1) / rate;
        this.thread = new Thread(() ->
        {
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config))
            {
                // the producer's metadata first, so that the schedule starts with the first send
                producer.partitionsFor(topic);
                final long start = System.nanoTime();
                startNanos = start;
                for (long i = 0; error.get() == null; i++)
                {
                    final long at = start + (long) (i * interval);
                    if (at - start >= nanos)
                    {
                        break;
                    }
                    long wait;
                    while ((wait = at - System.nanoTime()) > 0)
                    {
                        LockSupport.parkNanos(wait);
                    }
                    producer.send(new ProducerRecord<>(topic, (int) (i % partitions), null, value), (metadata, ex) ->
                    {
                        if (ex != null)
                        {
                            error.compareAndSet(null, ex.toString());
                        }
                        else
                        {
                            acked.incrementAndGet();
                        }
                    });
                    sent.incrementAndGet();
                }
                producer.flush();
            }
            catch (RuntimeException ex)
            {
                error.compareAndSet(null, ex.toString());
            }
            finally
            {
                done = true;
            }
        }, THREAD_NAME);
    }

    FixedRateProducer start()
    {
        thread.start();
        return this;
    }

    /** When the first record was due ({@link System#nanoTime()}), 0 before. */
    long startNanos()
    {
        return startNanos;
    }

    long sent()
    {
        return sent.get();
    }

    long acked()
    {
        return acked.get();
    }

    boolean done()
    {
        return done;
    }

    String error()
    {
        return error.get();
    }

    void join() throws InterruptedException
    {
        thread.join();
    }
}
