/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.ThreadStats;

/**
 * The TLS benchmark (docs/benchmarks.md, "tls"): zilla's tls server on either provider against {@code openssl
 * s_server} with the same key, one worker. Targets: {@code zilla-jdk} and {@code zilla-openssl} (zilla in-process,
 * {@code tcp server -> tls server -> exit}, keys from a filesystem vault's PKCS12 made at start) and {@code openssl}
 * (an {@code openssl s_server} child process, the same key in PEM). Workloads:
 * <ul>
 * <li>{@code full}: full handshakes per second, {@code openssl s_time -new} (a C client, one connection at a time)
 * against zilla's echo exit or a plain {@code s_server -accept};</li>
 * <li>{@code resumed}: the same with {@code -reuse} (s_time reads nothing from its connections, so under TLS 1.3 it
 * never sees a session ticket and does not resume: this workload runs under TLS 1.2 whatever {@code --version});</li>
 * <li>{@code bulk}: one client ({@code openssl s_client}, or with {@code --client jdk} a JDK {@code SSLSocket}
 * with a 1 MiB buffer, whose decryption shares this JVM's cores with zilla) downloads {@code --size} MiB,
 * {@code --downloads} times, from
 * {@code s_server -WWW} serving a file of that size and from zilla's tls server whose exit is a tcp client to a
 * {@link SourceServer} that writes as many bytes (what a TLS-terminating proxy does).</li>
 * </ul>
 * Rounds alternate the targets' order. Each run reports the rate, the server's CPU (zilla: its worker and its
 * {@code zilla-tls-task-} threads; s_server: utime + stime from /proc) per handshake or per GB, and the bytes the
 * worker allocates per handshake or per MiB.
 * <p>
 * Arguments (all optional): {@code --targets zilla-jdk,zilla-openssl,openssl}, {@code --workloads full,resumed,bulk},
 * {@code --key ec|rsa} (ec: P-256; rsa: 2048 bits), {@code --version 1.3|1.2} (1.3), {@code --time S} (10, s_time's
 * seconds), {@code --warmup S} (3: s_time seconds and one download, not measured, before each run), {@code --size
 * MIB} (256), {@code --downloads N} (3), {@code --rounds N} (2), {@code --client s_client|jdk} (s_client).
 */
public final class TlsBenchmark
{
    static final String ZILLA_JDK = "zilla-jdk";
    static final String ZILLA_OPENSSL = "zilla-openssl";
    static final String OPENSSL = "openssl";
    static final String FULL = "full";
    static final String RESUMED = "resumed";
    static final String BULK = "bulk";

    private static final Pattern CONNECTIONS = Pattern.compile("(\\d+) connections in (\\d+) real seconds");
    private static final String PASSWORD = "bench-only";
    private static final double MIB = 1024.0 * 1024.0;

    private final List<String> targets;
    private final List<String> workloads;
    private final String key;
    private final String version;
    private final int time;
    private final int warmup;
    private final int size;
    private final int downloads;
    private final int rounds;
    private final String client;

    private TlsBenchmark(Map<String, String> options)
    {
        this.targets = List.of(options.getOrDefault("targets", ZILLA_JDK + "," + ZILLA_OPENSSL + "," + OPENSSL).split(","));
        this.workloads = List.of(options.getOrDefault("workloads", FULL + "," + RESUMED + "," + BULK).split(","));
        this.key = options.getOrDefault("key", "ec");
        this.version = options.getOrDefault("version", "1.3");
        this.time = Integer.parseInt(options.getOrDefault("time", "10"));
        this.warmup = Integer.parseInt(options.getOrDefault("warmup", "3"));
        this.size = Integer.parseInt(options.getOrDefault("size", "256"));
        this.downloads = Integer.parseInt(options.getOrDefault("downloads", "3"));
        this.rounds = Integer.parseInt(options.getOrDefault("rounds", "2"));
        this.client = options.getOrDefault("client", "s_client");
        if (!List.of("ec", "rsa").contains(key) || !List.of("1.3", "1.2").contains(version)
            || !List.of("s_client", "jdk").contains(client))
        {
            throw new IllegalArgumentException("--key ec|rsa, --version 1.3|1.2, --client s_client|jdk");
        }
    }

    public static void main(String[] args) throws Exception
    {
        of(args).run();
    }

    /** A benchmark with these arguments, ready to {@link #run()}. */
    static TlsBenchmark of(String... args)
    {
        ThreadStats.enable();
        return new TlsBenchmark(parse(args));
    }

