/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.io.IOException;
import java.util.Map;

/**
 * zilla in-process as REST over Kafka topics: {@code tcp -> http (HTTP/1.1 and h2c) -> http-kafka -> kafka cache_client
 * -> cache_server -> kafka client -> tcp} ({@code http-kafka.zilla.yaml} of this module's resources: {@code POST
 * /<topic>[/<key>]} produces, {@code GET /<topic>} fetches the latest record), in front of the given brokers.
 */
public final class ZillaHttpKafka implements AutoCloseable
{
    private static final String PRODUCE_EXIT = "omb.http-kafka.produce.exit";

    private final InProcessZilla zilla;

    public ZillaHttpKafka(String brokerBootstrap, int workers) throws IOException
    {
        // where the produce routes go: the kafka cache_client (Zilla's shape), or -Domb.http-kafka.produce.exit=
        // south_kafka_client straight to the kafka client, to tell the cache's part from the rest (docs)
        this.zilla = new InProcessZilla("http-kafka.zilla.yaml", "HTTP_PORT", workers, Map.of(
            "KAFKA_BOOTSTRAP_SERVER", brokerBootstrap,
            "PRODUCE_EXIT", System.getProperty(PRODUCE_EXIT, "north_kafka_cache_client")));
    }

    /** The produce endpoint of a topic, {@code {topic}} standing for its name, {@code /{key}} for a message's key. */
    public String produceUrl()
    {
        return zilla.url("/{topic}/{key}");
    }

    /** The fetch endpoint of a topic (its latest record). */
    public String fetchUrl()
    {
        return zilla.url("/{topic}");
    }

    @Override
    public void close() throws IOException
    {
        zilla.close();
    }
}
