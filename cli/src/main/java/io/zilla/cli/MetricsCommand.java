/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.EngineHistograms;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code zilla metrics [BINDING]}: the counters and histograms of an engine, running or stopped, read from the
 * memory-mapped files in its engine directory, so it works from another process while zilla runs. A histogram shows
 * as four rows: {@code <metric>.count}, {@code .sum}, and {@code .p50}, {@code .p99}, each the upper bound of the
 * bucket that holds that quantile ({@code +Inf} above the last), in the metric's unit (nanoseconds, bytes).
 */
@Command(
    name = "metrics",
    mixinStandardHelpOptions = true,
    versionProvider = ZillaVersion.class,
    description = "Prints the counters and histograms of a running or stopped zilla: binding, counter, value.")
final class MetricsCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "BINDING", description = "only this binding's counters")
    String binding;

    @Option(names = {"-d", "--directory"}, paramLabel = "DIR",
        description = {"the engine directory, as given to start with", "-P zilla.engine.directory=DIR (default: .zilla/engine)"})
    Path directory;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        // the engine's own default, so that a zilla.engine.directory system property is honoured as start honours it
        final Path engineDirectory = directory != null ? directory : new EngineConfiguration().directory();

        Map<String, Map<String, Object>> counters;
        try
        {
            counters = rows(EngineCounters.read(engineDirectory), EngineHistograms.read(engineDirectory));
        }
        catch (NoSuchFileException | NotDirectoryException ex)
        {
            err.println("zilla: no counters: no engine directory at " + engineDirectory + " (-d DIR names another)");
            return ExitStatus.FAILED;
        }
        catch (IOException ex)
        {
            err.println("zilla: " + ex.getMessage());
            return ExitStatus.FAILED;
        }

        if (binding != null)
        {
            counters = counters.containsKey(binding) ? Map.of(binding, counters.get(binding)) : Map.of();
        }
        if (counters.isEmpty())
        {
            err.println(binding != null
                ? "zilla: no counters for binding " + binding + " in " + engineDirectory
                : "zilla: no counters in " + engineDirectory + " yet: no stream has passed through the engine");
            return ExitStatus.FAILED;
        }
        MetricsTable.print(out, counters);
        return ExitStatus.OK;
    }

    /** The counters, and each histogram's four rows, by binding and then by name. */
    private static Map<String, Map<String, Object>> rows(Map<String, Map<String, Long>> counters,
        Map<String, Map<String, EngineHistograms.Values>> histograms)
    {
        final Map<String, Map<String, Object>> rows = new TreeMap<>();
        counters.forEach((binding, values) -> rows.computeIfAbsent(binding, b -> new TreeMap<>()).putAll(values));
        histograms.forEach((binding, values) ->
        {
            final Map<String, Object> bindingRows = rows.computeIfAbsent(binding, b -> new TreeMap<>());
            values.forEach((metric, histogram) ->
            {
                bindingRows.put(metric + ".count", histogram.count());
                bindingRows.put(metric + ".sum", histogram.sum());
                bindingRows.put(metric + ".p50", bound(histogram.quantile(0.5)));
                bindingRows.put(metric + ".p99", bound(histogram.quantile(0.99)));
            });
        });
        return rows;
    }

    private static String bound(long value)
    {
        return value == Long.MAX_VALUE ? "+Inf" : Long.toString(value);
    }
}
