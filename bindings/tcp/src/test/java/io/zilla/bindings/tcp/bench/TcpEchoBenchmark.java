/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import io.zilla.bindings.tcp.bench.EchoLoadClient.Result;
import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.ThreadStats;
import org.HdrHistogram.Histogram;

/**
 * The tcp echo benchmark (docs/benchmarks.md, "tcp echo"): in one JVM, the same {@link EchoLoadClient} against
 * zilla ({@code tcp server -> echo}, started in-process) and against a {@link PlainNioEchoServer} with as many
 * threads as zilla has workers. Rounds alternate the order (zilla then plain, plain then zilla...), so that neither
 * always runs on the colder or the warmer JVM. For each run it reports throughput, round-trip percentiles, the CPU
 * and the bytes the server's threads spend per echoed message while measuring, and the CPU its threads use idle,
 * just started, before any connection.
 * <p>
 * Arguments (all optional): {@code --workers N} (1; zilla's workers and the plain server's threads),
 * {@code --connections N} (100), {@code --size BYTES} (1024), {@code --client-threads N} (1), {@code --warmup S}
 * (10), {@code --duration S} (20), {@code --rounds N} (2), {@code --idle S} (5), {@code --targets zilla,plain}.
 */
public final class TcpEchoBenchmark
{
    private static final String ZILLA = "zilla";
    private static final String PLAIN = "plain";
    private static final String ZILLA_THREAD_PREFIX = "zilla-worker-";
    private static final String ZILLA_ALL_THREADS_PREFIX = "zilla-";

    private final int workers;
    private final int connections;
    private final int size;
    private final int clientThreads;
    private final long warmupMillis;
    private final long durationMillis;
    private final int rounds;
    private final long idleMillis;
    private final List<String> targets;

    private TcpEchoBenchmark(Map<String, String> options)
    {
        this.workers = Integer.parseInt(options.getOrDefault("workers", "1"));
        this.connections = Integer.parseInt(options.getOrDefault("connections", "100"));
        this.size = Integer.parseInt(options.getOrDefault("size", "1024"));
        this.clientThreads = Integer.parseInt(options.getOrDefault("client-threads", "1"));
        this.warmupMillis = millis(options.getOrDefault("warmup", "10"));
        this.durationMillis = millis(options.getOrDefault("duration", "20"));
        this.rounds = Integer.parseInt(options.getOrDefault("rounds", "2"));
        this.idleMillis = millis(options.getOrDefault("idle", "5"));
        this.targets = List.of(options.getOrDefault("targets", ZILLA + "," + PLAIN).split(","));
    }

    public static void main(String[] args) throws Exception
    {
        of(args).run();
    }

    /** A benchmark with these arguments, ready to {@link #run()}. */
    static TcpEchoBenchmark of(String... args)
    {
        ThreadStats.enable();
        return new TcpEchoBenchmark(parse(args));
    }

    /** Runs every round and prints each run, then the summary; returns the runs, for tests. */
    List<Run> run() throws Exception
    {
        System.out.printf(Locale.ROOT, "tcp echo: %d worker(s) / plain thread(s), %d connections, %d B messages, "
            + "%d client thread(s), warmup %d ms, measured %d ms, %d round(s); zilla ring %d KiB per worker; %s %s, "
            + "%d cores, JVM options %s%n",
            workers, connections, size, clientThreads, warmupMillis, durationMillis, rounds,
            new EngineConfiguration().ringCapacity() / 1024, System.getProperty("java.vm.name"),
            System.getProperty("java.runtime.version"), Runtime.getRuntime().availableProcessors(),
            ManagementFactory.getRuntimeMXBean().getInputArguments());
        final List<Run> runs = new ArrayList<>();
        for (int round = 0; round < rounds; round++)
        {
            final List<String> order = new ArrayList<>(targets);
            if (round % 2 == 1)
            {
                Collections.reverse(order);
            }
            for (String target : order)
            {
                final Run run = run(round, target);
                System.out.println(run.format());
                runs.add(run);
            }
        }
        summarize(runs);
        return runs;
    }

