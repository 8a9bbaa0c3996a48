/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.zilla.omb.driver.BenchmarkProducer;

/** A Kafka producer whose records carry each payload base64-encoded, so that it can be an SSE event's data. */
final class Base64Producer implements BenchmarkProducer
{
    private final BenchmarkProducer kafka;

    Base64Producer(BenchmarkProducer kafka)
    {
        this.kafka = kafka;
    }

    @Override
    public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload)
    {
        return kafka.sendAsync(key, Base64Payloads.encode(payload));
    }

    @Override
    public void close()
    {
        kafka.close();
    }
}
