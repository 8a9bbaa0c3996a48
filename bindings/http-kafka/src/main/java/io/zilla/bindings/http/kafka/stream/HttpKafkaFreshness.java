/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When this engine last had a record acknowledged per topic, shared by its workers, so that a GET right after a PUT
 * sees it. A GET reads the kafka cache, which learns a record (and the partition's new high watermark) from its own
 * Fetch, a few milliseconds after Kafka acknowledged the PUT: a GET in between would find the cache caught up with the
 * old end. So a GET that catches up within {@link #SETTLE_MILLIS} of an acknowledgement to its topic waits for the
 * rest of that time before it answers (records that come meanwhile go into the answer).
 */
public final class HttpKafkaFreshness
{
    public static final long SETTLE_MILLIS = 200L;

    private final ConcurrentHashMap<String, AtomicLong> acknowledged = new ConcurrentHashMap<>();

    /** The counter of {@code topic}, looked up once per produce stream, not per record. */
    AtomicLong topic(String topic)
    {
        return acknowledged.computeIfAbsent(topic, t -> new AtomicLong());
    }

    /** Until when a GET of {@code topic} that caught up now waits (0: it need not). */
    long settleUntil(String topic, long now)
    {
        final AtomicLong at = acknowledged.get(topic);
        final long until = at != null ? at.get() + SETTLE_MILLIS : 0L;
        return until > now ? until : 0L;
    }
}
