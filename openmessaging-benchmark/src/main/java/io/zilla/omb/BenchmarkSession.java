/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import io.zilla.bindings.kafka.bench.ZillaKafkaProxy;
import io.zilla.engine.test.CpuSteal;
import io.zilla.engine.test.ThreadStats;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.config.Workload;
import io.zilla.omb.driver.http.HttpBenchmarkDriver;
import io.zilla.omb.driver.sse.SseBenchmarkDriver;
import io.zilla.omb.load.WorkloadRunner;
import io.zilla.omb.result.ResultFiles;
import io.zilla.omb.result.TestResult;
import io.zilla.omb.worker.Worker;

/**
 * What the runs of one invocation share: the brokers (given, or the embedded broker started here), zilla in front of
 * them (started at the first driver marked {@code throughZilla}, then kept: the kafka proxy, for the SSE driver the
 * SSE fan-out graph, with the driver's producers going to the brokers directly, or for the HTTP driver the http-kafka
 * graph, with the driver's consumers reading the brokers directly), the worker that holds the
 * producers and consumers (this process, or {@code benchmark-worker} processes), the stats period and the output
 * directory. {@link #run} runs one workload on one driver and writes its result file.
 * <p>
 * With remote workers, the addresses handed to them (the embedded broker's, zilla's) are this host's loopback ones:
 * workers on other hosts need {@code --bootstrap-servers} or {@code --driver-bootstrap} with addresses they reach.
 */
final class BenchmarkSession implements AutoCloseable
{
    private final String brokerBootstrap;
    private final EmbeddedKafka broker;
    private final int zillaWorkers;
    private final Duration statsPeriod;
    private final Path outputDirectory;
    private final Consumer<String> log;
    private final Worker worker;
    // the in-process zilla of the throughZilla drivers: one graph at a time, so that its workers' CPU is the run's
    private InProcessZilla zilla;
    private volatile WorkloadRunner current;
    private volatile boolean stopRequested;

    /**
     * @param bootstrapServers the brokers for every driver, or null
     * @param driverBootstrap whether each driver keeps its own {@code bootstrap.servers} instead (no embedded broker)
     */
    BenchmarkSession(String bootstrapServers, boolean driverBootstrap, int zillaWorkers, Duration statsPeriod,
        Path outputDirectory, Worker worker, Consumer<String> log)
    {
        this.worker = worker;
        if (driverBootstrap)
        {
            this.broker = null;
            this.brokerBootstrap = null;
        }
        else if (bootstrapServers == null)
        {
            this.broker = BenchmarkBroker.create().start();
            this.brokerBootstrap = broker.bootstrapServers();
            log.accept("embedded broker at " + brokerBootstrap + ", its data in " + broker.directory());
        }
        else
        {
            this.broker = null;
            this.brokerBootstrap = bootstrapServers;
        }
        this.zillaWorkers = zillaWorkers;
        this.statsPeriod = statsPeriod;
        this.outputDirectory = outputDirectory;
        this.log = log;
    }

