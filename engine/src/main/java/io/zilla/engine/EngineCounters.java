/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.zilla.engine.internal.metrics.CountersFile;

/**
 * Reads the counters of an engine, running or stopped, from its engine directory: each worker's memory-mapped
 * counters file, summed over workers. This is what {@code zilla metrics} prints.
 */
public final class EngineCounters
{
    private EngineCounters()
    {
    }

    /**
     * @return binding name to counter name to value, both sorted by name
     * @throws IOException when the directory holds no counters (no engine ever ran there)
     */
    public static Map<String, Map<String, Long>> read(Path directory) throws IOException
    {
        final Map<String, Map<String, Long>> values = new TreeMap<>();
        int files = 0;
        try (Stream<Path> paths = Files.list(directory))
        {
            for (Path path : paths.filter(p -> p.getFileName().toString().matches(CountersFile.PREFIX + "\\d+")).toList())
            {
                files++;
                try (CountersFile file = CountersFile.open(path))
                {
                    file.reader().forEach((value, counterId, label) ->
                    {
                        final int separator = label.indexOf(':');
                        final String binding = separator >= 0 ? label.substring(0, separator) : label;
                        final String name = separator >= 0 ? label.substring(separator + 1) : "";
                        values.computeIfAbsent(binding, b -> new TreeMap<>()).merge(name, value, Long::sum);
                    });
                }
            }
        }
        if (files == 0)
        {
            throw new IOException("no zilla counters in " + directory);
        }
        return values;
    }
}
