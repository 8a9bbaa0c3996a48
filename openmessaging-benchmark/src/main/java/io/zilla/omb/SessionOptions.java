/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.zilla.omb.config.Workload;
import io.zilla.omb.worker.DistributedWorkers;
import io.zilla.omb.worker.HttpWorkerClient;
import io.zilla.omb.worker.LocalWorker;
import io.zilla.omb.worker.Worker;
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

    @Option(names = "--output-dir", defaultValue = ".", paramLabel = "DIR",
        description = "where result files, charts and tables go (default: the working directory, as OMB)")
    Path outputDirectory;

    @Option(names = {"-w", "--workers"}, split = ",", paramLabel = "URL",
        description = "benchmark-worker processes, comma separated (http://host:8080,...): producers on the first half, "
            + "consumers on the others; default: this process alone")
    List<String> workers;

    @Option(names = {"-wf", "--workers-file"}, paramLabel = "FILE",
        description = "a YAML file listing the workers (workers: [http://host:8080, ...]); without --workers or this, "
            + "workers.yaml of the working directory when there is one, as OMB")
    Path workersFile;

    @Option(names = {"-x", "--extra"},
        description = "extra consumer workers: a third of the workers produce instead of half (backlogs drain faster)")
    boolean extraConsumers;

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
            : workers != null && workersFile != null ? "--workers and --workers-file: choose one"
            : null;
    }

    BenchmarkSession open(Consumer<String> log) throws IOException
    {
        final List<String> addresses = workerAddresses(log);
        final Worker worker;
        if (addresses.isEmpty())
        {
            worker = new LocalWorker(log);
        }
        else
        {
            final List<HttpWorkerClient> clients = new ArrayList<>();
            addresses.forEach(address -> clients.add(new HttpWorkerClient(address)));
            final DistributedWorkers distributed = new DistributedWorkers(clients, extraConsumers);
            log.accept("workers: producers on " + distributed.producerWorkers() + ", consumers on "
                + distributed.consumerWorkers());
            worker = distributed;
        }
        return new BenchmarkSession(bootstrapServers, driverBootstrap, zillaWorkers, Duration.ofSeconds(statsPeriodSeconds),
            outputDirectory, worker, log);
    }

    /** --workers, or the workers file's list (--workers-file, or workers.yaml here as OMB looks for it), or none. */
    private List<String> workerAddresses(Consumer<String> log) throws IOException
    {
        if (workers != null)
        {
            return workers;
        }
        Path file = workersFile;
        if (file == null && Files.isRegularFile(Path.of("workers.yaml")))
        {
            file = Path.of("workers.yaml");
            log.accept("using the workers of workers.yaml in the working directory");
        }
        if (file == null)
        {
            return List.of();
        }
        final JsonNode list = new ObjectMapper(new YAMLFactory()).readTree(file.toFile()).path("workers");
        if (!list.isArray())
        {
            throw new IOException(file + ": no list of workers (workers: [http://host:8080, ...])");
        }
        final List<String> addresses = new ArrayList<>();
        list.forEach(address -> addresses.add(address.asText()));
        return addresses;
    }
}