    /**
     * Runs {@code workload} on the driver {@code config} names; the result file is written as soon as the result is
     * measured, before the worker is stopped.
     *
     * @param workloadBase the workload file's name without extension, for the result file's name (as OMB names it)
     * @param ownBootstrap whether the driver keeps its file's {@code bootstrap.servers} (another proxy, say)
     * @param resultFile where the result goes, or null for {@code <workloadBase>-<driver>-<time>.json} in the output
     *     directory
     * @return the result, its file, zilla's CPU use during the run in cores (NaN when the driver is direct) and the
     *     host's steal; null when the run was stopped before its test collected a period
     */
    Run run(Workload workload, String workloadBase, DriverConfig config, boolean ownBootstrap, Path resultFile)
        throws Exception
    {
        final String brokers = brokerBootstrap != null && !ownBootstrap ? brokerBootstrap : config.bootstrapServers();
        if (brokers == null)
        {
            throw new IllegalArgumentException(config.name() + ": no bootstrap.servers in its commonConfig");
        }
        final boolean sse = SseBenchmarkDriver.class.getName().equals(config.driverClass());
        final boolean http = HttpBenchmarkDriver.class.getName().equals(config.driverClass());
        final Graph graph = sse ? Graph.SSE_FANOUT : http ? Graph.HTTP_KAFKA : Graph.KAFKA_PROXY;
        if (sse && workload.consumerPerSubscription() != 1)
        {
            throw new IllegalArgumentException(workload.name() + " on " + config.name() + ": consumerPerSubscription: "
                + "the SSE driver needs 1, was " + workload.consumerPerSubscription() + " (every SSE connection gets "
                + "every event of its topic: give subscriptionsPerTopic the number of connections per topic)");
        }
        final DriverConfig driven = config.throughZilla()
            ? zilla(graph, brokers).route(config.withBootstrapServers(brokers))
            : config.withBootstrapServers(brokers);
        log.accept(String.format("%s on %s (%s%s)", workload.name(), config.name(), sse && driven.sse().url() != null
            ? driven.sse().url() + ", producers to " + driven.bootstrapServers()
            : http && driven.http().url() != null
            ? driven.http().transport() + " " + driven.http().url() + ", consumers to " + driven.bootstrapServers()
            : driven.bootstrapServers(),
            config.throughZilla() ? ", zilla in front of " + brokers : ""));
        // zilla's CPU over the test phase only, the window its delivered rate is the average of: set-up (10,000
        // connections opened, the cache filled) and warmup are left out of both
        final ThreadStats[] workersStart = {workers()};
        final long[] timeStart = {System.nanoTime()};
        final CpuSteal stealStart = CpuSteal.now();
        worker.initializeDriver(driven);
        final WorkloadRunner runner = new WorkloadRunner(workload, config.name(), worker, statsPeriod, log);
        runner.onTest(() ->
        {
            workersStart[0] = workers();
            timeStart[0] = System.nanoTime();
        });
        current = runner;
        if (stopRequested)
        {
            runner.stop();
        }
        final Run[] written = new Run[1];
        try
        {
            runner.run(result ->
            {
                // what zilla's workers spent over the test: CPU in cores, and bytes allocated per message published
                final ThreadStats spent = workers().minus(workersStart[0]);
                final double cores = config.throughZilla()
                    ? spent.cpuNanos() / (double) (System.nanoTime() - timeStart[0])
                    : Double.NaN;
                final double published = result.publishRate.stream().mapToDouble(Double::doubleValue).sum()
                    * statsPeriod.toMillis() / 1000.0;
                final double bytesPerMessage = config.throughZilla() && published > 0
                    ? spent.allocated() / published
                    : Double.NaN;
                final double steal = CpuSteal.now().percentSince(stealStart);
                final Path file = ResultFiles.write(result, resultFile != null ? resultFile
                    : outputDirectory.resolve(ResultFiles.resultName(workloadBase, config.name(), LocalDateTime.now())));
                // through zilla, its CPU; for the SSE fan-out also what it delivered per core of it, the target's unit
                final double delivered = result.consumeRate.stream().mapToDouble(Double::doubleValue).average().orElse(0);
                final String zillaCpu = !config.throughZilla() ? ""
                    : sse ? String.format(Locale.ROOT, ", zilla CPU %.2f cores, %.0f events/s (%.0f per zilla core)", cores,
                        delivered, delivered / cores)
                    : String.format(Locale.ROOT, ", zilla CPU %.2f cores, %.1f B/msg allocated by its workers", cores,
                        bytesPerMessage);
                log.accept(String.format(Locale.ROOT, "%s on %s: publish p50 %.3f ms p99 %.3f ms, end-to-end p50 %.3f ms "
                    + "p99 %.3f ms%s, host CPU steal %.1f%% -> %s", workload.name(), config.name(),
                    result.aggregatedPublishLatency50pct, result.aggregatedPublishLatency99pct,
                    result.aggregatedEndToEndLatency50pct, result.aggregatedEndToEndLatency99pct, zillaCpu, steal, file));
                written[0] = new Run(result, file, cores, steal, bytesPerMessage);
            });
        }
        finally
        {
            current = null;
        }
        return written[0];
    }

