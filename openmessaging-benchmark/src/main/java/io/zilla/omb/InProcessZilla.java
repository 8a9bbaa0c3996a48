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
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.FreePorts;

/**
 * One of this module's zilla graphs ({@code <name>.zilla.yaml} of its resources) started in-process on a free loopback
 * port, in a fresh temporary engine directory removed at the close. Its workers are the engine's
 * {@code zilla-worker-N} threads, whose CPU time and allocation the benchmark reports.
 */
final class InProcessZilla implements AutoCloseable
{
    static final String HOST = "127.0.0.1";

    private static final String PRINT_COUNTERS = "omb.zilla.counters";

    private final Path directory;
    private final Engine engine;
    private final int port;

    /**
     * @param graph        the resource name of its zilla.yaml
     * @param portVariable the {@code ${{env.NAME}}} of its listener's port in that file
     * @param workers      its worker count
     * @param environment  the values of the file's other {@code ${{env.NAME}}}
     */
    InProcessZilla(String graph, String portVariable, int workers, Map<String, String> environment) throws IOException
    {
        this.port = FreePorts.next();
        this.directory = Files.createTempDirectory("zilla-bench-");
        final Map<String, String> variables = new HashMap<>(environment);
        variables.put(portVariable, Integer.toString(port));
        this.engine = Engine.builder()
            .configuration(new EngineConfiguration()
                .with(EngineConfiguration.WORKERS, workers)
                .with(EngineConfiguration.DIRECTORY, directory))
            .config(graph, resource(graph))
            .environment(variables::get)
            .build();
        engine.start();
    }

    /** {@code http://127.0.0.1:<port><path>}. */
    String url(String path)
    {
        return "http://" + HOST + ":" + port + path;
    }

    @Override
    public void close() throws IOException
    {
        if (Boolean.getBoolean(PRINT_COUNTERS))
        {
            // what the bindings counted over the run (Produce requests, batches, in-flight peaks), to tell why a rate is
            // what it is without a second tool
            EngineCounters.read(directory).forEach((binding, counters) -> System.out.println(binding + " " + counters));
        }
        engine.close();
        try (Stream<Path> files = Files.walk(directory))
        {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    private static String resource(String name)
    {
        try (InputStream in = InProcessZilla.class.getResourceAsStream(name))
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
