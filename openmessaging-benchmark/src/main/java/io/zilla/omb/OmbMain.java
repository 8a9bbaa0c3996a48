/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

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
 * Runs OMB workloads on OMB driver files, like OMB's {@code bin/benchmark --drivers a.yaml,b.yaml workload.yaml}:
 * every workload on every driver in turn, one result JSON per run and one HTML chart per workload with a series per
 * driver. Without {@code --bootstrap-servers} it starts the embedded broker and points every driver at it; a driver
 * file marked {@code throughZilla: true} connects through zilla's kafka proxy, started in-process in front of them.
 */
@Command(name = "omb", mixinStandardHelpOptions = true,
    description = "Runs OpenMessaging Benchmark workloads against Kafka (the embedded broker by default).")
public final class OmbMain implements Callable<Integer>
{
    @Option(names = {"-d", "--drivers"}, split = ",", required = true, paramLabel = "FILE",
        description = "driver YAML files, comma separated (e.g. driver-kafka/kafka-direct.yaml)")
    private List<Path> drivers;

    @Parameters(arity = "1..*", paramLabel = "WORKLOAD",
        description = "workload YAML files (e.g. workloads/1-topic-1-partition-1kb.yaml)")
    private List<Path> workloads;

    @Mixin
    private SessionOptions options = new SessionOptions();

    private final PrintStream out;
    private final List<Path> written = new ArrayList<>();

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
        System.exit(new CommandLine(new OmbMain()).execute(args));
    }

    /** The result and chart files the last {@link #call()} wrote. */
    List<Path> written()
    {
        return List.copyOf(written);
    }

    @Override
    public Integer call() throws Exception
    {
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

        try (BenchmarkSession session = options.open(out::println))
        {
            for (Workload workload : loads)
            {
                final List<TestResult> results = new ArrayList<>();
                for (DriverConfig config : configs)
                {
                    final BenchmarkSession.Run run = session.run(workload, config);
                    written.add(run.file());
                    results.add(run.result());
                }
                final Path chart = options.outputDirectory.resolve(ResultFiles.chartName(workload.name(), LocalDateTime.now()));
                ChartFile.write(results, chart, workload.name());
                written.add(chart);
                out.println("chart -> " + chart);
            }
        }
        return 0;
    }
}