    /**
     * Ends the run in progress (a run until stopped, or any, on Ctrl-C): it writes what it collected so far. Runs
     * after it end at once.
     */
    void stop()
    {
        stopRequested = true;
        final WorkloadRunner runner = current;
        if (runner != null)
        {
            runner.stop();
        }
    }

    boolean stopRequested()
    {
        return stopRequested;
    }

    Path outputDirectory()
    {
        return outputDirectory;
    }

    @Override
    public void close() throws Exception
    {
        try
        {
            worker.close();
        }
        finally
        {
            closeProxyAndBroker();
        }
    }

    private void closeProxyAndBroker() throws IOException
    {
        try
        {
            if (zilla != null)
            {
                zilla.close();
            }
        }
        finally
        {
            if (broker != null)
            {
                broker.close();
            }
        }
    }

    /** CPU time and allocation of zilla's worker threads so far. */
    private static ThreadStats workers()
    {
        return ThreadStats.of(ZillaKafkaProxy.WORKER_THREAD_PREFIX);
    }

    /**
     * zilla in front of {@code brokers}, the SSE fan-out graph for the SSE driver, the http-kafka graph for the HTTP
     * driver, the kafka proxy for the others: started for the first driver through zilla, then kept while the drivers
     * need the same graph (the other one is closed first, so that the CPU of zilla's workers is that of the graph the
     * run measures).
     */
    private InProcessZilla zilla(Graph graph, String brokers) throws IOException
    {
        if (zilla != null && zilla.graph() != graph)
        {
            zilla.close();
            zilla = null;
        }
        if (zilla == null)
        {
            if (graph == Graph.HTTP_KAFKA)
            {
                final ZillaHttpKafka rest = new ZillaHttpKafka(brokers, zillaWorkers);
                zilla = new InProcessZilla(graph, rest::close,
                    config -> config.withHttpUrls(rest.produceUrl(), rest.fetchUrl()));
                log.accept("zilla http-kafka at " + rest.produceUrl() + " (" + zillaWorkers + " worker(s))");
            }
            else if (graph == Graph.SSE_FANOUT)
            {
                final ZillaSseFanout fanout = new ZillaSseFanout(brokers, zillaWorkers);
                zilla = new InProcessZilla(graph, fanout::close, config -> config.withSseUrl(fanout.sseUrl()));
                log.accept("zilla sse fan-out at " + fanout.sseUrl() + " (" + zillaWorkers + " worker(s))");
            }
            else
            {
                final ZillaKafkaProxy proxy = new ZillaKafkaProxy(brokers, zillaWorkers);
                zilla = new InProcessZilla(graph, proxy::close, config -> config.withBootstrapServers(proxy.bootstrapServers()));
                log.accept("zilla kafka proxy at " + proxy.bootstrapServers() + " (" + zillaWorkers + " worker(s))");
            }
        }
        return zilla;
    }

    /** Which graph a driver runs through zilla. */
    private enum Graph
    {
        KAFKA_PROXY, SSE_FANOUT, HTTP_KAFKA
    }

    /** A graph of zilla running in this process, and how a driver file is pointed at it. */
    private record InProcessZilla(Graph graph, Closeable engine, UnaryOperator<DriverConfig> route)
    {
        void close() throws IOException
        {
            engine.close();
        }

        DriverConfig route(DriverConfig config)
        {
            return route.apply(config);
        }
    }

    /**
     * One run's result, its file, zilla's CPU use in cores (NaN for a direct driver), the percentage of the
     * machine's CPU time its hypervisor stole meanwhile (NaN where that cannot be told), and the bytes zilla's workers
     * allocated per message published during the test (NaN for a direct driver).
     */
    record Run(TestResult result, Path file, double zillaCores, double stealPercent, double zillaBytesPerMessage)
    {
    }
}