    private Run run(int round, String target) throws Exception
    {
        final InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort());
        final boolean zilla = ZILLA.equals(target);
        final String serverPrefix = zilla ? ZILLA_THREAD_PREFIX : PlainNioEchoServer.THREAD_PREFIX;
        final String allPrefix = zilla ? ZILLA_ALL_THREADS_PREFIX : PlainNioEchoServer.THREAD_PREFIX;
        try (Server server = zilla ? new ZillaServer(address, workers) : new PlainServer(address, workers))
        {
            // idle: just started, nothing connected; the first half second lets the threads settle into their idle state
            Thread.sleep(500);
            final ThreadStats idleBefore = ThreadStats.of(serverPrefix);
            final ThreadStats idleAllBefore = ThreadStats.of(allPrefix);
            Thread.sleep(idleMillis);
            final ThreadStats idle = ThreadStats.of(serverPrefix).minus(idleBefore);
            final ThreadStats idleAll = ThreadStats.of(allPrefix).minus(idleAllBefore);

            final EchoLoadClient client = new EchoLoadClient(address, connections, size, clientThreads);
            client.connect();
            client.start();
            Thread.sleep(warmupMillis);

            final ThreadStats serverBefore = ThreadStats.of(serverPrefix);
            final ThreadStats clientBefore = ThreadStats.of(EchoLoadClient.THREAD_PREFIX);
            final long gcBefore = gcCount();
            client.beginMeasuring();
            Thread.sleep(durationMillis);
            client.endMeasuring();
            final long gcs = gcCount() - gcBefore;
            final ThreadStats serverDelta = ThreadStats.of(serverPrefix).minus(serverBefore);
            final ThreadStats clientDelta = ThreadStats.of(EchoLoadClient.THREAD_PREFIX).minus(clientBefore);
            client.stop();
            return new Run(round, target, client.result(), serverDelta, clientDelta, idle, idleAll, idleMillis, gcs);
        }
    }

    private void summarize(List<Run> runs)
    {
        final Map<String, Total> totals = new HashMap<>();
        for (Run run : runs)
        {
            totals.computeIfAbsent(run.target, t -> new Total()).add(run);
        }
        final Total zilla = totals.get(ZILLA);
        final Total plain = totals.get(PLAIN);
        System.out.println();
        System.out.printf(Locale.ROOT, "summary over %d round(s), %d worker(s) vs %d plain thread(s):%n", rounds, workers,
            workers);
        System.out.println("| | zilla | plain | zilla / plain |");
        System.out.println("|---|---:|---:|---:|");
        row("messages/s", zilla, plain, Total::messagesPerSecond, "%,.0f");
        row("messages/s, slowest round", zilla, plain, t -> t.slowest, "%,.0f");
        row("messages/s, fastest round", zilla, plain, t -> t.fastest, "%,.0f");
        row("MiB/s (each way)", zilla, plain, t -> t.messagesPerSecond() * size / (1024.0 * 1024.0), "%,.1f");
        row("RTT p50 (µs)", zilla, plain, t -> t.rtt.getValueAtPercentile(50) / 1e3, "%,.0f");
        row("RTT p99 (µs)", zilla, plain, t -> t.rtt.getValueAtPercentile(99) / 1e3, "%,.0f");
        row("RTT p99.9 (µs)", zilla, plain, t -> t.rtt.getValueAtPercentile(99.9) / 1e3, "%,.0f");
        row("RTT max (µs)", zilla, plain, t -> t.rtt.getMaxValue() / 1e3, "%,.0f");
        row("server CPU (% of a core)", zilla, plain, t -> 100.0 * t.serverCpuNanos / t.nanos, "%.0f");
        row("server CPU per message (µs)", zilla, plain, t -> t.serverCpuNanos / 1e3 / t.messages, "%.2f");
        row("client CPU per message (µs)", zilla, plain, t -> t.clientCpuNanos / 1e3 / t.messages, "%.2f");
        row("server allocation per message (B)", zilla, plain, t -> (double) t.serverAllocated / t.messages, "%.4f");
        row("server allocation while measuring (B)", zilla, plain, t -> (double) t.serverAllocated, "%,.0f");
        row("GCs while measuring", zilla, plain, t -> (double) t.gcs, "%.0f");
        row("idle CPU, workers (% of a core)", zilla, plain, t -> 100.0 * t.idleCpuNanos / t.idleNanos, "%.3f");
        row("idle CPU, all zilla-* threads (% of a core)", zilla, plain, t -> 100.0 * t.idleAllCpuNanos / t.idleNanos,
            "%.3f");
        row("errors", zilla, plain, t -> (double) t.errors, "%.0f");
    }

    private static void row(String name, Total zilla, Total plain, ToDoubleFunction<Total> metric,
        String format)
    {
        final String z = zilla != null ? String.format(Locale.ROOT, format, metric.applyAsDouble(zilla)) : "-";
        final String p = plain != null ? String.format(Locale.ROOT, format, metric.applyAsDouble(plain)) : "-";
        String ratio = "-";
        if (zilla != null && plain != null && metric.applyAsDouble(plain) != 0)
        {
            ratio = String.format(Locale.ROOT, "%.2f", metric.applyAsDouble(zilla) / metric.applyAsDouble(plain));
        }
        System.out.printf("| %s | %s | %s | %s |%n", name, z, p, ratio);
    }

    private static long gcCount()
    {
        long count = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
        {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }

    private static int freePort() throws IOException
    {
        return FreePorts.next();
    }

    private static long millis(String seconds)
    {
        return Math.round(Double.parseDouble(seconds) * 1000);
    }

    private static Map<String, String> parse(String[] args)
    {
        final Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if (!arg.startsWith("--"))
            {
                throw new IllegalArgumentException("expected --name value, not " + arg);
            }
            final int equals = arg.indexOf('=');
            if (equals > 0)
            {
                options.put(arg.substring(2, equals), arg.substring(equals + 1));
            }
            else if (i + 1 < args.length)
            {
                options.put(arg.substring(2), args[++i]);
            }
            else
            {
                throw new IllegalArgumentException(arg + " needs a value");
            }
        }
        return options;
    }

    /** One target under load: the client's result and what the threads of both sides spent. */
    record Run(int round, String target, Result result, ThreadStats server, ThreadStats client, ThreadStats idle,
        ThreadStats idleAll, long idleMillis, long gcs)
    {
        String format()
        {
            return String.format(Locale.ROOT, "round %d %-5s: %,10.0f msg/s %7.1f MiB/s  RTT p50 %,6.0f p99 %,6.0f "
                + "p99.9 %,6.0f max %,7.0f µs  server CPU %3.0f%% %.2f µs/msg, %.4f B/msg (%,d B)  client CPU %.2f "
                + "µs/msg  GCs %d  idle CPU %.3f%%  errors %d",
                round, target, result.messagesPerSecond(), result.mebibytesPerSecond(), result.rttMicros(50),
                result.rttMicros(99), result.rttMicros(99.9), result.maxRttMicros(),
                100.0 * server.cpuNanos() / result.nanos(), server.cpuNanos() / 1e3 / result.messages(),
                (double) server.allocated() / result.messages(), server.allocated(),
                client.cpuNanos() / 1e3 / result.messages(), gcs, 100.0 * idle.cpuNanos() / (idleMillis * 1e6),
                result.errors());
        }
    }

    /** The runs of one target, added up. */
    private static final class Total
    {
        private final Histogram rtt = new Histogram(3);
        private long messages;
        private long nanos;
        private long serverCpuNanos;
        private long clientCpuNanos;
        private long serverAllocated;
        private long gcs;
        private long idleCpuNanos;
        private long idleAllCpuNanos;
        private long idleNanos;
        private long errors;
        private double slowest = Double.MAX_VALUE;
        private double fastest;

        void add(Run run)
        {
            rtt.add(run.result.rtt());
            messages += run.result.messages();
            nanos += run.result.nanos();
            serverCpuNanos += run.server.cpuNanos();
            clientCpuNanos += run.client.cpuNanos();
            serverAllocated += run.server.allocated();
            gcs += run.gcs;
            idleCpuNanos += run.idle.cpuNanos();
            idleAllCpuNanos += run.idleAll.cpuNanos();
            slowest = Math.min(slowest, run.result.messagesPerSecond());
            fastest = Math.max(fastest, run.result.messagesPerSecond());
            idleNanos += run.idleMillis * 1_000_000L;
            errors += run.result.errors();
        }

        double messagesPerSecond()
        {
            return messages * 1e9 / nanos;
        }
    }

    /** A server under test. */
    private interface Server extends AutoCloseable
    {
        @Override
        void close() throws Exception;
    }

    /** zilla in-process: {@code tcp server -> echo} on {@code workers} workers, in a fresh engine directory. */
    private static final class ZillaServer implements Server
    {
        private final Path directory;
        private final Engine engine;

        ZillaServer(InetSocketAddress address, int workers) throws IOException
        {
            final String yaml = String.join("\n",
                "---",
                "name: bench",
                "bindings:",
                "  north_tcp_server:",
                "    type: tcp",
                "    kind: server",
                "    options:",
                "      host: " + address.getHostString(),
                "      port: " + address.getPort(),
                "    routes:",
                "      - when:",
                "          - cidr: 127.0.0.0/8",
                "        exit: north_echo_server",
                "  north_echo_server:",
                "    type: echo",
                "    kind: server",
                "");
            directory = Files.createTempDirectory("zilla-bench-");
            final EngineConfiguration configuration = new EngineConfiguration()
                .with(EngineConfiguration.WORKERS, workers)
                .with(EngineConfiguration.DIRECTORY, directory);
            engine = Engine.builder().configuration(configuration).config("bench.zilla.yaml", yaml).build();
            engine.start();
        }

        @Override
        public void close() throws IOException
        {
            engine.close();
            try (Stream<Path> files = Files.walk(directory))
            {
                files.sorted(Comparator.reverseOrder()).forEach(path ->
                {
                    try
                    {
                        Files.delete(path);
                    }
                    catch (IOException ex)
                    {
                        throw new UncheckedIOException(ex);
                    }
                });
            }
        }
    }

    /** The physical baseline. */
    private static final class PlainServer implements Server
    {
        private final PlainNioEchoServer server;

        PlainServer(InetSocketAddress address, int threads) throws IOException
        {
            server = new PlainNioEchoServer(address, threads);
            server.start();
        }

        @Override
        public void close() throws InterruptedException
        {
            server.close();
        }
    }
}
