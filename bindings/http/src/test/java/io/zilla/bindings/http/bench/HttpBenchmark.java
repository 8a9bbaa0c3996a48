/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.zilla.engine.test.CpuSteal;
import io.zilla.engine.test.ThreadStats;

/**
 * The http benchmark (docs/benchmarks.md, "http"): requests per second, latency p50 / p99, CPU and allocation per
 * request of zilla's http.echo graph (one worker) against a reference server in the same run, alternating.
 * Workloads: {@code h1-get} and {@code h1-post} (wrk, one thread, {@code --h1-connections} keep-alive
 * connections; reference nginx), {@code h2c-get} and {@code h2c-post} (h2load, {@code --h2-connections}
 * connections of {@code --streams} concurrent streams; reference nghttpd). A GET is answered with an empty body, a
 * POST of {@code --size} bytes with as many.
 * <p>
 * Arguments (all optional): {@code --workloads h1-get,h1-post,h2c-get,h2c-post}, {@code --targets
 * zilla,reference} (or {@code zilla,zilla-metrics}: the same graph with every http.* and stream.* metric on, its ratio
 * against zilla without them), {@code --duration S} (10), {@code --warmup S} (3, not measured, before each run),
 * {@code --rounds N} (2), {@code --size BYTES} (65536), {@code --h1-connections N} (50), {@code --h2-connections N}
 * (10), {@code --streams N} (100).
 */
public final class HttpBenchmark
{
    static final String H1_GET = "h1-get";
    static final String H1_POST = "h1-post";
    static final String H2C_GET = "h2c-get";
    static final String H2C_POST = "h2c-post";

    private final List<String> workloads;
    private final List<String> targets;
    private final int duration;
    private final int warmup;
    private final int rounds;
    private final int size;
    private final int h1Connections;
    private final int h2Connections;
    private final int streams;

    /** One measured run. */
    record Run(String workload, String target, int round, HttpLoad.Result load, double cpuMicrosPerRequest,
        double bytesPerRequest, double steal)
    {
    }

    HttpBenchmark(Map<String, String> options)
    {
        this.workloads = List.of(options.getOrDefault("workloads", String.join(",", H1_GET, H1_POST, H2C_GET, H2C_POST))
            .split(","));
        this.targets = List.of(options.getOrDefault("targets", HttpBenchTarget.ZILLA + "," + HttpBenchTarget.REFERENCE)
            .split(","));
        this.duration = Integer.parseInt(options.getOrDefault("duration", "10"));
        this.warmup = Integer.parseInt(options.getOrDefault("warmup", "3"));
        this.rounds = Integer.parseInt(options.getOrDefault("rounds", "2"));
        this.size = Integer.parseInt(options.getOrDefault("size", "65536"));
        this.h1Connections = Integer.parseInt(options.getOrDefault("h1-connections", "50"));
        this.h2Connections = Integer.parseInt(options.getOrDefault("h2-connections", "10"));
        this.streams = Integer.parseInt(options.getOrDefault("streams", "100"));
    }

    public static void main(String[] args) throws Exception
    {
        final Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2)
        {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        final List<Run> runs = new HttpBenchmark(options).run(System.out::println);
        System.out.println();
        System.out.println(summary(runs));
        final boolean failed = runs.stream().anyMatch(run -> run.load().failed() > 0 || run.load().succeeded() == 0);
        System.exit(failed ? 1 : 0);
    }

