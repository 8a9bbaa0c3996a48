/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One producer and one consumer against one bootstrap address and one topic, each on its own thread: the load of
 * one run of {@link KafkaProxyBench}.
 * <p>
 * The producer sends {@code size}-byte values without key (acks=all, idempotence as kafka-clients defaults it) at a
 * fixed rate, or as fast as {@code send} returns when the rate is 0. A rate limited producer has an intended send
 * time for every message, {@code start + i / rate}, and waits for it (parking), so a stall delays every later
 * message's actual send and the latency from the intended time shows it (coordinated omission). Each value starts
 * with the actual send time and the intended one, both {@link System#nanoTime()}; the consumer (all partitions
 * assigned, {@code fetch.min.bytes=1}) reads them for the end-to-end latency. Latencies are recorded only for the
 * messages whose intended send time lies in the measured window, which is known before the run starts.
 */
final class BenchLoad implements AutoCloseable
{
    static final String PRODUCER_THREAD = "bench-producer";
    static final String CONSUMER_THREAD = "bench-consumer";

    private static final int STAMPS = 16;
    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final String topic;
    private final int partitions;
    private final int size;
    private final double rate;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread producerThread;
    private final Thread consumerThread;
    private final CountDownLatch consumerReady = new CountDownLatch(1);
    // set before the consumer's thread starts, null to leave it on the cores it inherits
    private String consumerCpus;

    // written by the producer's network thread (callbacks), read after producer.close()
    private final Histogram publish = new Histogram(3);
    private final Histogram publishFromIntended = new Histogram(3);
    // written by the consumer thread, read after it ended
    private final Histogram endToEnd = new Histogram(3);
    private final Histogram endToEndFromIntended = new Histogram(3);

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong consumed = new AtomicLong();
    private final AtomicLong corrupt = new AtomicLong();

    private volatile boolean producing = true;
    private volatile boolean consuming = true;
    private volatile Throwable firstError;
    private volatile boolean threadFailed;
    // set before the producer starts; the consumer runs before and reads them per record
    private volatile long start;
    private volatile long windowStart = Long.MAX_VALUE;
    private volatile long windowEnd = Long.MAX_VALUE;

    /** @param rate messages per second, 0 for as fast as the producer takes them */
    BenchLoad(String bootstrap, String topic, int partitions, int size, double rate, int lingerMs, int batchSize,
        int fetchMinBytes)
    {
        if (size < STAMPS)
        {
            throw new IllegalArgumentException("--size must be at least " + STAMPS);
        }
        this.topic = topic;
        this.partitions = partitions;
        this.size = size;
        this.rate = rate;

        final Properties producerConfig = new Properties();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        producerConfig.put(ProducerConfig.BATCH_SIZE_CONFIG, batchSize);
        producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, producerClientId());
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        this.producer = new KafkaProducer<>(producerConfig);

