/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.zilla.engine.test.ThreadStats;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The kafka-clients side of the kafka client benchmark: a KafkaProducer (acks all, idempotence off like zilla's plain
 * streams, the given linger.ms and batch.size) that sends records of one size round robin over the partitions, no
 * key, as fast as {@code send} returns, then flushes; a KafkaConsumer (assign, seekToBeginning, fetch.min.bytes 1,
 * the given max.partition.fetch.bytes, no group) that polls until it has them all. Each runs on its own thread
 * ({@value #THREAD_PREFIX}...); their allocation is that thread's and the producer's network thread's.
 */
final class KafkaClientsLoad
{
    static final String THREAD_PREFIX = "bench-kafka-clients-";

    private final String bootstrap;
    private final int lingerMs;
    private final int batchSize;
    private final int maxPartitionFetchBytes;
    private final String compression;

    KafkaClientsLoad(String bootstrap, int lingerMs, int batchSize, int maxPartitionFetchBytes, String compression)
    {
        this.bootstrap = bootstrap;
        this.lingerMs = lingerMs;
        this.batchSize = batchSize;
        this.maxPartitionFetchBytes = maxPartitionFetchBytes;
        this.compression = compression;
    }

    KafkaClientBench.Load produce(String topic, int partitions, long records, int size)
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        config.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, batchSize);
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        final byte[] value = new byte[size];
        for (int i = 0; i < size; i++)
        {
            value[i] = (byte) ('a' + i % 26);
        }
        final ThreadLoad load = new ThreadLoad();
        load.start("producer", () ->
        {
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config))
            {
                for (long i = 0; i < records && load.error.get() == null; i++)
                {
                    producer.send(new ProducerRecord<>(topic, (int) (i % partitions), null, value), (metadata, ex) ->
                    {
                        if (ex != null)
                        {
                            load.error.compareAndSet(null, ex.toString());
                        }
                        else
                        {
                            load.records.incrementAndGet();
                            load.bytes.addAndGet(size);
                        }
                    });
                }
                producer.flush();
            }
        });
        return load;
    }

    KafkaClientBench.Load fetch(String topic, int partitions, long records)
    {
        final Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, maxPartitionFetchBytes);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        final ThreadLoad load = new ThreadLoad();
        load.start("consumer", () ->
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
                long count = 0;
                long bytes = 0;
                while (count < records && load.error.get() == null)
                {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100)))
                    {
                        count++;
                        bytes += record.value() != null ? record.value().length : 0;
                    }
                    load.bytes.set(bytes);
                    load.records.set(count);
                }
            }
        });
        return load;
    }

    private static final class ThreadLoad implements KafkaClientBench.Load
    {
        private final AtomicLong records = new AtomicLong();
        private final AtomicLong bytes = new AtomicLong();
        private final AtomicReference<String> error = new AtomicReference<>();
        private volatile boolean done;

        void start(String name, Runnable body)
        {
            final Thread thread = new Thread(() ->
            {
                try
                {
                    body.run();
                }
                catch (RuntimeException ex)
                {
                    error.compareAndSet(null, ex.toString());
                }
                finally
                {
                    done = true;
                }
            }, THREAD_PREFIX + name);
            thread.start();
        }

        @Override
        public long records()
        {
            return records.get();
        }

        @Override
        public long bytes()
        {
            return bytes.get();
        }

        @Override
        public boolean done()
        {
            return done;
        }

        @Override
        public String error()
        {
            return error.get();
        }

        @Override
        public ThreadStats threads()
        {
            // by thread, so that the window's difference is taken per thread
            final ThreadStats own = ThreadStats.of(THREAD_PREFIX);
            final ThreadStats network = ThreadStats.of("kafka-producer-network-thread");
            final Map<Long, long[]> byThread = new HashMap<>(own.byThread());
            byThread.putAll(network.byThread());
            return new ThreadStats(byThread, own.cpuNanos() + network.cpuNanos(), own.allocated() + network.allocated());
        }
    }
}