    List<Run> run(Consumer<String> log) throws IOException, InterruptedException
    {
        ThreadStats.enable();
        final Path directory = Files.createTempDirectory("zilla-http-bench-");
        final List<Run> runs = new ArrayList<>();
        final Map<String, HttpBenchTarget> servers = new LinkedHashMap<>();
        try
        {
            if (targets.contains(HttpBenchTarget.ZILLA))
            {
                servers.put(HttpBenchTarget.ZILLA, HttpBenchTarget.zilla(directory));
            }
            if (targets.contains(HttpBenchTarget.ZILLA_METRICS))
            {
                servers.put(HttpBenchTarget.ZILLA_METRICS, HttpBenchTarget.zillaWithMetrics(directory));
            }
            if (targets.contains(HttpBenchTarget.REFERENCE))
            {
                if (workloads.contains(H1_GET) || workloads.contains(H1_POST))
                {
                    servers.put("nginx", HttpBenchTarget.nginx(directory));
                }
                if (workloads.contains(H2C_GET) || workloads.contains(H2C_POST))
                {
                    servers.put("nghttpd", HttpBenchTarget.nghttpd(directory));
                }
            }
            for (int round = 0; round < rounds; round++)
            {
                for (String workload : workloads)
                {
                    final List<String> order = new ArrayList<>(targets);
                    if (round % 2 == 1)
                    {
                        order.sort(Comparator.reverseOrder());
                    }
                    for (String target : order)
                    {
                        final HttpBenchTarget server = servers.containsKey(target)
                            ? servers.get(target)
                            : servers.get(workload.startsWith("h1") ? "nginx" : "nghttpd");
                        final Run run = measure(workload, server, round, directory);
                        runs.add(run);
                        log.accept(line(run));
                    }
                }
            }
        }
        finally
        {
            for (HttpBenchTarget server : servers.values())
            {
                server.close();
            }
            try (Stream<Path> files = Files.walk(directory))
            {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        return runs;
    }

    private Run measure(String workload, HttpBenchTarget server, int round, Path directory)
        throws IOException, InterruptedException
    {
        if (warmup > 0)
        {
            load(workload, server.port, warmup, directory);
        }
        final HttpBenchTarget.Usage before = server.usage();
        final CpuSteal steal = CpuSteal.now();
        final HttpLoad.Result result = load(workload, server.port, duration, directory);
        final HttpBenchTarget.Usage after = server.usage();
        final long requests = Math.max(1, result.succeeded());
        return new Run(workload, server.name, round, result, (after.cpuNanos() - before.cpuNanos()) / 1000.0 / requests,
            (double) (after.allocated() - before.allocated()) / requests, CpuSteal.now().percentSince(steal));
    }

    private HttpLoad.Result load(String workload, int port, int seconds, Path directory)
        throws IOException, InterruptedException
    {
        return switch (workload)
        {
            case H1_GET -> HttpLoad.wrk(port, h1Connections, seconds, 0, directory);
            case H1_POST -> HttpLoad.wrk(port, h1Connections, seconds, size, directory);
            case H2C_GET -> HttpLoad.h2load(port, h2Connections, streams, seconds, 0, directory);
            case H2C_POST -> HttpLoad.h2load(port, h2Connections, streams, seconds, size, directory);
            default -> throw new IllegalArgumentException("unknown workload " + workload);
        };
    }

    private static String line(Run run)
    {
        return String.format(Locale.ROOT, "%-8s %-9s round %d: %,10.0f req/s, p50 %7.3f ms, p99 %7.3f ms, %,d ok, %,d failed, "
                + "server CPU %6.2f us/req, allocated %8.1f B/req, host steal %.1f%%",
            run.workload(), run.target(), run.round(), run.load().rate(), run.load().p50(), run.load().p99(),
            run.load().succeeded(), run.load().failed(), run.cpuMicrosPerRequest(), run.bytesPerRequest(), run.steal());
    }

    /** Per workload and target: requests over time summed over the rounds, the rounds' median p50 and p99. */
    static String summary(List<Run> runs)
    {
        final StringBuilder out = new StringBuilder(
            "| workload | target | req/s | p50 (ms) | p99 (ms) | CPU us/req | B/req | failed | zilla / reference req/s |\n"
            + "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        final Map<String, Map<String, List<Run>>> byWorkload = new LinkedHashMap<>();
        for (Run run : runs)
        {
            byWorkload.computeIfAbsent(run.workload(), w -> new LinkedHashMap<>())
                .computeIfAbsent(run.target(), t -> new ArrayList<>()).add(run);
        }
        for (Map.Entry<String, Map<String, List<Run>>> workload : byWorkload.entrySet())
        {
            final Map<String, Double> rates = new HashMap<>();
            for (Map.Entry<String, List<Run>> target : workload.getValue().entrySet())
            {
                rates.put(target.getKey(), rate(target.getValue()));
            }
            for (Map.Entry<String, List<Run>> target : workload.getValue().entrySet())
            {
                final List<Run> of = target.getValue();
                final boolean zilla = target.getKey().startsWith(HttpBenchTarget.ZILLA);
                // zilla with metrics is compared with zilla without them, when both ran
                final Double reference = target.getKey().equals(HttpBenchTarget.ZILLA_METRICS)
                    && rates.containsKey(HttpBenchTarget.ZILLA)
                    ? rates.get(HttpBenchTarget.ZILLA)
                    : rates.get(HttpBenchTarget.REFERENCE);
                out.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %.3f | %.3f | %.2f | %s | %d | %s |%n",
                    workload.getKey(), zilla ? target.getKey() : (workload.getKey().startsWith("h1") ? "nginx" : "nghttpd"),
                    rates.get(target.getKey()),
                    median(of.stream().mapToDouble(run -> run.load().p50()).toArray()),
                    median(of.stream().mapToDouble(run -> run.load().p99()).toArray()),
                    median(of.stream().mapToDouble(Run::cpuMicrosPerRequest).toArray()),
                    zilla ? String.format(Locale.ROOT, "%.1f", median(of.stream().mapToDouble(Run::bytesPerRequest).toArray()))
                        : "",
                    of.stream().mapToLong(run -> run.load().failed()).sum(),
                    zilla && reference != null && reference > 0
                        ? String.format(Locale.ROOT, "%.2f", rates.get(target.getKey()) / reference) : ""));
            }
        }
        return out.toString();
    }

    private static double rate(List<Run> runs)
    {
        final double seconds = runs.stream().mapToDouble(run -> run.load().seconds()).sum();
        return seconds > 0 ? runs.stream().mapToLong(run -> run.load().succeeded()).sum() / seconds : 0;
    }

    private static double median(double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length == 0 ? Double.NaN
            : sorted.length % 2 == 1 ? sorted[sorted.length / 2]
            : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }
}
