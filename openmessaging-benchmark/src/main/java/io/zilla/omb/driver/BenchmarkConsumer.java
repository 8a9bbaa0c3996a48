/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver;

/** Receives from one topic in one subscription, delivering to its {@link ConsumerCallback} until closed. */
public interface BenchmarkConsumer extends AutoCloseable
{
    /** Stops delivering and closes; never throws a checked exception. */
    @Override
    void close();
}
