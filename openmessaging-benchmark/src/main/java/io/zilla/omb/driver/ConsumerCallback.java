/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver;

/** Where a consumer delivers each message; called on the consumer's own thread, it must return quickly. */
@FunctionalInterface
public interface ConsumerCallback
{
    /**
     * @param payload the message's value
     * @param publishTimestamp the system's own timestamp of the message in milliseconds since the epoch (Kafka's record
     *     timestamp); the benchmark measures end-to-end latency from the nanosecond stamp in the payload instead
     */
    void messageReceived(byte[] payload, long publishTimestamp);
}
