/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The correlation ids this engine produced, or is producing, shared by its workers: a request whose correlation id is
 * here is not produced again, whichever worker took it. An id stays for {@link #RETENTION_MILLIS} after it was claimed,
 * long enough for the record to be in Kafka and read from there (the reply) by any replica.
 */
public final class HttpKafkaIdempotency
{
    public static final long RETENTION_MILLIS = 10 * 60_000L;

    private static final int SWEEP_EVERY = 1024;

    private final ConcurrentHashMap<String, Long> claimed = new ConcurrentHashMap<>();
    private int claims;

    /** @return true when this caller claimed {@code correlationId} and must produce it; false when it is known */
    public boolean claim(String correlationId, long now)
    {
        final Long before = claimed.putIfAbsent(correlationId, now + RETENTION_MILLIS);
        final boolean fresh = before == null || before < now && claimed.replace(correlationId, before, now + RETENTION_MILLIS);
        if ((++claims & (SWEEP_EVERY - 1)) == 0)
        {
            claimed.values().removeIf(expiry -> expiry < now);
        }
        return fresh;
    }

    /** Producing it failed: a request again with it may produce. */
    public void release(String correlationId)
    {
        claimed.remove(correlationId);
    }
}
