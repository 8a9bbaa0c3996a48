/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.EngineHistograms;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.exporter.ExportedSeries;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code zilla metrics [BINDING]}: the counters and histograms of an engine, running or stopped, read from the
 * memory-mapped files in its engine directory, so it works from another process while zilla runs. As a table (a
 * histogram as four rows: {@code <metric>.count}, {@code .sum}, and {@code .p50}, {@code .p99}, each the upper bound of
 * the bucket that holds that quantile, {@code +Inf} above the last, in the metric's unit), in Prometheus' text format
 * (what the prometheus exporter serves, the declared metrics only) or as JSON; once, or again every few seconds.
 */
@Command(
    name = "metrics",
    mixinStandardHelpOptions = true,
    versionProvider = ZillaVersion.class,
    description = "Prints the counters and histograms of a running or stopped zilla: binding, counter, value.")
final class MetricsCommand implements Callable<Integer>
{
    /** How the metrics are printed. */
    enum Format
    {
        table,
        prometheus,
        json
    }

    private static final String CLEAR_SCREEN = "\033[H\033[2J";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "BINDING", description = "only this binding's counters")
    String binding;

    @Option(names = {"-d", "--directory"}, paramLabel = "DIR",
        description = {"the engine directory, as given to start with", "-P zilla.engine.directory=DIR (default: .zilla/engine)"})
    Path directory;

    @Option(names = {"-m", "--metric"}, paramLabel = "PATTERN",
        description = "only these metrics: names, or patterns ending in * (http.*); repeatable")
    List<String> metrics;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
        description = "table (the default), prometheus (the exporter's text format) or json")
    Format format;

    @Option(names = "--watch", arity = "0..1", fallbackValue = "1", paramLabel = "SECONDS",
        description = "print again every SECONDS (1 when not given) until interrupted")
    Integer watch;

    // --watch's table: the rows printed last and when, for each counter's rate since then
    private Map<String, Map<String, Object>> previous;
    private long previousNanos;
    private Map<String, Metric> declared;

    // for tests: how many times --watch prints before returning
    @Option(names = "--iterations", hidden = true, defaultValue = "2147483647")
    int iterations;

    @Override
    public Integer call() throws InterruptedException
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        // the engine's own default, so that a zilla.engine.directory system property is honoured as start honours it
        final Path engineDirectory = directory != null ? directory : new EngineConfiguration().directory();
        if (watch != null && watch < 1)
        {
            err.println("zilla: --watch " + watch + ": the interval is a whole number of seconds, at least 1");
            return ExitStatus.USAGE;
        }
        // the screen is cleared between prints only on a terminal: a pipe or a file gets each print after the other
        final boolean terminal = watch != null && System.console() != null;
        int status = ExitStatus.OK;
        for (int printed = 0; printed < (watch != null ? iterations : 1); printed++)
        {
            if (printed > 0)
            {
                Thread.sleep(watch * 1000L);
            }
            if (terminal)
            {
                out.print(CLEAR_SCREEN);
            }
            status = print(out, err, engineDirectory);
            if (status != ExitStatus.OK && watch == null)
            {
                break;
            }
        }
        return status;
    }

    private int print(PrintWriter out, PrintWriter err, Path engineDirectory)
    {
        Map<String, Map<String, Long>> counters;
        Map<String, Map<String, EngineHistograms.Values>> histograms;
        try
        {
            counters = EngineCounters.read(engineDirectory);
            histograms = EngineHistograms.read(engineDirectory);
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

        counters = select(counters);
        histograms = select(histograms);
        if (counters.isEmpty() && histograms.isEmpty())
        {
            err.println(binding != null
                ? "zilla: no counters for binding " + binding + " in " + engineDirectory
                : metrics != null
                ? "zilla: no counters for " + String.join(", ", metrics) + " in " + engineDirectory
                : "zilla: no counters in " + engineDirectory + " yet: no stream has passed through the engine");
            return ExitStatus.FAILED;
        }
        switch (format)
        {
            case prometheus -> MetricsFormats.prometheus(out, counters, histograms);
            case json -> MetricsFormats.json(out, counters, histograms);
            default ->
            {
                final Map<String, Map<String, Object>> rows = rows(counters, histograms);
                MetricsTable.print(out, rows, watch != null ? rates(rows) : null);
            }
        }
        out.flush();
        return ExitStatus.OK;
    }

    /**
     * Each row's change per second since the last print, for --watch: a counter's, and a histogram's count and sum;
     * none for a gauge (its value is the figure) or a quantile, nor on the first print. A counter zilla.yaml does not
     * declare (a binding's own, such as {@code connections.opened}) is taken as a counter.
     */
    private Map<String, Map<String, String>> rates(Map<String, Map<String, Object>> rows)
    {
        final long now = System.nanoTime();
        if (declared == null)
        {
            declared = MetricsFormats.declarations();
        }
        final Map<String, Map<String, String>> rates = new TreeMap<>();
        if (previous != null)
        {
            final double seconds = (now - previousNanos) / 1e9;
            rows.forEach((name, values) -> values.forEach((row, value) ->
            {
                final Map<String, Object> before = previous.get(name);
                final Object last = before != null ? before.get(row) : null;
                if (value instanceof Long current && last instanceof Long earlier && counts(row))
                {
                    rates.computeIfAbsent(name, n -> new TreeMap<>())
                        .put(row, String.format(Locale.ROOT, "%.1f", (current - earlier) / seconds));
                }
            }));
        }
        previous = rows;
        previousNanos = now;
        return rates;
    }

    // a row that only grows: not a gauge, not a histogram's quantile
    private boolean counts(String row)
    {
        final String metric = ExportedSeries.metricOf(row);
        final boolean quantile = metric.endsWith(".p50") || metric.endsWith(".p99");
        final Metric declaration = declared.get(metric);
        return !quantile && (declaration == null || declaration.kind() != MetricKind.GAUGE);
    }

    /** Only the binding and the metrics asked for; a labelled series by its metric's name. */
    private <T> Map<String, Map<String, T>> select(Map<String, Map<String, T>> values)
    {
        final Map<String, Map<String, T>> selected = new TreeMap<>();
        values.forEach((name, series) ->
        {
            if (binding == null || binding.equals(name))
            {
                series.forEach((metric, value) ->
                {
                    if (metrics == null || TelemetryConfig.selects(metrics, ExportedSeries.metricOf(metric)))
                    {
                        selected.computeIfAbsent(name, n -> new TreeMap<>()).put(metric, value);
                    }
                });
            }
        });
        return selected;
    }

    /** The counters, and each histogram's four rows, by binding and then by name. */
    private static Map<String, Map<String, Object>> rows(Map<String, Map<String, Long>> counters,
        Map<String, Map<String, EngineHistograms.Values>> histograms)
    {
        final Map<String, Map<String, Object>> rows = new TreeMap<>();
        counters.forEach((name, values) -> rows.computeIfAbsent(name, b -> new TreeMap<>()).putAll(values));
        histograms.forEach((name, values) ->
        {
            final Map<String, Object> bindingRows = rows.computeIfAbsent(name, b -> new TreeMap<>());
            values.forEach((series, histogram) ->
            {
                // a labelled series' row names its part before the labels: http.duration.p50{method=GET,status=200}
                final String metric = ExportedSeries.metricOf(series);
                final String labels = series.substring(metric.length());
                bindingRows.put(metric + ".count" + labels, histogram.count());
                bindingRows.put(metric + ".sum" + labels, histogram.sum());
                bindingRows.put(metric + ".p50" + labels, bound(histogram.quantile(0.5)));
                bindingRows.put(metric + ".p99" + labels, bound(histogram.quantile(0.99)));
            });
        });
        return rows;
    }

    private static String bound(long value)
    {
        return value == Long.MAX_VALUE ? "+Inf" : Long.toString(value);
    }
}