    /** Runs every round and prints each run, then the summary; returns the runs, for tests. */
    List<Run> run() throws Exception
    {
        System.out.printf(Locale.ROOT, "tls: targets %s, workloads %s, key %s, TLS %s, s_time %d s, downloads %d x %d MiB "
            + "by %s, warmup %d s, %d round(s); %s; %s %s, %d cores, load average %s, JVM options %s%n",
            targets, workloads, key.equals("ec") ? "EC P-256" : "RSA 2048", version, time, downloads, size, client, warmup,
            rounds,
            command("openssl", "version").trim(), System.getProperty("java.vm.name"),
            System.getProperty("java.runtime.version"), Runtime.getRuntime().availableProcessors(), loadAverage(),
            ManagementFactory.getRuntimeMXBean().getInputArguments());
        final Path directory = Files.createTempDirectory("zilla-tls-bench-");
        final TlsBenchKeys keys = TlsBenchKeys.make(directory, key, PASSWORD);
        final List<Run> runs = new ArrayList<>();
        try (SourceServer source = new SourceServer(size * 1024L * 1024L))
        {
            // what s_server -WWW serves (zeros: the cost of a record does not depend on what it carries)
            try (var file = Files.newOutputStream(directory.resolve("file")))
            {
                final byte[] mebibyte = new byte[1024 * 1024];
                for (int i = 0; i < size; i++)
                {
                    file.write(mebibyte);
                }
            }
            for (int round = 0; round < rounds; round++)
            {
                final List<String> order = new ArrayList<>(targets);
                if (round % 2 == 1)
                {
                    Collections.reverse(order);
                }
                for (String workload : workloads)
                {
                    for (String target : order)
                    {
                        final Run run = run(round, target, workload, keys, source);
                        System.out.println(run.format());
                        runs.add(run);
                    }
                }
            }
        }
        summarize(runs);
        return runs;
    }

    private Run run(int round, String target, String workload, TlsBenchKeys keys, SourceServer source) throws Exception
    {
        final boolean bulk = BULK.equals(workload);
        final int port = freePort();
        try (TlsBenchTarget server = start(target, port, keys, bulk ? source.port() : 0))
        {
            if (bulk)
            {
                if (warmup > 0)
                {
                    download(port, keys);
                }
                final TlsBenchTarget.Usage before = server.usage();
                final long start = System.nanoTime();
                long bytes = 0;
                int errors = 0;
                String suite = null;
                for (int i = 0; i < downloads; i++)
                {
                    final TlsBenchClient.Download download = download(port, keys);
                    bytes += download.body();
                    errors += download.body() == size * 1024L * 1024L ? 0 : 1;
                    suite = download.suite();
                }
                final long nanos = System.nanoTime() - start;
                return new Run(round, target, workload, bytes, nanos, server.usage().minus(before), errors, suite);
            }
            final String tls = RESUMED.equals(workload) ? "1.2" : version;
            if (warmup > 0)
            {
                sTime(port, workload, tls, warmup);
            }
            final TlsBenchTarget.Usage before = server.usage();
            final long start = System.nanoTime();
            final long connections = sTime(port, workload, tls, time);
            final long nanos = System.nanoTime() - start;
            return new Run(round, target, workload, connections, nanos, server.usage().minus(before),
                connections > 0 ? 0 : 1, "TLSv" + tls);
        }
    }

    private static TlsBenchTarget start(String target, int port, TlsBenchKeys keys, int sourcePort) throws Exception
    {
        return switch (target)
        {
            case ZILLA_JDK, ZILLA_OPENSSL -> TlsBenchTarget.zilla(target.substring("zilla-".length()), port, keys, sourcePort);
            case OPENSSL -> TlsBenchTarget.openssl(port, keys, sourcePort != 0);
            default -> throw new IllegalArgumentException("unknown target " + target);
        };
    }

    // openssl s_time: the connections it made in the time given (its "N connections in T real seconds" line)
    private static long sTime(int port, String workload, String tls, int seconds) throws Exception
    {
        final String output = command("openssl", "s_time", "-connect", "127.0.0.1:" + port,
            RESUMED.equals(workload) ? "-reuse" : "-new", "-time", String.valueOf(seconds), "1.2".equals(tls) ? "-tls1_2"
                : "-tls1_3");
        final Matcher matcher = CONNECTIONS.matcher(output);
        if (!matcher.find())
        {
            throw new IllegalStateException("s_time said: " + output.substring(Math.max(0, output.length() - 500)));
        }
        if (RESUMED.equals(workload) && output.chars().filter(c -> c == 'r').count() < Long.parseLong(matcher.group(1)) / 2)
        {
            throw new IllegalStateException("s_time -reuse did not resume: " + output.substring(0, Math.min(200,
                output.length())));
        }
        return Long.parseLong(matcher.group(1));
    }

    private TlsBenchClient.Download download(int port, TlsBenchKeys keys) throws IOException, InterruptedException
    {
        return "s_client".equals(client)
            ? TlsBenchClient.downloadByOpenssl(port, "TLSv" + version, "GET /file HTTP/1.0\r\n\r\n")
            : TlsBenchClient.download(keys.clientContext(), port, "TLSv" + version, "GET /file HTTP/1.0\r\n\r\n");
    }

