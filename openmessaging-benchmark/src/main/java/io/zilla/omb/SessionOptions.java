/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

import io.zilla.omb.config.Workload;
import picocli.CommandLine.Option;

/** The options that {@code omb} and {@code omb compare} share: where to run, where results go, and durations. */
final class SessionOptions
{
    @Option(names = {"-b", "--bootstrap-servers"}, paramLabel = "HOST:PORT",
        description = "brokers to run against, replacing each driver file's bootstrap.servers; default: an embedded broker")
    String bootstrapServers;

    @Option(names = "--driver-bootstrap",
        description = "keep each driver file's own bootstrap.servers (say, one file for the brokers and one for an "
            + "external zilla in front of them); no embedded broker")
    boolean driverBootstrap;

    @Option(names = {"-o", "--output-dir"}, defaultValue = "target/omb-results", paramLabel = "DIR",
        description = "where result files, charts and tables go (default: ${DEFAULT-VALUE})")
    Path outputDirectory;

    @Option(names = "--stats-period", defaultValue = "10", paramLabel = "SECONDS",
        description = "length of one entry of the result's per-period lists (default: ${DEFAULT-VALUE}, as OMB)")
    int statsPeriodSeconds;

    @Option(names = "--warmup-seconds", paramLabel = "SECONDS", description = "overrides the workload's warmup duration")
    Integer warmupSeconds;

    @Option(names = "--test-seconds", paramLabel = "SECONDS", description = "overrides the workload's test duration")
    Integer testSeconds;

    @Option(names = "--zilla-workers", defaultValue = "1", paramLabel = "N",
        description = "worker threads of the in-process zilla for throughZilla drivers (default: ${DEFAULT-VALUE})")
    int zillaWorkers;

    /** The workload with the durations given on the command line, if any. */
    Workload override(Workload workload)
    {
        final Duration warmup = warmupSeconds != null ? Duration.ofSeconds(warmupSeconds) : workload.warmupDuration();
        final Duration test = testSeconds != null ? Duration.ofSeconds(testSeconds) : workload.testDuration();
        return workload.withDurations(warmup, test);
    }

    /** @return what is wrong with these options, or null */
    String invalid()
    {
        return statsPeriodSeconds < 1 ? "--stats-period: must be at least 1, was " + statsPeriodSeconds
            : driverBootstrap && bootstrapServers != null ? "--driver-bootstrap and --bootstrap-servers: choose one"
            : null;
    }

    BenchmarkSession open(Consumer<String> log)
    {
        return new BenchmarkSession(bootstrapServers, driverBootstrap, zillaWorkers, Duration.ofSeconds(statsPeriodSeconds),
            outputDirectory, log);
    }
}
