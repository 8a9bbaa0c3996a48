/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.config;

/** How a producer chooses the key of each message, as OMB's {@code keyDistributor} names it. */
public enum KeyDistributorType
{
    /** No key: the client's partitioner spreads the messages. */
    NO_KEY,
    /** Keys from a fixed set, one after another. */
    KEY_ROUND_ROBIN,
    /** A key derived from the send time's nanoseconds. */
    RANDOM_NANO
}