        final Properties consumerConfig = new Properties();
        consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerConfig.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, fetchMinBytes);
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, consumerClientId());
        consumerConfig.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        this.consumer = new KafkaConsumer<>(consumerConfig);

        this.producerThread = new Thread(this::produce, PRODUCER_THREAD);
        this.consumerThread = new Thread(this::consume, CONSUMER_THREAD);
    }

    /** Runs the consumer's thread on {@code cpus} (a taskset cpu list) instead of the cores it inherits. */
    BenchLoad pinConsumer(String cpus)
    {
        this.consumerCpus = cpus;
        return this;
    }

    /**
     * Starts the consumer, waits until it has its positions, then the producer; the metadata of the topic is fetched
     * before the first message is due, so that the warmup is not spent on it. The first message is due at once; the
     * measured window opens after {@code warmupNanos} and lasts {@code durationNanos}.
     */
    void start(long warmupNanos, long durationNanos) throws InterruptedException
    {
        consumerThread.start();
        if (!consumerReady.await(60, TimeUnit.SECONDS))
        {
            throw new IllegalStateException("consumer of " + topic + " not ready within 60 s: " + firstError);
        }
        producer.partitionsFor(topic);
        start = System.nanoTime();
        windowStart = start + warmupNanos;
        windowEnd = windowStart + durationNanos;
        producerThread.start();
    }

    /** When the measured window opens, {@link System#nanoTime()}, once started. */
    long windowStart()
    {
        return windowStart;
    }

    /** When it closes. */
    long windowEnd()
    {
        return windowEnd;
    }

    /** Stops sending, waits for every acknowledgement and until the consumer has read every acknowledged message. */
    void stop() throws InterruptedException
    {
        producing = false;
        producerThread.join();
        producer.flush();
        final long deadline = System.nanoTime() + DRAIN_TIMEOUT_NANOS;
        while (consumed.get() < acked.get() && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        consuming = false;
        consumerThread.join();
    }

    @Override
    public void close()
    {
        producing = false;
        try
        {
            producerThread.join(30_000);
            producer.close(Duration.ofSeconds(30));
            consuming = false;
            consumerThread.join(30_000);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    String producerClientId()
    {
        return "bench-producer-" + topic;
    }

    String consumerClientId()
    {
        return "bench-consumer-" + topic;
    }

    long sent()
    {
        return sent.get();
    }

    long acked()
    {
        return acked.get();
    }

    long consumed()
    {
        return consumed.get();
    }

    /** Failed sends, values of the wrong size and errors of either thread. */
    long errors()
    {
        return failed.get() + corrupt.get() + (threadFailed ? 1 : 0);
    }

    Throwable firstError()
    {
        return firstError;
    }

    /** Send to acknowledgement, ns; complete only after {@link #close()}. */
    Histogram publish()
    {
        return publish;
    }

    /** Intended send time to acknowledgement, ns. */
    Histogram publishFromIntended()
    {
        return publishFromIntended;
    }

    /** Send to the consumer's poll returning it, ns; complete after {@link #stop()}. */
    Histogram endToEnd()
    {
        return endToEnd;
    }

    /** Intended send time to the consumer's poll returning it, ns. */
    Histogram endToEndFromIntended()
    {
        return endToEndFromIntended;
    }

    private void produce()
    {
        try
        {
            final byte[] value = new byte[size];
            for (int i = STAMPS; i < size; i++)
            {
                value[i] = (byte) i;
            }
            // send() copies the value into its batch before it returns, so one array serves every message
            final ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, value);
            final long interval = rate > 0 ? Math.round(1e9 / rate) : 0;
            long intended = start;
            long now = System.nanoTime();
            while (now < start)
            {
                LockSupport.parkNanos(start - now);
                now = System.nanoTime();
            }
            while (producing)
            {
                if (interval > 0)
                {
                    now = System.nanoTime();
                    if (now < intended)
                    {
                        LockSupport.parkNanos(intended - now);
                        continue;
                    }
                }
                else
                {
                    now = System.nanoTime();
                    intended = now;
                }
                putLong(value, 0, now);
                putLong(value, 8, intended);
                producer.send(record, new Acknowledgement(now, intended));
                sent.lazySet(sent.get() + 1);
                intended += interval;
            }
        }
        catch (Throwable ex)
        {
            threadFailed = true;
            error(ex);
        }
    }

    private void consume()
    {
        try
        {
            if (consumerCpus != null)
            {
                CpuPinning.pinCurrentThread(consumerCpus);
            }
            final List<TopicPartition> assignment = new ArrayList<>();
            for (int partition = 0; partition < partitions; partition++)
            {
                assignment.add(new TopicPartition(topic, partition));
            }
            consumer.assign(assignment);
            consumer.seekToBeginning(assignment);
            for (TopicPartition partition : assignment)
            {
                consumer.position(partition, Duration.ofSeconds(60));
            }
            consumerReady.countDown();
            long count = 0;
            while (consuming)
            {
                final ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                final long now = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> record : records)
                {
                    final byte[] value = record.value();
                    if (value == null || value.length != size)
                    {
                        corrupt.incrementAndGet();
                        continue;
                    }
                    final long sentAt = getLong(value, 0);
                    final long intended = getLong(value, 8);
                    if (intended >= windowStart && intended < windowEnd)
                    {
                        endToEnd.recordValue(Math.max(0, now - sentAt));
                        endToEndFromIntended.recordValue(Math.max(0, now - intended));
                    }
                    count++;
                }
                consumed.lazySet(count);
            }
        }
        catch (Throwable ex)
        {
            threadFailed = true;
            consumerReady.countDown();
            error(ex);
        }
        finally
        {
            consumer.close(Duration.ofSeconds(10));
        }
    }

    private void error(Throwable ex)
    {
        if (firstError == null)
        {
            firstError = ex;
        }
    }

    private static void putLong(byte[] buffer, int offset, long value)
    {
        for (int i = 7; i >= 0; i--)
        {
            buffer[offset + i] = (byte) value;
            value >>>= 8;
        }
    }

    private static long getLong(byte[] buffer, int offset)
    {
        long value = 0;
        for (int i = 0; i < 8; i++)
        {
            value = (value << 8) | (buffer[offset + i] & 0xff);
        }
        return value;
    }

    /** Records one send's publish latency on the producer's network thread. */
    private final class Acknowledgement implements Callback
    {
        private final long sentAt;
        private final long intended;

        Acknowledgement(long sentAt, long intended)
        {
            this.sentAt = sentAt;
            this.intended = intended;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception)
        {
            final long now = System.nanoTime();
            if (exception != null)
            {
                failed.incrementAndGet();
                error(exception);
                return;
            }
            if (intended >= windowStart && intended < windowEnd)
            {
                publish.recordValue(Math.max(0, now - sentAt));
                publishFromIntended.recordValue(Math.max(0, now - intended));
            }
            acked.lazySet(acked.get() + 1);
        }
    }
}
