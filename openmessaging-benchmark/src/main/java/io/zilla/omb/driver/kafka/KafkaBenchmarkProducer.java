/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.kafka;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.zilla.omb.driver.BenchmarkProducer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One {@link KafkaProducer} sending to one topic. kafka-clients copies the value into its batch during {@code send},
 * so the caller may reuse the payload array once {@link #sendAsync} returns.
 */
final class KafkaBenchmarkProducer implements BenchmarkProducer
{
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final String topic;
    private final KafkaProducer<String, byte[]> producer;

    KafkaBenchmarkProducer(String topic, KafkaProducer<String, byte[]> producer)
    {
        this.topic = topic;
        this.producer = producer;
    }

    @Override
    public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload)
    {
        final CompletableFuture<Void> sent = new CompletableFuture<>();
        final ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key.orElse(null), payload);
        producer.send(record, (metadata, ex) ->
        {
            if (ex != null)
            {
                sent.completeExceptionally(ex);
            }
            else
            {
                sent.complete(null);
            }
        });
        return sent;
    }

    @Override
    public void close()
    {
        producer.close(CLOSE_TIMEOUT);
    }
}
