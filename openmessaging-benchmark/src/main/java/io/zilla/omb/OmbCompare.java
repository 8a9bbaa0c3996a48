/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.zilla.omb.compare.Comparison;
import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.config.InvalidConfigException;
import io.zilla.omb.config.Workload;
import io.zilla.omb.result.ChartFile;
import io.zilla.omb.result.ResultFiles;
import io.zilla.omb.result.TestResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The compare command: one workload on several driver files, alternately (A B A B ...) so that a drift of the machine
 * hits every driver alike, then a table per driver against the first (the baseline): medians, ratios, and whether
 * each difference is significant ({@link Comparison}). Driver files marked {@code throughZilla: true} go through zilla's
 * kafka proxy started in-process. The table is printed and written next to the result files and the chart.
 */
@Command(name = "benchmark-compare", mixinStandardHelpOptions = true,
    description = "Runs one OpenMessaging Benchmark workload on several drivers alternately and compares them.")
public final class OmbCompare implements Callable<Integer>
{
    @Option(names = {"-d", "--drivers"}, split = ",", required = true, paramLabel = "FILE",
        description = "driver YAML files, comma separated, the first one the baseline")
    private List<Path> drivers;

    @Parameters(arity = "1", paramLabel = "WORKLOAD", description = "the workload YAML file")
    private Path workloadFile;

    @Option(names = {"-r", "--repetitions"}, defaultValue = "3", paramLabel = "N",
        description = "runs of each driver (default: ${DEFAULT-VALUE})")
    private int repetitions;

    @Option(names = "--other-bootstrap", paramLabel = "HOST:PORT",
        description = "another Kafka-protocol proxy to compare too: the first driver file's settings with this "
            + "bootstrap.servers, run in turn with the others and shown beside them")
    private String otherBootstrap;

    @Option(names = "--other-name", defaultValue = "other-proxy", paramLabel = "NAME",
        description = "the other proxy's name in the tables and result files (default: ${DEFAULT-VALUE})")
    private String otherName;

    @Mixin
    private SessionOptions options = new SessionOptions();

    // a run with more steal than this shows the host's load rather than the drivers'
    private static final double MAX_QUIET_STEAL = 5.0;

    private final PrintStream out;
    private final List<Comparison> comparisons = new ArrayList<>();

    public OmbCompare()
    {
        this(System.out);
    }

    OmbCompare(PrintStream out)
    {
        this.out = out;
    }

    public static void main(String... args)
    {
        System.exit(new CommandLine(new OmbCompare()).setOverwrittenOptionsAllowed(true).execute(args));
    }

    List<Comparison> comparisons()
    {
        return List.copyOf(comparisons);
    }