    private void summarize(List<Run> runs)
    {
        System.out.println();
        System.out.printf(Locale.ROOT, "summary over %d round(s), 1 worker, %s key, TLS %s (resumed: 1.2); load average %s:%n",
            rounds, key.equals("ec") ? "EC P-256" : "RSA 2048", version, loadAverage());
        System.out.println("| | " + String.join(" | ", targets) + " | " + String.join(" | ", targets.stream()
            .filter(t -> !OPENSSL.equals(t)).map(t -> t + " / openssl").toList()) + " |");
        System.out.println("|---" + "|---:".repeat(targets.size() * 2 - (targets.contains(OPENSSL) ? 1 : 0)) + "|");
        for (String workload : workloads)
        {
            final Map<String, Total> totals = new LinkedHashMap<>();
            for (Run run : runs)
            {
                if (run.workload.equals(workload))
                {
                    totals.computeIfAbsent(run.target, t -> new Total()).add(run);
                }
            }
            if (BULK.equals(workload))
            {
                row("bulk: MB/s", totals, t -> t.count / 1e6 / (t.nanos / 1e9), "%,.0f");
                row("bulk: server CPU s per GB", totals, t -> t.cpuNanos / 1e9 / (t.count / 1e9), "%.2f");
                row("bulk: worker allocation per MiB (B)", totals, t -> t.allocated / (t.count / MIB), "%,.0f");
            }
            else
            {
                row(workload + " handshakes/s", totals, t -> t.count / (t.nanos / 1e9), "%,.0f");
                row(workload + ": server CPU per handshake (µs)", totals, t -> t.cpuNanos / 1e3 / t.count, "%,.0f");
                row(workload + ": worker allocation per handshake (B)", totals, t -> (double) t.allocated / t.count,
                    "%,.0f");
            }
            row(workload + ": errors", totals, t -> t.errors, "%.0f");
        }
    }

    private void row(String name, Map<String, Total> totals, ToDoubleFunction<Total> metric, String format)
    {
        final StringBuilder line = new StringBuilder("| " + name);
        for (String target : targets)
        {
            final Total total = totals.get(target);
            line.append(" | ").append(total != null ? String.format(Locale.ROOT, format, metric.applyAsDouble(total)) : "-");
        }
        final Total openssl = totals.get(OPENSSL);
        for (String target : targets)
        {
            if (!OPENSSL.equals(target))
            {
                final Total total = totals.get(target);
                final double base = openssl != null ? metric.applyAsDouble(openssl) : 0;
                line.append(" | ").append(total != null && base != 0
                    ? String.format(Locale.ROOT, "%.2f", metric.applyAsDouble(total) / base) : "-");
            }
        }
        System.out.println(line.append(" |"));
    }

    static String command(String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0)
        {
            throw new IllegalStateException(String.join(" ", command) + ": " + output);
        }
        return output;
    }

    private static String loadAverage()
    {
        try
        {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        }
        catch (IOException ex)
        {
            return "unknown";
        }
    }

    static int freePort() throws IOException
    {
        return FreePorts.next();
    }

    private static Map<String, String> parse(String[] args)
    {
        final Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if (!arg.startsWith("--") || i + 1 == args.length)
            {
                throw new IllegalArgumentException("expected --name value, not " + arg);
            }
            options.put(arg.substring(2), args[++i]);
        }
        return options;
    }

    /**
     * One target under one workload: {@code count} handshakes (full, resumed) or bytes (bulk) in {@code nanos}, and
     * what the server spent meanwhile.
     */
    record Run(int round, String target, String workload, long count, long nanos, TlsBenchTarget.Usage usage, int errors,
        String suite)
    {
        String format()
        {
            final double seconds = nanos / 1e9;
            return BULK.equals(workload)
                ? String.format(Locale.ROOT, "round %d %-13s %-7s: %,8.0f MB/s  server CPU %.2f s/GB  worker %,.0f B/MiB"
                    + "  errors %d  %s", round, target, workload, count / 1e6 / seconds, usage.cpuNanos() / 1e9 / (count / 1e9),
                    usage.allocated() / (count / MIB), errors, suite)
                : String.format(Locale.ROOT, "round %d %-13s %-7s: %,8.0f handshakes/s (%d in %.1f s)  server CPU %,.0f "
                    + "µs/handshake  worker %,.0f B/handshake  errors %d  %s", round, target, workload, count / seconds, count,
                    seconds, usage.cpuNanos() / 1e3 / Math.max(1, count), (double) usage.allocated() / Math.max(1, count),
                    errors, suite);
        }
    }

    /** The runs of one target under one workload, added up. */
    private static final class Total
    {
        private double count;
        private double nanos;
        private double cpuNanos;
        private double allocated;
        private double errors;

        void add(Run run)
        {
            count += run.count;
            nanos += run.nanos;
            cpuNanos += run.usage.cpuNanos();
            allocated += run.usage.allocated();
            errors += run.errors;
        }
    }
}
