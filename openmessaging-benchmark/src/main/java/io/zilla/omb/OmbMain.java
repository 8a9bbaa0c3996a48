/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.config.InvalidConfigException;
import io.zilla.omb.config.Workload;
import io.zilla.omb.result.ChartFile;
import io.zilla.omb.result.ResultFiles;
import io.zilla.omb.result.ResultsCsv;
import io.zilla.omb.result.TestResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Runs OMB workloads on OMB driver files, like OMB's {@code bin/benchmark --drivers a.yaml,b.yaml workload.yaml}:
 * every workload on every driver in turn, one result JSON per run and one HTML chart per workload with a series per
 * driver. Without {@code --bootstrap-servers} it starts the embedded broker and points every driver at it; a driver
 * file marked {@code throughZilla: true} connects through zilla's kafka proxy, started in-process in front of them.
 */
@Command(name = "benchmark", mixinStandardHelpOptions = true,
    description = "Runs OpenMessaging Benchmark workloads against Kafka (the embedded broker by default).")
public final class OmbMain implements Callable<Integer>
{
    @Option(names = {"-d", "--drivers"}, split = ",", paramLabel = "FILE",
        description = "driver YAML files, comma separated (e.g. driver-kafka/kafka-direct.yaml)")
    private List<Path> drivers;

    @Parameters(arity = "0..*", paramLabel = "WORKLOAD",
        description = "workload YAML files (e.g. workloads/zilla-1-topic-16-partitions-1kb-10k.yaml)")
    private List<Path> workloads = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
        description = "the result file, for a single run (OMB's option; default: <workload file>-<driver>-<time>.json "
            + "in --output-dir)")
    private Path output;

    @Option(names = {"-c", "--csv"}, paramLabel = "DIR",
        description = "prints the results in DIR to a CSV file (results-<time>.csv, here) and runs nothing, as OMB")
    private Path csv;

    @Mixin
    private SessionOptions options = new SessionOptions();

    private final PrintStream out;
    private final List<Path> written = new ArrayList<>();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile BenchmarkSession session;

    public OmbMain()
    {
        this(System.out);
    }

    OmbMain(PrintStream out)
    {
        this.out = out;
    }

    public static void main(String... args)
    {
        final OmbMain main = new OmbMain();
        // Ctrl-C or SIGTERM ends the run in progress (a workload with testDurationMinutes: 0 runs until then), which
        // still writes its result; the JVM exits once that is done (or a minute later)
        final Thread stop = new Thread(() -> main.stopAndAwait(Duration.ofMinutes(1)), "omb-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        final int exit = new CommandLine(main).setOverwrittenOptionsAllowed(true).execute(args);
        Runtime.getRuntime().removeShutdownHook(stop);
        System.exit(exit);
    }

    /** Ends the run in progress, which still writes its result, and waits (up to {@code timeout}) until it has. */
    void stopAndAwait(Duration timeout)
    {
        final BenchmarkSession running = session;
        if (running != null)
        {
            running.stop();
        }
        try
        {
            finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** The result and chart files the last {@link #call()} wrote. */
    List<Path> written()
    {
        return List.copyOf(written);
    }

    @Override
    public Integer call() throws Exception
    {
        try
        {
            return runAll();
        }
        finally
        {
            finished.countDown();
        }
    }

    private Integer runAll() throws Exception
    {
        if (csv != null)
        {
            final Path file = ResultsCsv.write(csv, Path.of("."));
            out.println("csv -> " + file);
            return 0;
        }
        if (drivers == null || workloads.isEmpty())
        {
            System.err.println("give --drivers and at least one workload file (or --csv DIR)");
            return 2;
        }
        final List<Workload> loads = new ArrayList<>();
        final List<DriverConfig> configs = new ArrayList<>();
        try
        {
            for (Path file : workloads)
            {
                loads.add(options.override(Workload.read(file)));
            }
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
        if (options.invalid() != null)
        {
            System.err.println(options.invalid());
            return 2;
        }

        if (output != null && loads.size() * configs.size() > 1)
        {
            System.err.println("--output names one result file: give one workload and one driver, or --output-dir");
            return 2;
        }
        int failed = 0;
        try (BenchmarkSession session = options.open(out::println))
        {
            this.session = session;
            for (int w = 0; w < loads.size() && !session.stopRequested(); w++)
            {
                final Workload workload = loads.get(w);
                final List<TestResult> results = new ArrayList<>();
                for (DriverConfig config : configs)
                {
                    if (session.stopRequested())
                    {
                        break;
                    }
                    // as OMB: a run that fails is reported, and the next one runs
                    final BenchmarkSession.Run run;
                    try
                    {
                        run = session.run(workload, baseName(workloads.get(w)), config, false, output);
                    }
                    catch (Exception ex)
                    {
                        failed++;
                        System.err.println("failed to run the workload '" + workload.name() + "' on the driver '"
                            + config.name() + "': " + ex);
                        continue;
                    }
                    if (run != null)
                    {
                        written.add(run.file());
                        results.add(run.result());
                    }
                }
                if (results.isEmpty())
                {
                    break;
                }
                final Path chart = options.outputDirectory.resolve(ResultFiles.chartName(workload.name(), LocalDateTime.now()));
                ChartFile.write(results, chart, workload.name());
                written.add(chart);
                out.println("chart -> " + chart);
            }
        }
        finally
        {
            this.session = null;
        }
        return failed == 0 ? 0 : 1;
    }

    /** A workload file's name without its extension: OMB's result files are named by it. */
    static String baseName(Path file)
    {
        final String name = file.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}