    @Override
    public Integer call() throws Exception
    {
        final Workload workload;
        final List<DriverConfig> configs = new ArrayList<>();
        try
        {
            workload = options.override(Workload.read(workloadFile));
            for (Path file : drivers)
            {
                configs.add(DriverConfig.read(file));
            }
        }
        catch (InvalidConfigException ex)
        {
            System.err.println(ex.getMessage());
            return 2;
        }
        if (otherBootstrap != null && options.bootstrapServers == null && !options.driverBootstrap)
        {
            System.err.println("--other-bootstrap: give the brokers the other proxy is in front of (-b), or "
                + "--driver-bootstrap: the embedded broker's port is known only once it runs, so no proxy can be in front "
                + "of it");
            return 2;
        }
        if (otherBootstrap != null)
        {
            final DriverConfig baseline = configs.get(0);
            if (baseline.throughZilla())
            {
                System.err.println("--other-bootstrap: the first driver (" + baseline.name() + ") goes through zilla; "
                    + "the other proxy takes the first driver's settings, so give the direct driver first");
                return 2;
            }
            configs.add(new DriverConfig(otherName, baseline.driverClass(), baseline.replicationFactor(),
                baseline.topicConfig(), baseline.withBootstrapServers(otherBootstrap).commonConfig(),
                baseline.producerConfig(), baseline.consumerConfig(), false, baseline.sse(), baseline.http()));
        }
        if (options.invalid() != null || configs.size() < 2 || repetitions < 1)
        {
            System.err.println(options.invalid() != null ? options.invalid()
                : "compare needs at least two drivers (--drivers, --other-bootstrap) and --repetitions >= 1");
            return 2;
        }

        final List<List<TestResult>> results = new ArrayList<>();
        final List<double[]> cores = new ArrayList<>();
        final List<double[]> steal = new ArrayList<>();
        configs.forEach(c ->
        {
            results.add(new ArrayList<>());
            cores.add(new double[repetitions]);
            steal.add(new double[repetitions]);
        });
        final int total = repetitions * configs.size();
        try (BenchmarkSession session = options.open(out::println))
        {
            final long start = System.nanoTime();
            for (int r = 0; r < repetitions; r++)
            {
                for (int d = 0; d < configs.size(); d++)
                {
                    final int done = r * configs.size() + d;
                    final double elapsed = (System.nanoTime() - start) / 1e9;
                    final String eta = done == 0 ? "?" : String.format(Locale.ROOT, "%.0f s", elapsed / done * (total - done));
                    out.printf(Locale.ROOT, "progress: run %d/%d, repetition %d/%d, %s; %.0f s elapsed, about %s to go%n",
                        done + 1, total, r + 1, repetitions, configs.get(d).name(), elapsed, eta);
                    // the other proxy keeps its own address; the others run on the session's brokers
                    final boolean other = otherBootstrap != null && d == configs.size() - 1;
                    final BenchmarkSession.Run run = session.run(workload, OmbMain.baseName(workloadFile), configs.get(d), other,
                        null);
                    if (run == null)
                    {
                        System.err.println("stopped before every run measured something: no comparison");
                        return 1;
                    }
                    results.get(d).add(run.result());
                    cores.get(d)[r] = run.zillaCores();
                    steal.get(d)[r] = run.stealPercent();
                }
            }
        }

        final LocalDateTime now = LocalDateTime.now();
        final StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "%s: %d repetitions, alternating %s%n", workload.name(), repetitions,
            configs.stream().map(DriverConfig::name).toList()));
        for (int d = 1; d < configs.size(); d++)
        {
            final Comparison comparison = new Comparison(results.get(0), results.get(d), cores.get(0), cores.get(d));
            comparisons.add(comparison);
            if (configs.size() == 2)
            {
                report.append(System.lineSeparator()).append(comparison.table());
            }
        }
        if (configs.size() > 2)
        {
            report.append(System.lineSeparator()).append(Comparison.sideBySide(comparisons));
        }
        report.append(System.lineSeparator()).append(stealReport(configs, steal));
        out.print(report);
        final Path table = options.outputDirectory.resolve(ResultFiles.chartName(workload.name() + "-compare", now)
            .replaceAll("\\.html$", ".txt"));
        Files.writeString(table, report);
        final List<TestResult> last = new ArrayList<>();
        results.forEach(runs -> last.add(runs.get(runs.size() - 1)));
        final Path chart = ChartFile.write(last, options.outputDirectory.resolve(ResultFiles.chartName(workload.name(), now)),
            workload.name() + " (last repetition of each driver)");
        out.println("table -> " + table);
        out.println("chart -> " + chart);
        return 0;
    }

    /** The hypervisor's steal per run: above a few percent, a run's figures are the host's noise. */
    private static String stealReport(List<DriverConfig> configs, List<double[]> steal)
    {
        final StringBuilder text = new StringBuilder("host CPU steal per run (% of the machine's CPU time):");
        double highest = 0;
        for (int d = 0; d < configs.size(); d++)
        {
            text.append(' ').append(configs.get(d).name());
            for (double percent : steal.get(d))
            {
                text.append(String.format(Locale.ROOT, " %.1f", percent));
                highest = Double.isNaN(percent) ? highest : Math.max(highest, percent);
            }
            text.append(d + 1 < configs.size() ? ";" : "");
        }
        text.append(System.lineSeparator());
        if (highest > MAX_QUIET_STEAL)
        {
            text.append(String.format(Locale.ROOT, "steal above %.0f%%: the host's neighbours took CPU from this run; "
                + "its differences are not the drivers'%n", MAX_QUIET_STEAL));
        }
        return text.toString();
    }
}
