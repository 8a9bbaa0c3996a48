/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.test.FreePorts;

/**
 * zilla in-process as REST over Kafka topics: {@code tcp -> http (HTTP/1.1 and h2c) -> http-kafka -> kafka cache_client
 * -> cache_server -> kafka client -> tcp} ({@code http-kafka.zilla.yaml} of this module's resources: {@code POST
 * /<topic>[/<key>]} produces, {@code GET /<topic>} fetches the latest record), on a free loopback port, in front of
 * the given brokers, in a fresh temporary engine directory. Its workers are the engine's {@code zilla-worker-N}
 * threads, whose CPU time and allocation the benchmark reports.
 */
public final class ZillaHttpKafka implements AutoCloseable
{
    static final String HOST = "127.0.0.1";
    private static final String GRAPH = "http-kafka.zilla.yaml";
    private static final String PRODUCE_EXIT = "omb.http-kafka.produce.exit";

    private final Path directory;
    private final Engine engine;
    private final int port;

    public ZillaHttpKafka(String brokerBootstrap, int workers) throws IOException
    {
        this.port = FreePorts.next();
        this.directory = Files.createTempDirectory("zilla-http-bench-");
        final EngineConfiguration configuration = new EngineConfiguration()
            .with(EngineConfiguration.WORKERS, workers)
            .with(EngineConfiguration.DIRECTORY, directory);
        final String port = Integer.toString(this.port);
        this.engine = Engine.builder()
            .configuration(configuration)
            .config(GRAPH, graph())
            .environment(name -> switch (name)
            {
                case "HTTP_PORT" -> port;
                case "KAFKA_BOOTSTRAP_SERVER" -> brokerBootstrap;
                // where the produce routes go: the kafka cache_client (Zilla's shape), or -Domb.http-kafka.produce.exit=
                // south_kafka_client straight to the kafka client, to tell the cache's part from the rest (docs)
                case "PRODUCE_EXIT" -> System.getProperty(PRODUCE_EXIT, "north_kafka_cache_client");
                default -> null;
            })
            .build();
        engine.start();
    }

    /** The produce endpoint of a topic, {@code {topic}} standing for its name, {@code /{key}} for a message's key. */
    public String produceUrl()
    {
        return "http://" + HOST + ":" + port + "/{topic}/{key}";
    }

    /** The fetch endpoint of a topic (its latest record). */
    public String fetchUrl()
    {
        return "http://" + HOST + ":" + port + "/{topic}";
    }

    @Override
    public void close() throws IOException
    {
        engine.close();
        try (Stream<Path> files = Files.walk(directory))
        {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    private static String graph()
    {
        try (InputStream in = ZillaHttpKafka.class.getResourceAsStream(GRAPH))
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
