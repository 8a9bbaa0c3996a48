/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes that the requests still arriving on one kafka proxy binding's connections have declared, shared by its
 * workers. A broker allocates a request's declared size as soon as it has read the request's length and holds it
 * until the request is whole, so this is what the clients of the binding make the brokers hold. A connection counts
 * its request only while the request spans Data frames: one that arrives whole in one frame never touches this.
 */
public final class KafkaPartialRequests
{
    private final AtomicLong declared = new AtomicLong();

    /** Counts {@code bytes} more, unless that would take the total over {@code max}; whether it did. */
    boolean claim(long bytes, long max)
    {
        boolean claimed = false;
        long current = declared.get();
        while (!claimed && current + bytes <= max)
        {
            claimed = declared.compareAndSet(current, current + bytes);
            current = claimed ? current : declared.get();
        }
        return claimed;
    }

    void release(long bytes)
    {
        declared.addAndGet(-bytes);
    }

    /** The bytes counted now. */
    long declared()
    {
        return declared.get();
    }
}
