/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Sends to one topic. {@code sendAsync} is called by one thread only, the producer's load thread. */
public interface BenchmarkProducer extends AutoCloseable
{
    /**
     * Sends one message; the future completes when the system acknowledged it. The caller owns {@code payload} again
     * once this method returns (a driver that needs the bytes later copies them).
     */
    CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload);

    /** Sends what is pending, then closes; never throws a checked exception. */
    @Override
    void close();
}
