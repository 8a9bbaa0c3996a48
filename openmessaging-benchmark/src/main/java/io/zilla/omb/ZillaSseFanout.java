/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.io.IOException;
import java.util.Map;

/**
 * zilla in-process as the SSE fan-out of Kafka topics: {@code tcp -> http -> sse -> sse-kafka -> kafka cache_client
 * -> cache_server -> kafka client -> tcp} ({@code sse-fanout.zilla.yaml} of this module's resources), in front of the
 * given brokers.
 */
final class ZillaSseFanout implements AutoCloseable
{
    private final InProcessZilla zilla;

    ZillaSseFanout(String brokerBootstrap, int workers) throws IOException
    {
        this.zilla = new InProcessZilla("sse-fanout.zilla.yaml", "SSE_PORT", workers,
            Map.of("KAFKA_BOOTSTRAP_SERVER", brokerBootstrap));
    }

    /** The endpoint of a topic, {@code {topic}} standing for its name. */
    String sseUrl()
    {
        return zilla.url("/{topic}");
    }

    @Override
    public void close() throws IOException
    {
        zilla.close();
    }
}
