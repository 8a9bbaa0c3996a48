/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.DoubleBinaryOperator;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.test.CpuSteal;
import io.zilla.engine.test.ThreadStats;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The kafka proxy benchmark (docs/benchmarks.md, "kafka proxy"; issue 4 item 6): in one JVM and one run, the same
 * kafka-clients load against one embedded broker directly and through zilla ({@code tcp server -> kafka proxy ->
 * tcp client}, in-process), runs alternating direct, zilla, direct, zilla...
 * <p>
 * Two modes. {@code latency}: a producer at a fixed rate (uniform, from intended send times) and a consumer of every
 * partition; publish latency (send to acknowledgement, and from the intended send time), end-to-end latency (send
 * to the consumer's poll), achieved rates. {@code max}: the producer as fast as it can, produced and consumed
 * msg/s and MB/s. For each zilla run, the CPU time and the bytes allocated by zilla's worker threads
 * ({@code zilla-worker-*}) while measuring, per GB and per message proxied.
 * <p>
 * Arguments (all optional): {@code --mode latency,max}, {@code --rate 10000} (msg/s), {@code --size 1024} (bytes),
 * {@code --partitions 16}, {@code --warmup 10}, {@code --duration 30}, {@code --rounds 3} (runs of each target in
 * latency mode), {@code --max-warmup 5}, {@code --max-duration 20}, {@code --max-rounds 2}, {@code --workers 1},
 * {@code --linger-ms 1}, {@code --batch-size 16384}, {@code --fetch-min-bytes 1}, {@code --targets direct,zilla}
 * ({@code direct,socat,zilla} adds a plain relay, {@link SocatRelay}, and its per-round figures;
 * {@code direct,zilla,zilla-metrics} a second zilla with every metric on, against the first in the same rounds),
 * {@code --broker-jvm=-Xms1g,-Xmx1g,...} (comma separated), {@code --prime 15} (seconds of load at the latency rate on
 * each target before the latency runs, not counted: JIT of the broker, the clients and zilla), {@code --max-prime 20}
 * (the same, unthrottled, before the max runs), {@code --pause 3} (seconds after each
 * run, once its topic is deleted), {@code --order abab} ({@code abba} reverses every second round),
 * {@code --json target/kafka-bench.json}.
 */
public final class KafkaProxyBench
{
    static final String DIRECT = "direct";
    static final String ZILLA = "zilla";
    /** zilla again, a second engine with every metric of the graph on: against {@link #ZILLA} in the same rounds. */
    static final String ZILLA_METRICS = "zilla-metrics";
    static final String RELAY = "socat";
    static final String LATENCY = "latency";
    static final String MAX = "max";

    private static final double TARGET_P50_DELTA_MS = 0.1;
    private static final double TARGET_P99_RATIO = 1.05;
    private static final double TARGET_MAX_RATIO = 0.97;
    private static final double TARGET_METRICS_RATIO = 0.97;
    private static final DoubleBinaryOperator RATIO = (hop, reference) -> hop / reference;
    private static final DoubleBinaryOperator DIFFERENCE = (hop, reference) -> hop - reference;
    private static final ToDoubleFunction<Run> PUBLISH_P50_MS = run -> ms(run.publish, 50);
    private static final ToDoubleFunction<Run> PUBLISH_P99_MS = run -> ms(run.publish, 99);

    private final List<String> modes;
    private final double rate;
    private final int size;
    private final int partitions;
    private final long warmupNanos;
    private final long durationNanos;
    private final int rounds;
    private final long maxWarmupNanos;
    private final long maxDurationNanos;
    private final int maxRounds;
    private final int workers;
    private final int lingerMs;
    private final int fetchMinBytes;
    private final int batchSize;
    private final List<String> targets;
    private final List<String> brokerJvm;
    private final long primeNanos;
    private final long maxPrimeNanos;
    private final long pauseNanos;
    private final String order;
    private final String json;

    private final String pinZilla;
    private final String pinOthers;
    private final String pinConsumer;

    private EmbeddedKafka kafka;
    private ZillaKafkaProxy zilla;
    private ZillaKafkaProxy zillaMetrics;
    private SocatRelay relay;
    private Admin admin;

    private KafkaProxyBench(Map<String, String> options)
    {
        this.modes = List.of(options.getOrDefault("mode", LATENCY + "," + MAX).split(","));
        this.rate = Double.parseDouble(options.getOrDefault("rate", "10000"));
        this.size = Integer.parseInt(options.getOrDefault("size", "1024"));
        this.partitions = Integer.parseInt(options.getOrDefault("partitions", "16"));
        this.warmupNanos = nanos(options.getOrDefault("warmup", "10"));
        this.durationNanos = nanos(options.getOrDefault("duration", "30"));
        this.rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
        this.maxWarmupNanos = nanos(options.getOrDefault("max-warmup", "5"));
        this.maxDurationNanos = nanos(options.getOrDefault("max-duration", "20"));
        this.maxRounds = Integer.parseInt(options.getOrDefault("max-rounds", "2"));
        this.workers = Integer.parseInt(options.getOrDefault("workers", "1"));
        this.lingerMs = Integer.parseInt(options.getOrDefault("linger-ms", "1"));
        this.batchSize = Integer.parseInt(options.getOrDefault("batch-size", "16384"));
        this.fetchMinBytes = Integer.parseInt(options.getOrDefault("fetch-min-bytes", "1"));
        this.targets = List.of(options.getOrDefault("targets", DIRECT + "," + ZILLA).split(","));
        this.brokerJvm = List.of(options.getOrDefault("broker-jvm",
            "-Xms1g,-Xmx1g,-XX:+UseG1GC,-XX:MaxGCPauseMillis=20").split(","));
        this.primeNanos = nanos(options.getOrDefault("prime", "15"));
        this.maxPrimeNanos = nanos(options.getOrDefault("max-prime", "20"));
        this.pauseNanos = nanos(options.getOrDefault("pause", "3"));
        this.order = options.getOrDefault("order", "abab");
        if (!"abab".equals(order) && !"abba".equals(order))
        {
            throw new IllegalArgumentException("--order abab or abba, not " + order);
        }
        this.json = options.get("json");
        this.pinZilla = options.get("pin-zilla");
        this.pinOthers = options.get("pin-others");
        if ((pinZilla == null) != (pinOthers == null))
        {
            throw new IllegalArgumentException("--pin-zilla and --pin-others go together (taskset cpu lists, e.g. 1 and 0)");
        }
        this.pinConsumer = options.get("pin-consumer");
        if (pinConsumer != null && pinZilla == null)
        {
            throw new IllegalArgumentException("--pin-consumer goes with --pin-zilla and --pin-others");
        }
    }

    public static void main(String[] args) throws Exception
    {
        final KafkaProxyBench bench = of(args);
        final List<Run> runs = bench.run();
        final boolean failed = runs.stream().anyMatch(r -> r.errors > 0);
        System.exit(failed ? 1 : 0);
    }

    /** A benchmark with these arguments, ready to {@link #run()}. */
    static KafkaProxyBench of(String... args)
    {
        ThreadStats.enable();
        return new KafkaProxyBench(BenchArgs.parse(args));
    }

    /** Starts the broker and zilla, runs every round, prints each run and the summary; returns the runs. */
    List<Run> run() throws Exception
    {
        System.out.printf(Locale.ROOT, "kafka proxy: modes %s; latency: %,.0f msg/s of %d B, warmup %.1f s, measured "
            + "%.1f s, %d round(s); max: warmup %.1f s, measured %.1f s, %d round(s); %d partitions, linger.ms %d, "
            + "batch.size %d, fetch.min.bytes %d; prime %.1f s, max prime %.1f s, pause %.1f s, order %s; "
            + "zilla %d worker(s), ring %d KiB; %s %s, %d cores; JVM options %s; broker JVM %s%n",
            modes, rate, size, warmupNanos / 1e9, durationNanos / 1e9, rounds, maxWarmupNanos / 1e9,
            maxDurationNanos / 1e9, maxRounds, partitions, lingerMs, batchSize, fetchMinBytes, primeNanos / 1e9,
            maxPrimeNanos / 1e9,
            pauseNanos / 1e9, order, workers,
            new EngineConfiguration().ringCapacity() / 1024, System.getProperty("java.vm.name"),
            System.getProperty("java.runtime.version"), Runtime.getRuntime().availableProcessors(),
            ManagementFactory.getRuntimeMXBean().getInputArguments(), brokerJvm);
        final List<Run> runs = new ArrayList<>();
        try
        {
            // a deleted topic's files go at once (default: a minute later, in the middle of a later run)
            kafka = new EmbeddedKafka().jvmOptions(brokerJvm).property("file.delete.delay.ms", 0);
            if (targets.contains(RELAY))
            {
                relay = startRelay(kafka);
            }
            kafka.start();
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
            zilla = new ZillaKafkaProxy(kafka.bootstrapServers(), workers);
            if (targets.contains(ZILLA_METRICS))
            {
                zillaMetrics = new ZillaKafkaProxy(kafka.bootstrapServers(), workers, true);
                System.out.printf("zilla with every metric on %s%n", zillaMetrics.bootstrapServers());
            }
            System.out.printf("broker %s (pid %d), zilla %s%n", kafka.bootstrapServers(), kafka.process().pid(),
                zilla.bootstrapServers());
            if (pinZilla != null)
            {
                CpuPinning.pin(pinZilla, pinOthers, kafka.process());
                System.out.printf("zilla's workers pinned to cpu %s, the broker and the clients to cpu %s%s%n", pinZilla,
                    pinOthers, pinConsumer != null ? ", but the consumer to cpu " + pinConsumer : "");
            }
            if (modes.contains(LATENCY))
            {
                prime(LATENCY, primeNanos);
                runMode(LATENCY, rounds, runs);
            }
            if (modes.contains(MAX))
            {
                prime(MAX, maxPrimeNanos);
                runMode(MAX, maxRounds, runs);
            }
        }
        finally
        {
            if (admin != null)
            {
                admin.close(Duration.ofSeconds(10));
            }
            if (zilla != null)
            {
                zilla.close();
            }
            if (zillaMetrics != null)
            {
                zillaMetrics.close();
            }
            if (relay != null)
            {
                relay.close();
            }
            if (kafka != null)
            {
                kafka.close();
            }
        }
        final Summary summary = summarize(runs);
        if (json != null)
        {
            writeJson(Path.of(json), runs, summary);
        }
        return runs;
    }

    // the broker gets a RELAY listener that advertises socat's port, so clients bootstrapped there stay on socat
    private SocatRelay startRelay(EmbeddedKafka broker) throws IOException
    {
        final int port = ZillaKafkaProxy.freePort();
        final int controllerPort = ZillaKafkaProxy.freePort();
        final int relayListenerPort = ZillaKafkaProxy.freePort();
        final int relayPort = ZillaKafkaProxy.freePort();
        broker.port(port).controllerPort(controllerPort)
            .property("listeners", "PLAINTEXT://127.0.0.1:" + port + ",RELAY://127.0.0.1:" + relayListenerPort
                + ",CONTROLLER://127.0.0.1:" + controllerPort)
            .property("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port + ",RELAY://127.0.0.1:" + relayPort)
            .property("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,RELAY:PLAINTEXT");
        return new SocatRelay(relayPort, relayListenerPort, pinZilla);
    }

    private void prime(String mode, long nanos) throws Exception
    {
        if (nanos > 0)
        {
            for (String target : targets)
            {
                System.out.printf(Locale.ROOT, "prime (not counted): %s%n", run(mode, -1, target, 0, nanos).format());
            }
        }
    }

    private void runMode(String mode, int count, List<Run> runs) throws Exception
    {
        for (int round = 0; round < count; round++)
        {
            final List<String> sequence = new ArrayList<>(targets);
            if ("abba".equals(order) && round % 2 == 1)
            {
                Collections.reverse(sequence);
            }
            for (String target : sequence)
            {
                final Run run = run(mode, round, target);
                System.out.println(run.format());
                runs.add(run);
            }
        }
    }

    private Run run(String mode, int round, String target) throws Exception
    {
        final boolean latency = LATENCY.equals(mode);
        return run(mode, round, target, latency ? warmupNanos : maxWarmupNanos, latency ? durationNanos : maxDurationNanos);
    }

    private Run run(String mode, int round, String target, long warmup, long duration) throws Exception
    {
        final boolean latency = LATENCY.equals(mode);
        final boolean proxied = ZILLA.equals(target) || ZILLA_METRICS.equals(target);
        // the other engine idles meanwhile: both carry its parked workers in their CPU figures (thread names alike)
        final ZillaKafkaProxy engine = ZILLA_METRICS.equals(target) ? zillaMetrics : zilla;
        final String topic = String.format(Locale.ROOT, "bench-%s-%d-%s-%d", mode, round, target,
            System.currentTimeMillis());
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
        final String bootstrap = proxied ? engine.bootstrapServers()
            : RELAY.equals(target) ? relay.bootstrapServers() : kafka.bootstrapServers();

        try (BenchLoad load = new BenchLoad(bootstrap, topic, partitions, size, latency ? rate : 0, lingerMs, batchSize,
            fetchMinBytes).pinConsumer(pinConsumer))
        {
            load.start(warmup, duration);
            parkUntil(load.windowStart());
            final Snapshot before = snapshot(load, engine);
            final long relayCpuBefore = RELAY.equals(target) ? relay.cpuNanos() : 0L;
            parkUntil(load.windowEnd());
            final Snapshot after = snapshot(load, engine);
            // socat forks a child per connection: count them while the clients are still connected
            final long relayCpu = RELAY.equals(target) ? relay.cpuNanos() - relayCpuBefore : 0L;
            load.stop();
            load.close();
            final Throwable error = load.firstError();
            if (RELAY.equals(target))
            {
                final double bytes = (double) ((after.acked - before.acked) + (after.consumed - before.consumed)) * size;
                System.out.printf(Locale.ROOT, "socat CPU %.0f%% of a core, %.3f s/GB%n",
                    100.0 * relayCpu / (after.nanos - before.nanos), relayCpu / bytes);
            }
            return new Run(mode, round, target, topic, size, after.nanos - before.nanos, after.sent - before.sent,
                after.acked - before.acked, after.consumed - before.consumed, load.errors(),
                error != null ? error.toString() : null, load.publish(), load.publishFromIntended(), load.endToEnd(),
                load.endToEndFromIntended(), proxied ? after.workers.minus(before.workers) : ThreadStats.NONE,
                proxied ? after.north.minus(before.north) : TcpTraffic.NONE,
                proxied ? after.south.minus(before.south) : TcpTraffic.NONE,
                after.brokerCpuNanos - before.brokerCpuNanos,
                // zilla runs through the direct runs too (idle, or spinning when told to): its workers are never the clients'
                after.clients.minus(before.clients).withoutWorkers(after.workers.minus(before.workers).cpuNanos()),
                after.gcs - before.gcs, after.steal.percentSince(before.steal), after.cores.percentSince(before.cores));
        }
        finally
        {
            admin.deleteTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
            parkUntil(System.nanoTime() + pauseNanos);
        }
    }

    private Snapshot snapshot(BenchLoad load, ZillaKafkaProxy proxy)
    {
        final long nanos = System.nanoTime();
        final ThreadStats workerStats = ThreadStats.of(ZillaKafkaProxy.WORKER_THREAD_PREFIX);
        final long sent = load.sent();
        final long acked = load.acked();
        final long consumed = load.consumed();
        final TcpTraffic north = proxy.tcpTraffic(ZillaKafkaProxy.NORTH);
        final TcpTraffic south = proxy.tcpTraffic(ZillaKafkaProxy.SOUTH);
        final long brokerCpu = kafka.process().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
        final ClientStats clients = ClientStats.now(load.producerClientId(), load.consumerClientId());
        return new Snapshot(nanos, workerStats, sent, acked, consumed, north, south, brokerCpu, clients, gcCount(),
            CpuSteal.now(), CoreBusy.now());
    }

    private Summary summarize(List<Run> runs)
    {
        final Map<String, Total> totals = new LinkedHashMap<>();
        for (Run run : runs)
        {
            totals.computeIfAbsent(run.mode + "/" + run.target, k -> new Total()).add(run);
        }
        final Summary summary = new Summary(totals, new LinkedHashMap<>());
        if (modes.contains(LATENCY))
        {
            final Total direct = totals.get(LATENCY + "/" + DIRECT);
            final Total proxied = totals.get(LATENCY + "/" + ZILLA);
            System.out.println();
            System.out.printf(Locale.ROOT, "latency mode, %,.0f msg/s of %d B, %d partitions, %d round(s) of %.0f s "
                + "measured per target (ms, 3 decimals):%n", rate, size, partitions, rounds, durationNanos / 1e9);
            header();
            row("sent (msg/s)", direct, proxied, Total::sentRate, "%,.0f");
            row("achieved rate, acknowledged (msg/s)", direct, proxied, Total::ackedRate, "%,.0f");
            row("achieved rate, consumed (msg/s)", direct, proxied, Total::consumedRate, "%,.0f");
            row("slowest round, acknowledged (msg/s)", direct, proxied, t -> t.slowest, "%,.0f");
            percentiles("publish", direct, proxied, t -> t.publish);
            percentiles("publish from intended send", direct, proxied, t -> t.publishFromIntended);
            percentiles("end-to-end", direct, proxied, t -> t.endToEnd);
            percentiles("end-to-end from intended send", direct, proxied, t -> t.endToEndFromIntended);
            zillaRows(direct, proxied);
            if (direct != null && proxied != null)
            {
                final double p50Delta = ms(proxied.publish, 50) - ms(direct.publish, 50);
                final double p99Ratio = ms(proxied.publish, 99) / ms(direct.publish, 99);
                final double alloc = proxied.allocatedPerMessage();
                summary.targets.put("publish_p50_delta_ms", p50Delta);
                summary.targets.put("publish_p99_ratio", p99Ratio);
                summary.targets.put("zilla_allocated_bytes_per_message", alloc);
                System.out.println();
                System.out.println("targets (issue 4):");
                target("publish p50, zilla - direct", String.format(Locale.ROOT, "%+.3f ms", p50Delta),
                    String.format(Locale.ROOT, "<= +%.3f ms", TARGET_P50_DELTA_MS), p50Delta <= TARGET_P50_DELTA_MS);
                target("publish p99, zilla / direct", String.format(Locale.ROOT, "%.3f", p99Ratio),
                    String.format(Locale.ROOT, "<= %.2f", TARGET_P99_RATIO), p99Ratio <= TARGET_P99_RATIO);
                report(summary, "publish_p50_round_delta_ms", "publish p50, per round (mean)",
                    PairedDifference.of(roundPairs(runs, LATENCY, PUBLISH_P50_MS, DIFFERENCE)));
                report(summary, "publish_p99_round_ratio", "publish p99, per round (geometric)",
                    PairedRatio.of(roundPairs(runs, LATENCY, PUBLISH_P99_MS, RATIO)));
                target("zilla worker allocation per message", String.format(Locale.ROOT, "%.4f B", alloc), "0 B",
                    alloc < 0.5);
            }
            if (targets.contains(RELAY))
            {
                relayRounds(runs, LATENCY, summary);
            }
            if (targets.contains(ZILLA_METRICS))
            {
                metricsRounds(runs, LATENCY, totals, summary);
            }
        }
        if (modes.contains(MAX))
        {
            final Total direct = totals.get(MAX + "/" + DIRECT);
            final Total proxied = totals.get(MAX + "/" + ZILLA);
            System.out.println();
            System.out.printf(Locale.ROOT, "max mode, producer unthrottled, %d B, %d partitions, %d round(s) of %.0f s "
                + "measured per target:%n", size, partitions, maxRounds, maxDurationNanos / 1e9);
            header();
            row("produced, acknowledged (msg/s)", direct, proxied, Total::ackedRate, "%,.0f");
            row("produced, acknowledged (MB/s)", direct, proxied, t -> t.ackedRate() * size / 1e6, "%,.1f");
            row("consumed (msg/s)", direct, proxied, Total::consumedRate, "%,.0f");
            row("consumed (MB/s)", direct, proxied, t -> t.consumedRate() * size / 1e6, "%,.1f");
            row("slowest round, acknowledged (msg/s)", direct, proxied, t -> t.slowest, "%,.0f");
            row("fastest round, acknowledged (msg/s)", direct, proxied, t -> t.fastest, "%,.0f");
            percentiles("publish", direct, proxied, t -> t.publish);
            percentiles("end-to-end", direct, proxied, t -> t.endToEnd);
            zillaRows(direct, proxied);
            if (direct != null && proxied != null)
            {
                final double ratio = proxied.ackedRate() / direct.ackedRate();
                final double alloc = proxied.allocatedPerMessage();
                summary.targets.put("max_throughput_ratio", ratio);
                summary.targets.put("max_zilla_allocated_bytes_per_message", alloc);
                System.out.println();
                System.out.println("targets (issue 4):");
                target("max throughput, zilla / direct", String.format(Locale.ROOT, "%.3f", ratio),
                    String.format(Locale.ROOT, ">= %.2f", TARGET_MAX_RATIO), ratio >= TARGET_MAX_RATIO);
                report(summary, "max_throughput_round_ratio", "max throughput, per round (geometric)",
                    PairedRatio.of(roundPairs(runs, MAX, Run::ackedRate, RATIO)));
                target("zilla worker allocation per message", String.format(Locale.ROOT, "%.4f B", alloc), "0 B",
                    alloc < 0.5);
            }
            if (targets.contains(RELAY))
            {
                relayRounds(runs, MAX, summary);
            }
            if (targets.contains(ZILLA_METRICS))
            {
                metricsRounds(runs, MAX, totals, summary);
            }
        }
        return summary;
    }

    // the reference hop against direct, and zilla against the reference hop, in the same rounds: what any hop costs
    // on this host, told apart from what zilla's costs
    private static void relayRounds(List<Run> runs, String mode, Summary summary)
    {
        System.out.println("the plain relay (socat) in the same rounds:");
        pairedRounds(runs, mode, RELAY, DIRECT, "socat_", summary);
        pairedRounds(runs, mode, ZILLA, RELAY, "zilla_vs_socat_", summary);
    }

    // every metric on against none, the same graph in the same rounds (issue 25's target: >= 0.97x, 0 B per message)
    private static void metricsRounds(List<Run> runs, String mode, Map<String, Total> totals, Summary summary)
    {
        final Total off = totals.get(mode + "/" + ZILLA);
        final Total on = totals.get(mode + "/" + ZILLA_METRICS);
        if (off != null && on != null)
        {
            System.out.println("every metric on (zilla-metrics) against none (zilla), in the same rounds:");
            System.out.println("| | zilla | zilla-metrics | on / off |");
            System.out.println("|---|---:|---:|---:|");
            row("produced, acknowledged (msg/s)", off, on, Total::ackedRate, "%,.0f");
            row("publish p50 (ms)", off, on, t -> ms(t.publish, 50), "%.3f");
            row("publish p99 (ms)", off, on, t -> ms(t.publish, 99), "%.3f");
            row("end-to-end p50 (ms)", off, on, t -> ms(t.endToEnd, 50), "%.3f");
            row("zilla CPU per message proxied (µs)", off, on, t -> t.workers.cpuNanos() / 1e3 / t.proxiedMessages(),
                "%.2f");
            row("zilla allocation per message proxied (B)", off, on, Total::allocatedPerMessage, "%.4f");
            row("host CPU steal, highest round (%)", off, on, t -> t.highestSteal, "%.1f");
            final double alloc = on.allocatedPerMessage();
            summary.targets.put("metrics_" + mode + "_allocated_bytes_per_message", alloc);
            if (MAX.equals(mode))
            {
                final double ratio = on.ackedRate() / off.ackedRate();
                summary.targets.put("metrics_max_throughput_ratio", ratio);
                target("max throughput, metrics on / off", String.format(Locale.ROOT, "%.3f", ratio),
                    String.format(Locale.ROOT, ">= %.2f", TARGET_METRICS_RATIO), ratio >= TARGET_METRICS_RATIO);
            }
            pairedRounds(runs, mode, ZILLA_METRICS, ZILLA, "metrics_", summary);
            target("zilla worker allocation per message, metrics on", String.format(Locale.ROOT, "%.4f B", alloc), "0 B",
                alloc < 0.5);
        }
    }

    private static void pairedRounds(List<Run> runs, String mode, String hop, String reference, String key,
        Summary summary)
    {
        if (LATENCY.equals(mode))
        {
            report(summary, key + "publish_p50_round_delta_ms", "publish p50, " + hop + " - " + reference + ", per round",
                PairedDifference.of(roundPairs(runs, mode, hop, reference, PUBLISH_P50_MS, DIFFERENCE)));
            report(summary, key + "publish_p99_round_ratio", "publish p99, " + hop + " / " + reference + ", per round",
                PairedRatio.of(roundPairs(runs, mode, hop, reference, PUBLISH_P99_MS, RATIO)));
        }
        else
        {
            report(summary, key + "max_throughput_round_ratio",
                "max throughput, " + hop + " / " + reference + ", per round",
                PairedRatio.of(roundPairs(runs, mode, hop, reference, Run::ackedRate, RATIO)));
        }
    }

    // one per-round figure under the targets, and in the --json summary as <key>_mean, <key>_low and <key>_high
    private static void report(Summary summary, String key, String label, PairedDifference rounds)
    {
        putInterval(summary, key, rounds.mean(), rounds.low(), rounds.high());
        System.out.printf(Locale.ROOT, "  %-40s %+9.3f ms  95%% confidence %+.3f - %+.3f over %d round(s)%n", label,
            rounds.mean(), rounds.low(), rounds.high(), rounds.rounds());
    }

    private static void report(Summary summary, String key, String label, PairedRatio rounds)
    {
        putInterval(summary, key, rounds.mean(), rounds.low(), rounds.high());
        System.out.printf(Locale.ROOT, "  %-40s %12.3f  95%% confidence %.3f - %.3f over %d round(s)%n", label,
            rounds.mean(), rounds.low(), rounds.high(), rounds.rounds());
    }

    private static void putInterval(Summary summary, String key, double mean, double low, double high)
    {
        summary.targets.put(key + "_mean", mean);
        summary.targets.put(key + "_low", low);
        summary.targets.put(key + "_high", high);
    }

    /**
     * zilla's figure against direct's in each round of a mode that ran both: {@code compare} gets zilla's and
     * direct's, in that order, both positive.
     */
    private static List<Double> roundPairs(List<Run> runs, String mode, ToDoubleFunction<Run> figure,
        DoubleBinaryOperator compare)
    {
        return roundPairs(runs, mode, ZILLA, DIRECT, figure, compare);
    }

    // each round's figure of the hop against the reference's in the same round
    private static List<Double> roundPairs(List<Run> runs, String mode, String hop, String reference,
        ToDoubleFunction<Run> figure, DoubleBinaryOperator compare)
    {
        final Map<Integer, Run> references = new LinkedHashMap<>();
        final Map<Integer, Run> hops = new LinkedHashMap<>();
        for (Run run : runs)
        {
            if (run.mode.equals(mode) && run.nanos > 0)
            {
                if (reference.equals(run.target))
                {
                    references.put(run.round, run);
                }
                else if (hop.equals(run.target))
                {
                    hops.put(run.round, run);
                }
            }
        }
        final List<Double> pairs = new ArrayList<>();
        references.forEach((round, referenceRun) ->
        {
            final Run hopRun = hops.get(round);
            final double hopFigure = hopRun != null ? figure.applyAsDouble(hopRun) : 0.0;
            final double referenceFigure = figure.applyAsDouble(referenceRun);
            // a run that moved nothing (no rate, no latencies) has nothing to compare
            if (hopFigure > 0 && referenceFigure > 0)
            {
                pairs.add(compare.applyAsDouble(hopFigure, referenceFigure));
            }
        });
        return pairs;
    }

    private void zillaRows(Total direct, Total proxied)
    {
        row("zilla workers' CPU (% of a core)", direct, proxied, t -> 100.0 * t.workers.cpuNanos() / t.nanos, "%.1f");
        row("zilla CPU seconds per GB proxied", direct, proxied, Total::cpuSecondsPerGigabyte, "%.3f");
        row("zilla CPU per message proxied (µs)", direct, proxied, t -> t.workers.cpuNanos() / 1e3 / t.proxiedMessages(),
            "%.2f");
        row("zilla allocation per message proxied (B)", direct, proxied, Total::allocatedPerMessage, "%.4f");
        row("zilla allocation while measuring (B)", direct, proxied, t -> (double) t.workers.allocated(), "%,.0f");
        row("zilla tcp bytes per message, client side", direct, proxied,
            t -> (double) t.north.bytes() / t.proxiedMessages(), "%,.1f");
        row("zilla tcp bytes per message, broker side", direct, proxied,
            t -> (double) t.south.bytes() / t.proxiedMessages(), "%,.1f");
        row("zilla bytes per socket read, client side", direct, proxied, t -> t.north.bytesPerRead(), "%,.0f");
        row("zilla bytes per socket write, client side", direct, proxied, t -> t.north.bytesPerWrite(), "%,.0f");
        row("zilla bytes per socket read, broker side", direct, proxied, t -> t.south.bytesPerRead(), "%,.0f");
        row("zilla bytes per socket write, broker side", direct, proxied, t -> t.south.bytesPerWrite(), "%,.0f");
        row("broker CPU (% of a core)", direct, proxied, t -> 100.0 * t.brokerCpuNanos / t.nanos, "%.1f");
        row("broker CPU per message (µs)", direct, proxied, t -> t.brokerCpuNanos / 1e3 / t.acked, "%.2f");
        row("clients' CPU, the bench JVM but zilla (% of a core)", direct, proxied,
            t -> 100.0 * t.clients.cpuNanos() / t.nanos, "%.1f");
        row("clients' CPU per message (µs)", direct, proxied, t -> t.clients.cpuNanos() / 1e3 / t.acked, "%.2f");
        row("records per produce request", direct, proxied, t -> (double) t.acked / t.clients.produceRequests(), "%,.1f");
        row("records per fetch", direct, proxied, t -> (double) t.consumed / t.clients.fetches(), "%,.1f");
        row("GCs while measuring (bench JVM)", direct, proxied, t -> (double) t.gcs, "%.0f");
        row("host CPU steal, highest round (%)", direct, proxied, t -> t.highestSteal, "%.1f");
        row("errors", direct, proxied, t -> (double) t.errors, "%.0f");
    }

    private static void header()
    {
        System.out.println("| | direct | zilla | zilla / direct |");
        System.out.println("|---|---:|---:|---:|");
    }

    private static void percentiles(String name, Total direct, Total proxied, Function<Total, Histogram> histogram)
    {
        for (double percentile : new double[] {50, 99, 99.9})
        {
            row(String.format(Locale.ROOT, "%s p%s (ms)", name, percentile == 99.9 ? "99.9" : (int) percentile), direct,
                proxied, t -> ms(histogram.apply(t), percentile), "%.3f");
        }
        row(name + " max (ms)", direct, proxied, t -> histogram.apply(t).getMaxValue() / 1e6, "%.3f");
    }

    private static void row(String name, Total direct, Total proxied, ToDoubleFunction<Total> metric, String format)
    {
        final String d = direct != null ? String.format(Locale.ROOT, format, metric.applyAsDouble(direct)) : "-";
        final String z = proxied != null ? String.format(Locale.ROOT, format, metric.applyAsDouble(proxied)) : "-";
        String ratio = "-";
        if (direct != null && proxied != null && metric.applyAsDouble(direct) != 0)
        {
            ratio = String.format(Locale.ROOT, "%.3f", metric.applyAsDouble(proxied) / metric.applyAsDouble(direct));
        }
        System.out.printf("| %s | %s | %s | %s |%n", name, d, z, ratio);
    }

    private static void target(String name, String value, String goal, boolean met)
    {
        System.out.printf(Locale.ROOT, "  %-40s %12s  target %-10s %s%n", name, value, goal, met ? "met" : "NOT MET");
    }

    private void writeJson(Path path, List<Run> runs, Summary summary) throws IOException
    {
        final StringBuilder out = new StringBuilder();
        out.append("{\n  \"benchmark\": \"kafka-proxy\",\n");
        out.append("  \"time\": \"").append(Instant.now()).append("\",\n");
        out.append(String.format(Locale.ROOT, "  \"config\": {\"modes\": \"%s\", \"rate\": %.0f, \"size\": %d, "
            + "\"partitions\": %d, \"warmup_s\": %.1f, \"duration_s\": %.1f, \"rounds\": %d, \"max_warmup_s\": %.1f, "
            + "\"max_duration_s\": %.1f, \"max_rounds\": %d, \"workers\": %d, \"linger_ms\": %d, \"batch_size\": %d, "
            + "\"fetch_min_bytes\": %d, \"cores\": %d, \"java\": \"%s\", \"jvm_options\": \"%s\", \"broker_jvm\": \"%s\"},\n",
            String.join(",", modes), rate, size, partitions, warmupNanos / 1e9, durationNanos / 1e9, rounds,
            maxWarmupNanos / 1e9, maxDurationNanos / 1e9, maxRounds, workers, lingerMs, batchSize, fetchMinBytes,
            Runtime.getRuntime().availableProcessors(), System.getProperty("java.runtime.version"),
            escape(String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments())),
            escape(String.join(" ", brokerJvm))));
        out.append("  \"runs\": [\n");
        for (int i = 0; i < runs.size(); i++)
        {
            final Run run = runs.get(i);
            final Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("mode", run.mode);
            fields.put("round", run.round);
            fields.put("target", run.target);
            putMetrics(fields, run.toTotal(), size);
            for (int core = 0; core < run.coreBusyPercent.length; core++)
            {
                fields.put("core_" + core + "_busy_percent", run.coreBusyPercent[core]);
            }
            fields.put("first_error", run.firstError);
            out.append("    ").append(object(fields)).append(i + 1 < runs.size() ? ",\n" : "\n");
        }
        out.append("  ],\n  \"totals\": {\n");
        int index = 0;
        for (Map.Entry<String, Total> entry : summary.totals.entrySet())
        {
            final Map<String, Object> fields = new LinkedHashMap<>();
            putMetrics(fields, entry.getValue(), size);
            out.append("    \"").append(entry.getKey()).append("\": ").append(object(fields))
                .append(++index < summary.totals.size() ? ",\n" : "\n");
        }
        out.append("  },\n  \"targets\": ").append(object(new LinkedHashMap<>(summary.targets))).append("\n}\n");
        if (path.getParent() != null)
        {
            Files.createDirectories(path.getParent());
        }
        Files.writeString(path, out);
        System.out.println("wrote " + path.toAbsolutePath());
    }

    private static void putMetrics(Map<String, Object> fields, Total t, int size)
    {
        fields.put("measured_s", t.nanos / 1e9);
        fields.put("sent_per_s", t.sentRate());
        fields.put("acked_per_s", t.ackedRate());
        fields.put("consumed_per_s", t.consumedRate());
        fields.put("acked_mb_per_s", t.ackedRate() * size / 1e6);
        fields.put("consumed_mb_per_s", t.consumedRate() * size / 1e6);
        putPercentiles(fields, "publish", t.publish);
        putPercentiles(fields, "publish_from_intended", t.publishFromIntended);
        putPercentiles(fields, "end_to_end", t.endToEnd);
        putPercentiles(fields, "end_to_end_from_intended", t.endToEndFromIntended);
        fields.put("zilla_cpu_s", t.workers.cpuNanos() / 1e9);
        fields.put("zilla_cpu_s_per_gb", t.cpuSecondsPerGigabyte());
        fields.put("zilla_allocated_bytes", t.workers.allocated());
        fields.put("zilla_allocated_bytes_per_message", t.allocatedPerMessage());
        fields.put("zilla_client_side_tcp_bytes", t.north.bytes());
        fields.put("zilla_broker_side_tcp_bytes", t.south.bytes());
        fields.put("zilla_client_side_socket_reads", t.north.reads());
        fields.put("zilla_client_side_socket_writes", t.north.writes());
        fields.put("zilla_broker_side_socket_reads", t.south.reads());
        fields.put("zilla_broker_side_socket_writes", t.south.writes());
        fields.put("broker_cpu_s", t.brokerCpuNanos / 1e9);
        fields.put("client_cpu_s", t.clients.cpuNanos() / 1e9);
        fields.put("produce_requests", t.clients.produceRequests());
        fields.put("fetches", t.clients.fetches());
        fields.put("gcs", t.gcs);
        fields.put("host_cpu_steal_highest_round_percent", t.highestSteal);
        fields.put("errors", t.errors);
    }

    private static void putPercentiles(Map<String, Object> fields, String name, Histogram histogram)
    {
        fields.put(name + "_count", histogram.getTotalCount());
        fields.put(name + "_p50_ms", ms(histogram, 50));
        fields.put(name + "_p99_ms", ms(histogram, 99));
        fields.put(name + "_p99_9_ms", ms(histogram, 99.9));
        fields.put(name + "_max_ms", histogram.getMaxValue() / 1e6);
    }

    private static String object(Map<String, Object> fields)
    {
        final StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, Object> entry : fields.entrySet())
        {
            if (out.length() > 1)
            {
                out.append(", ");
            }
            out.append('"').append(entry.getKey()).append("\": ");
            final Object value = entry.getValue();
            if (value == null)
            {
                out.append("null");
            }
            else if (value instanceof Double d)
            {
                out.append(d.isNaN() || d.isInfinite() ? "null" : String.format(Locale.ROOT, "%.6f", d));
            }
            else if (value instanceof Number)
            {
                out.append(value);
            }
            else
            {
                out.append('"').append(escape(value.toString())).append('"');
            }
        }
        return out.append('}').toString();
    }

    private static String escape(String text)
    {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static double ms(Histogram histogram, double percentile)
    {
        return histogram.getTotalCount() > 0 ? histogram.getValueAtPercentile(percentile) / 1e6 : Double.NaN;
    }

    private static void parkUntil(long deadline)
    {
        for (long now = System.nanoTime(); now < deadline; now = System.nanoTime())
        {
            LockSupport.parkNanos(deadline - now);
        }
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

    private static long nanos(String seconds)
    {
        return Math.round(Double.parseDouble(seconds) * 1e9);
    }

    /** What was counted at one instant of a run. */
    private record Snapshot(long nanos, ThreadStats workers, long sent, long acked, long consumed, TcpTraffic north,
        TcpTraffic south, long brokerCpuNanos, ClientStats clients, long gcs, CpuSteal steal, CoreBusy cores)
    {
    }

    /** The totals by {@code mode/target}, and the figures checked against the targets. */
    private record Summary(Map<String, Total> totals, Map<String, Object> targets)
    {
    }

    /** One run: one target, one mode, one round, with a fresh topic, producer and consumer. */
    record Run(String mode, int round, String target, String topic, int size, long nanos, long sent, long acked, long consumed,
        long errors, String firstError, Histogram publish, Histogram publishFromIntended, Histogram endToEnd,
        Histogram endToEndFromIntended, ThreadStats workers, TcpTraffic north, TcpTraffic south, long brokerCpuNanos,
        ClientStats clients,
        long gcs, double stealPercent, double[] coreBusyPercent)
    {
        /** Acknowledged messages per second while measuring. */
        double ackedRate()
        {
            return acked * 1e9 / nanos;
        }

        Total toTotal()
        {
            final Total total = new Total();
            total.add(this);
            return total;
        }

        String format()
        {
            final Total t = toTotal();
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "%-7s round %d %-6s: acked %,8.0f msg/s (%6.1f MB/s) consumed %,8.0f msg/s  publish p50 %.3f p99 %.3f "
                + "p99.9 %.3f ms (from intended p99 %.3f)  e2e p50 %.3f p99 %.3f p99.9 %.3f ms  broker CPU %.0f%%  "
                + "records per fetch %.0f  GCs %d  errors %d  host CPU steal %.1f%%",
                mode, round, target, t.ackedRate(), t.ackedRate() * size / 1e6, t.consumedRate(),
                ms(publish, 50), ms(publish, 99), ms(publish, 99.9), ms(publishFromIntended, 99), ms(endToEnd, 50),
                ms(endToEnd, 99), ms(endToEnd, 99.9), 100.0 * brokerCpuNanos / nanos,
                clients.fetches() > 0 ? (double) consumed / clients.fetches() : 0.0, gcs, errors, stealPercent));
            if (coreBusyPercent.length > 0)
            {
                line.append("  cores busy");
                for (double percent : coreBusyPercent)
                {
                    line.append(String.format(Locale.ROOT, " %.0f%%", percent));
                }
            }
            if (ZILLA.equals(target))
            {
                line.append(String.format(Locale.ROOT, "  zilla CPU %.0f%% %.3f s/GB %.2f µs/msg, %.4f B/msg (%,d B)",
                    100.0 * workers.cpuNanos() / nanos, t.cpuSecondsPerGigabyte(),
                    workers.cpuNanos() / 1e3 / t.proxiedMessages(), t.allocatedPerMessage(), workers.allocated()));
            }
            if (firstError != null)
            {
                line.append("  first error: ").append(firstError);
            }
            return line.toString();
        }
    }

    /** Runs added up: rates over the measured time, histograms merged. */
    static final class Total
    {
        private final Histogram publish = new Histogram(3);
        private final Histogram publishFromIntended = new Histogram(3);
        private final Histogram endToEnd = new Histogram(3);
        private final Histogram endToEndFromIntended = new Histogram(3);
        private ThreadStats workers = ThreadStats.NONE;
        private int size;
        private long nanos;
        private long sent;
        private long acked;
        private long consumed;
        private long errors;
        private TcpTraffic north = TcpTraffic.NONE;
        private TcpTraffic south = TcpTraffic.NONE;
        private long brokerCpuNanos;
        private ClientStats clients = ClientStats.NONE;
        private double highestSteal;
        private long gcs;
        private double slowest = Double.MAX_VALUE;
        private double fastest;

        void add(Run run)
        {
            publish.add(run.publish);
            publishFromIntended.add(run.publishFromIntended);
            endToEnd.add(run.endToEnd);
            endToEndFromIntended.add(run.endToEndFromIntended);
            workers = workers.plus(run.workers);
            size = run.size;
            nanos += run.nanos;
            sent += run.sent;
            acked += run.acked;
            consumed += run.consumed;
            errors += run.errors;
            north = north.plus(run.north);
            south = south.plus(run.south);
            brokerCpuNanos += run.brokerCpuNanos;
            clients = clients.plus(run.clients);
            highestSteal = Double.isNaN(run.stealPercent) ? highestSteal : Math.max(highestSteal, run.stealPercent);
            gcs += run.gcs;
            final double runRate = run.ackedRate();
            slowest = Math.min(slowest, runRate);
            fastest = Math.max(fastest, runRate);
        }

        double sentRate()
        {
            return sent * 1e9 / nanos;
        }

        double ackedRate()
        {
            return acked * 1e9 / nanos;
        }

        double consumedRate()
        {
            return consumed * 1e9 / nanos;
        }

        long proxiedMessages()
        {
            return acked + consumed;
        }

        /** Payload bytes through the proxy while measuring: produced plus fetched. */
        double proxiedBytes()
        {
            return (double) proxiedMessages() * size;
        }

        /** CPU seconds of zilla's workers per 10^9 payload bytes proxied. */
        double cpuSecondsPerGigabyte()
        {
            return workers.cpuNanos() / 1e9 / (proxiedBytes() / 1e9);
        }

        double allocatedPerMessage()
        {
            return (double) workers.allocated() / proxiedMessages();
        }
    }

}
