/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.ConsumerCallback;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * One {@link KafkaConsumer} subscribed to one topic, polling on its own thread and handing every record to the
 * callback. {@link #start()} completes at the consumer's first assignment (possibly empty, when its group has more
 * consumers than partitions), so that the load does not start while the group is still forming.
 * <p>
 * Unless the client commits by itself ({@code enable.auto.commit=true}), each poll's offsets are committed
 * asynchronously after its records were handed over (each partition's last offset + 1), as OMB's Kafka driver does.
 */
final class KafkaBenchmarkConsumer implements BenchmarkConsumer
{
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    private static final long JOIN_TIMEOUT_SECONDS = 60;

    private final String topic;
    private final KafkaConsumer<String, byte[]> consumer;
    private final boolean autoCommit;
    private final ConsumerCallback callback;
    private final CompletableFuture<KafkaBenchmarkConsumer> assigned = new CompletableFuture<>();
    private final Thread thread;

    private volatile boolean running = true;

    KafkaBenchmarkConsumer(String topic, KafkaConsumer<String, byte[]> consumer, boolean autoCommit, ConsumerCallback callback)
    {
        this.topic = topic;
        this.consumer = consumer;
        this.autoCommit = autoCommit;
        this.callback = callback;
        this.thread = new Thread(this::poll, "omb-consumer-" + topic);
        this.thread.setDaemon(true);
    }

    CompletableFuture<KafkaBenchmarkConsumer> start()
    {
        thread.start();
        return assigned.orTimeout(JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public void close()
    {
        if (!running)
        {
            return;
        }
        running = false;
        consumer.wakeup();
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void poll()
    {
        try
        {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener()
            {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions)
                {
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions)
                {
                    assigned.complete(KafkaBenchmarkConsumer.this);
                }
            });
            while (running)
            {
                final ConsumerRecords<String, byte[]> records = consumer.poll(POLL_TIMEOUT);
                for (ConsumerRecord<String, byte[]> record : records)
                {
                    callback.messageReceived(record.value(), record.timestamp());
                }
                if (!autoCommit && !records.isEmpty())
                {
                    consumer.commitAsync(nextOffsets(records), null);
                }
            }
        }
        catch (WakeupException ex)
        {
            // closing
        }
        catch (RuntimeException ex)
        {
            assigned.completeExceptionally(ex);
            throw ex;
        }
        finally
        {
            consumer.close();
        }
    }

    /** Each partition's last offset in {@code records} plus one: where its consumer group resumes. */
    private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(ConsumerRecords<String, byte[]> records)
    {
        final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition partition : records.partitions())
        {
            final List<ConsumerRecord<String, byte[]>> polled = records.records(partition);
            offsets.put(partition, new OffsetAndMetadata(polled.get(polled.size() - 1).offset() + 1));
        }
        return offsets;
    }
}
