/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.DEFAULT_PARTITION;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.management.ObjectName;

import io.zilla.bindings.kafka.test.KafkaMergedStreams;
import io.zilla.engine.test.CpuSteal;
import io.zilla.engine.test.ThreadStats;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The kafka cache fan-out benchmark (docs/benchmarks.md, "kafka cache fan-out"): in one JVM and one run, against one
 * embedded broker, N subscribers of one topic of 1 KiB records through zilla's kafka cache (MERGED FETCH_ONLY streams
 * to a cache_client on every worker, the topic fetched once by one worker's cache_server; {@link FanoutBenchDriver}
 * counts and returns credit at once) against one KafkaConsumer per subscriber ({@link FanoutConsumers}), the same
 * records from the same producer at the same fixed rate.
 * <p>
 * Per N ({@code --subscribers 1,100,10000}), each on a fresh topic of {@code --partitions} partitions: a produce-only
 * phase (no subscriber: what producing costs the broker), the cache phase with N subscribers spread over the workers,
 * then the kafka-clients phase with min(N, {@code --max-consumers}) consumers (10,000 KafkaConsumers, each with its
 * thread, its buffers and its connection, do not fit this machine). The topic gets one record per partition first;
 * every subscriber starts at the topic's beginning and has those records (so it reads every partition: a cache cursor
 * each, a fetch position each) before it counts as idle and before the measured records. {@link FixedRateProducer} then
 * sends at the phase's rate for {@code --warmup} plus {@code --duration} seconds; what is measured is the {@code
 * --duration} window: delivered records (all subscribers), the CPU time of zilla's worker threads or of the consumer
 * threads, the bytes they allocated (ThreadMXBean), the broker's CPU time (its process, /proc), steal. After the
 * producer's flush every subscriber must get every acknowledged record ({@code --drain} seconds at most).
 * <p>
 * The rate is {@code --rate}, or min({@code --max-rate}, {@code --deliveries} / N): the same demand, deliveries per
 * second, at every N beyond the smallest. Memory per idle subscriber: the heap live (a class histogram's total) plus
 * direct buffers, before and after opening the subscribers (for the cache, after one per worker is open: the topic's
 * own state is not a subscriber's), over their number. {@code --idle-pause S} waits S seconds with them idle, to look
 * at the process from outside.
 * <p>
 * Other arguments: {@code --size 1024}, {@code --workers 2}, {@code --baseline true}, {@code --bootstrap host:port}
 * (a broker already running; {@code --broker-pid} to read its CPU), {@code --broker-jvm=-Xms1g,...}, {@code --ready 180}
 * (seconds for the subscribers to open).
 */
public final class KafkaCacheFanoutBench
{
    static final String CACHE = "cache_client";
    static final String CONSUMERS = "kafka-clients";
    static final String PRODUCE_ONLY = "produce-only";

    private final List<Integer> subscribers;
    private final int partitions;
    private final int size;
    private final double fixedRate;
    private final double maxRate;
    private final double deliveries;
    private final int maxConsumers;
    private final int workers;
    private final long warmupNanos;
    private final long durationNanos;
    private final long drainNanos;
    private final long readyNanos;
    private final long idlePauseNanos;
    private final boolean baseline;
    private final String bootstrap;
    private final long brokerPid;
    private final List<String> brokerJvm;

    private final List<String> topics = new ArrayList<>();
    private EmbeddedKafka kafka;
    private ProcessHandle broker;
    private String brokers;
    private Admin admin;
    private ZillaKafkaCache zilla;

    private KafkaCacheFanoutBench(Map<String, String> options)
    {
        this.subscribers = List.of(options.getOrDefault("subscribers", "1,100,10000").split(",")).stream()
            .map(Integer::parseInt).toList();
        this.partitions = Integer.parseInt(options.getOrDefault("partitions", "8"));
        this.size = Integer.parseInt(options.getOrDefault("size", "1024"));
        this.fixedRate = Double.parseDouble(options.getOrDefault("rate", "0"));
        this.maxRate = Double.parseDouble(options.getOrDefault("max-rate", "5000"));
        this.deliveries = Double.parseDouble(options.getOrDefault("deliveries", "200000"));
        this.maxConsumers = Integer.parseInt(options.getOrDefault("max-consumers", "100"));
        this.workers = Integer.parseInt(options.getOrDefault("workers", "2"));
        this.warmupNanos = seconds(options.getOrDefault("warmup", "5"));
        this.durationNanos = seconds(options.getOrDefault("duration", "15"));
        this.drainNanos = seconds(options.getOrDefault("drain", "30"));
        this.readyNanos = seconds(options.getOrDefault("ready", "180"));
        this.idlePauseNanos = seconds(options.getOrDefault("idle-pause", "0"));
        this.baseline = Boolean.parseBoolean(options.getOrDefault("baseline", "true"));
        this.bootstrap = options.get("bootstrap");
        this.brokerPid = Long.parseLong(options.getOrDefault("broker-pid", "-1"));
        this.brokerJvm = List.of(options.getOrDefault("broker-jvm",
            "-Xms1g,-Xmx1g,-XX:+UseG1GC,-XX:MaxGCPauseMillis=20").split(","));
    }

    private static long seconds(String value)
    {
        return (long) (Double.parseDouble(value) * 1e9);
    }

    public static void main(String[] args) throws Exception
    {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka",
            System.getProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "warn"));
        final List<Phase> phases = of(args).run();
        System.exit(phases.stream().allMatch(Phase::complete) ? 0 : 1);
    }

    static KafkaCacheFanoutBench of(String... args)
    {
        ThreadStats.enable();
        return new KafkaCacheFanoutBench(BenchArgs.parse(args));
    }

    /** The rate of a phase with {@code n} subscribers, records/s. */
    double rate(int n)
    {
        return fixedRate > 0 ? fixedRate : Math.min(maxRate, deliveries / n);
    }

    List<Phase> run() throws Exception
    {
        System.out.printf(Locale.ROOT, "kafka cache fan-out: subscribers %s, %d partitions, %d B records, rate %s, "
            + "warm-up %.0f s, window %.0f s, KafkaConsumers at most %d; zilla %d workers (engine properties %s); %s %s, "
            + "%d cores; JVM options %s; load average %s%n", subscribers, partitions, size,
            fixedRate > 0 ? fixedRate + " records/s" : "min(" + maxRate + ", " + deliveries + " / N) records/s",
            warmupNanos / 1e9, durationNanos / 1e9, maxConsumers, workers, engineProperties(),
            System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
            Runtime.getRuntime().availableProcessors(), ManagementFactory.getRuntimeMXBean().getInputArguments(),
            loadAverage());
        final List<Phase> phases = new ArrayList<>();
        try
        {
            brokers = bootstrap;
            if (brokers == null)
            {
                kafka = new EmbeddedKafka().jvmOptions(brokerJvm).property("file.delete.delay.ms", 0);
                kafka.start();
                brokers = kafka.bootstrapServers();
                broker = kafka.process();
            }
            else if (brokerPid > 0)
            {
                broker = ProcessHandle.of(brokerPid).orElse(null);
            }
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers));
            zilla = new ZillaKafkaCache(brokers, workers);
            for (int n : subscribers)
            {
                final double rate = rate(n);
                if (baseline)
                {
                    phases.add(print(produceOnly(n, rate)));
                }
                phases.add(print(cache(n, rate)));
                if (maxConsumers > 0)
                {
                    phases.add(print(consumers(n, Math.min(n, maxConsumers), rate)));
                }
            }
        }
        finally
        {
            if (zilla != null)
            {
                zilla.close();
            }
            if (admin != null)
            {
                try
                {
                    if (!topics.isEmpty())
                    {
                        admin.deleteTopics(topics).all().get(60, TimeUnit.SECONDS);
                    }
                }
                finally
                {
                    admin.close(Duration.ofSeconds(10));
                }
            }
            if (kafka != null)
            {
                kafka.close();
            }
        }
        summarize(phases);
        System.out.printf("load average at the end: %s%n", loadAverage());
        return phases;
    }

    private Phase produceOnly(int n, double rate) throws Exception
    {
        final String topic = createTopic("fanout-none-" + n);
        return measure(PRODUCE_ONLY, n, 0, rate, topic, new Deliveries(() -> 0L, () -> 0L, () -> 0L, () -> null,
            KafkaCacheFanoutBench::workerThreads, this::zillaFetchRequests), null);
    }

    private Phase cache(int n, double rate) throws Exception
    {
        final String topic = createTopic("fanout-cache-" + n);
        final byte[] beginEx = KafkaMergedStreams.mergedBeginEx(topic, KafkaMergedCapabilities.FETCH_ONLY,
            Map.of(DEFAULT_PARTITION, EARLIEST), List.of(), KafkaAckMode.IN_SYNC_REPLICAS);
        final List<FanoutBenchDriver> drivers = zilla.drivers();
        final List<FanoutBenchDriver.Subscribers> groups = new ArrayList<>();
        final List<FanoutBenchDriver> owners = new ArrayList<>();
        // one subscriber per worker first: the topic's own state (its fetch, a worker's readers) is no subscriber's
        final int first = Math.min(n, workers);
        for (int w = 0; w < first; w++)
        {
            groups.add(drivers.get(w).subscribe(beginEx, 1));
            owners.add(drivers.get(w));
        }
        awaitBegun(groups, first);
        awaitRecords(() -> groups.stream().mapToLong(FanoutBenchDriver.Subscribers::records).sum(), first);
        final Memory before = n > first ? Memory.now() : null;
        final ThreadStats openBefore = workerThreads();
        final long openStart = System.nanoTime();
        for (int w = 0; w < workers; w++)
        {
            final int more = (n - first) / workers + (w < (n - first) % workers ? 1 : 0);
            if (more > 0)
            {
                groups.add(drivers.get(w).subscribe(beginEx, more));
                owners.add(drivers.get(w));
            }
        }
        awaitBegun(groups, n);
        awaitRecords(() -> groups.stream().mapToLong(FanoutBenchDriver.Subscribers::records).sum(), n);
        final double openSeconds = (System.nanoTime() - openStart) / 1e9;
        final ThreadStats opening = workerThreads().minus(openBefore);
        final Memory idle = before != null ? Memory.now().minus(before, n - first) : null;
        idlePause();
        System.out.printf(Locale.ROOT, "%,d cache subscribers open in %.2f s (the workers: %.2f CPU-s, %,d B allocated, "
            + "%,.0f B per subscriber)%s%n", n, openSeconds, opening.cpuNanos() / 1e9, opening.allocated(),
            n > first ? (double) opening.allocated() / (n - first) : Double.NaN, idle != null ? ", idle " + idle.format() : "");
        try
        {
            return measure(CACHE, n, n, rate, topic, new Deliveries(
                () -> groups.stream().mapToLong(FanoutBenchDriver.Subscribers::records).sum(),
                () -> groups.stream().mapToLong(FanoutBenchDriver.Subscribers::minRecords).min().orElse(0L),
                () -> groups.stream().mapToLong(FanoutBenchDriver.Subscribers::maxRecords).max().orElse(0L),
                () -> groups.stream().map(FanoutBenchDriver.Subscribers::error).filter(e -> e != null).findFirst()
                    .orElse(null),
                KafkaCacheFanoutBench::workerThreads, this::zillaFetchRequests), idle);
        }
        finally
        {
            final ThreadStats closeBefore = workerThreads();
            final long closeStart = System.nanoTime();
            for (int i = 0; i < groups.size(); i++)
            {
                owners.get(i).unsubscribe(groups.get(i));
            }
            final long deadline = System.nanoTime() + readyNanos;
            while (groups.stream().mapToInt(g -> g.closed() + g.failed()).sum() < n && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            final ThreadStats closing = workerThreads().minus(closeBefore);
            System.out.printf(Locale.ROOT, "%,d of %,d cache subscribers closed in %.2f s (the workers: %.2f CPU-s, %,d B "
                + "allocated)%n", groups.stream().mapToInt(FanoutBenchDriver.Subscribers::closed).sum(), n,
                (System.nanoTime() - closeStart) / 1e9, closing.cpuNanos() / 1e9, closing.allocated());
        }
    }

    private Phase consumers(int n, int count, double rate) throws Exception
    {
        final String topic = createTopic("fanout-consumers-" + n);
        final Memory before = Memory.now();
        final long openStart = System.nanoTime();
        try (FanoutConsumers consumers = new FanoutConsumers(brokers, topic, partitions, count))
        {
            final long deadline = System.nanoTime() + readyNanos;
            while ((consumers.ready() < count || consumers.records() < (long) count * partitions)
                && consumers.error() == null && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            if (consumers.ready() < count || consumers.records() < (long) count * partitions)
            {
                throw new IllegalStateException(consumers.ready() + " of " + count + " consumers ready, "
                    + consumers.records() + " records of the " + partitions + " each first, " + consumers.error());
            }
            final double openSeconds = (System.nanoTime() - openStart) / 1e9;
            final Memory idle = Memory.now().minus(before, count);
            idlePause();
            System.out.printf(Locale.ROOT, "%,d KafkaConsumers ready in %.2f s, idle %s%n", count, openSeconds,
                idle.format());
            return measure(CONSUMERS, n, count, rate, topic, new Deliveries(consumers::records, consumers::minRecords,
                consumers::maxRecords, consumers::error, FanoutConsumers::threads, consumers::fetchRequests), idle);
        }
    }

    // every subscriber has the records written before it opened (one per partition): it reads every partition, at its
    // end, with nothing to do until the next record
    private void awaitRecords(LongSupplier records, int subscribers) throws InterruptedException
    {
        final long target = (long) subscribers * partitions;
        final long deadline = System.nanoTime() + readyNanos;
        while (records.getAsLong() < target && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        if (records.getAsLong() < target)
        {
            throw new IllegalStateException(records.getAsLong() + " of the " + target + " records written before the "
                + "subscribers came, events " + zilla.events());
        }
    }

    private void awaitBegun(List<FanoutBenchDriver.Subscribers> groups, int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + readyNanos;
        while (System.nanoTime() < deadline)
        {
            final int begun = groups.stream().mapToInt(FanoutBenchDriver.Subscribers::begun).sum();
            final int failed = groups.stream().mapToInt(FanoutBenchDriver.Subscribers::failed).sum();
            if (failed > 0)
            {
                throw new IllegalStateException(failed + " subscribers failed: " + groups.stream()
                    .map(FanoutBenchDriver.Subscribers::error).filter(e -> e != null).findFirst().orElse("")
                    + ", events " + zilla.events());
            }
            if (begun >= count)
            {
                return;
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException(groups.stream().mapToInt(FanoutBenchDriver.Subscribers::begun).sum() + " of "
            + count + " subscribers begun (opened " + groups.stream().mapToInt(FanoutBenchDriver.Subscribers::opened).sum()
            + ") in time, events " + zilla.events());
    }

    /** What the subscribers of one phase received so far, and the threads whose CPU and allocation are theirs. */
    record Deliveries(LongSupplier records, LongSupplier min, LongSupplier max, Supplier<String> error,
        Supplier<ThreadStats> threads, LongSupplier fetchRequests)
    {
    }

    private Phase measure(String target, int n, int streams, double rate, String topic, Deliveries deliveries,
        Memory idle) throws Exception
    {
        final String loadStart = loadAverage();
        final FixedRateProducer producer = new FixedRateProducer(brokers, topic, partitions, size, rate,
            warmupNanos + durationNanos).start();
        while (producer.startNanos() == 0L && !producer.done())
        {
            Thread.sleep(1);
        }
        final long start = producer.startNanos();
        sleepUntil(start + warmupNanos);
        final Snapshot before = snapshot(producer, deliveries);
        final Instant from = Instant.now();
        sleepUntil(start + warmupNanos + durationNanos);
        final Snapshot after = snapshot(producer, deliveries);
        // wall-clock bounds of the window, to find it again in a flight recording
        System.out.printf("window %s to %s%n", from, Instant.now());
        producer.join();
        // and the records written before the subscribers came, one per partition
        final long acked = producer.acked() + partitions;
        final long expected = acked * streams;
        final long deadline = System.nanoTime() + drainNanos;
        while (deliveries.records().getAsLong() < expected && deliveries.error().get() == null
            && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        // a subscriber must not get more either: wait a little for any duplicate
        Thread.sleep(200);
        final ThreadStats window = after.threads.minus(before.threads);
        String error = producer.error() != null ? "producer: " + producer.error() : deliveries.error().get();
        final long delivered = deliveries.records().getAsLong();
        final long min = deliveries.min().getAsLong();
        final long max = deliveries.max().getAsLong();
        if (error == null && streams > 0 && (min != acked || max != acked))
        {
            error = String.format(Locale.ROOT, "a subscriber got %,d to %,d of the %,d records acknowledged", min, max,
                acked);
        }
        return new Phase(target, n, streams, rate, acked - partitions, after.sent - before.sent,
            (after.nanos - before.nanos) / 1e9, after.delivered - before.delivered, delivered, expected, window.cpuNanos(),
            window.allocated(),
            after.brokerCpuNanos - before.brokerCpuNanos, after.steal.percentSince(before.steal),
            after.fetchRequests - before.fetchRequests, idle, loadStart, loadAverage(), error);
    }

    private Snapshot snapshot(FixedRateProducer producer, Deliveries deliveries)
    {
        return new Snapshot(System.nanoTime(), producer.sent(), deliveries.records().getAsLong(),
            deliveries.threads().get(), brokerCpuNanos(), CpuSteal.now(), deliveries.fetchRequests().getAsLong());
    }

    private record Snapshot(long nanos, long sent, long delivered, ThreadStats threads, long brokerCpuNanos,
        CpuSteal steal, long fetchRequests)
    {
    }

    // the Fetch requests of zilla's kind client, the cache_server's exit: all of zilla's
    private long zillaFetchRequests()
    {
        return zilla.counter(ZillaKafkaCache.CLIENT, "fetch.requests");
    }

    private long brokerCpuNanos()
    {
        return broker != null ? broker.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L) : -1L;
    }

    private static ThreadStats workerThreads()
    {
        return ThreadStats.of(ZillaKafkaProxy.WORKER_THREAD_PREFIX);
    }

    private String createTopic(String prefix) throws Exception
    {
        final String topic = prefix + "-" + System.currentTimeMillis();
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
        topics.add(topic);
        // created means the controller has it: wait until the broker serves it too
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline)
        {
            try
            {
                if (admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic)
                    .partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()))
                {
                    break;
                }
            }
            catch (Exception ex)
            {
                // not yet
            }
            Thread.sleep(50);
        }
        // one record per partition first: a subscriber reads each partition from its first record, and its reader of
        // every partition is in place (a cursor, a fetch position) before the subscribers are measured idle
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config))
        {
            for (int p = 0; p < partitions; p++)
            {
                producer.send(new ProducerRecord<>(topic, p, null, new byte[size])).get(60, TimeUnit.SECONDS);
            }
        }
        return topic;
    }

    // a pause with the subscribers idle, to look at the process from outside (jcmd GC.class_histogram)
    private void idlePause() throws InterruptedException
    {
        if (idlePauseNanos > 0)
        {
            System.out.printf("idle for %.0f s, pid %d%n", idlePauseNanos / 1e9, ProcessHandle.current().pid());
            TimeUnit.NANOSECONDS.sleep(idlePauseNanos);
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException
    {
        long wait;
        while ((wait = nanoTime - System.nanoTime()) > 0)
        {
            TimeUnit.NANOSECONDS.sleep(Math.min(wait, 100_000_000L));
        }
    }

    private static String engineProperties()
    {
        final Map<String, String> values = new HashMap<>();
        System.getProperties().forEach((k, v) ->
        {
            if (k.toString().startsWith("zilla."))
            {
                values.put(k.toString(), v.toString());
            }
        });
        return values.isEmpty() ? "defaults" : values.toString();
    }

    static String loadAverage()
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

    private Phase print(Phase phase)
    {
        System.out.println(phase.format());
        return phase;
    }

    private void summarize(List<Phase> phases)
    {
        System.out.println();
        System.out.printf(Locale.ROOT, "%d B records, %d partitions, %.0f s window after %.0f s of warm-up; zilla %d "
            + "workers. msg: one record delivered to one subscriber. CPU: zilla's worker threads (cache_client) or the "
            + "consumer threads (kafka-clients); per core: msg per CPU-second of those threads; B/msg: what those "
            + "threads allocated; broker net: less the produce-only phase's broker CPU per record produced.%n",
            size, partitions, durationNanos / 1e9, warmupNanos / 1e9, workers);
        System.out.println("| N | target | subscribers | rate | delivered msg/s | of expected | msg/s per core | CPU µs/msg "
            + "| B/msg | broker µs/msg | broker net µs/msg | broker % core | Fetch/s | idle B/subscriber | steal % "
            + "| load 1 min |");
        System.out.println("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        for (Phase phase : phases)
        {
            final Phase base = phases.stream().filter(p -> PRODUCE_ONLY.equals(p.target) && p.n == phase.n).findFirst()
                .orElse(null);
            System.out.printf(Locale.ROOT, "| %,d | %s | %,d | %,.0f | %,.0f | %s | %s | %s | %s | %s | %s | "
                + "%.1f | %,.0f | %s | %.1f | %s |%n", phase.n, phase.target, phase.streams, phase.rate,
                phase.deliveredPerSecond(), value("%.3f", phase.ofExpected()), value("%,.0f", phase.perCore()),
                value("%.3f", phase.cpuMicrosPerMessage()), value("%.3f", phase.bytesPerMessage()),
                value("%.3f", phase.brokerMicrosPerMessage()),
                base != null && phase != base ? String.format(Locale.ROOT, "%.3f", phase.brokerNetMicrosPerMessage(base))
                    : "",
                phase.brokerPercent(), phase.fetchRequests / phase.windowSeconds,
                phase.idle != null ? String.format(Locale.ROOT, "%,.0f", phase.idle.perSubscriber()) : "", phase.steal,
                phase.loadStart.split(" ")[0] + "-" + phase.loadEnd.split(" ")[0]);
        }
        System.out.println();
        System.out.println("cache_client / kafka-clients, same N (at N beyond the consumers' cap, against the capped "
            + "consumers, same rate: the same load per consumer):");
        System.out.println("| N | msg/s per core | CPU µs/msg | broker µs/msg | broker net µs/msg | own + broker µs/msg "
            + "| idle B/subscriber |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
        for (Phase cache : phases)
        {
            if (!CACHE.equals(cache.target))
            {
                continue;
            }
            final Phase clients = phases.stream().filter(p -> CONSUMERS.equals(p.target) && p.n == cache.n)
                .findFirst().orElse(null);
            final Phase base = phases.stream().filter(p -> PRODUCE_ONLY.equals(p.target) && p.n == cache.n).findFirst()
                .orElse(null);
            if (clients == null)
            {
                continue;
            }
            System.out.printf(Locale.ROOT, "| %,d | %.2f | %.3f | %.3f | %s | %.3f | %s |%n", cache.n,
                cache.perCore() / clients.perCore(), cache.cpuMicrosPerMessage() / clients.cpuMicrosPerMessage(),
                cache.brokerMicrosPerMessage() / clients.brokerMicrosPerMessage(),
                base != null ? String.format(Locale.ROOT, "%.3f", cache.brokerNetMicrosPerMessage(base)
                    / clients.brokerNetMicrosPerMessage(base)) : "",
                (cache.cpuMicrosPerMessage() + cache.brokerMicrosPerMessage())
                    / (clients.cpuMicrosPerMessage() + clients.brokerMicrosPerMessage()),
                cache.idle != null && clients.idle != null
                    ? String.format(Locale.ROOT, "%.4f", cache.idle.perSubscriber() / clients.idle.perSubscriber()) : "");
        }
    }

    // a figure, or "-" where there is none (no subscriber, nothing delivered)
    private static String value(String format, double value)
    {
        return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : "-";
    }

    /** The heap live (a class histogram's total), direct and mapped buffers; {@link #minus} per subscriber. */
    record Memory(long heap, long direct, long mapped, int subscribers)
    {
        static Memory now() throws Exception
        {
            // the heap live: the total of the JVM's class histogram (what jcmd GC.class_histogram prints, after a full
            // GC of its own): exact, where "used" read after System.gc() also counts what other threads allocated
            // since (it moved by tens of MB between three GCs 200 ms apart in one trial with 10,000 subscribers)
            final String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
            final String[] total = histogram.strip().lines().reduce((a, b) -> b).orElse("").trim().split("\\s+");
            final long heap = Long.parseLong(total[total.length - 1]);
            long direct = 0L;
            long mapped = 0L;
            for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
            {
                if ("direct".equals(pool.getName()))
                {
                    direct = pool.getMemoryUsed();
                }
                else if ("mapped".equals(pool.getName()))
                {
                    mapped = pool.getMemoryUsed();
                }
            }
            return new Memory(heap, direct, mapped, 0);
        }

        Memory minus(Memory before, int subscribers)
        {
            return new Memory(heap - before.heap, direct - before.direct, mapped - before.mapped, subscribers);
        }

        double perSubscriber()
        {
            return subscribers > 0 ? (double) (heap + direct) / subscribers : Double.NaN;
        }

        String format()
        {
            return String.format(Locale.ROOT, "%,.0f B per subscriber (heap %+,d B, direct %+,d B over %,d subscribers; "
                + "mapped %+,d B)", perSubscriber(), heap, direct, subscribers, mapped);
        }
    }

    /** One phase: {@code streams} subscribers (of {@code n} asked), the producer at {@code rate}. */
    record Phase(String target, int n, int streams, double rate, long produced, long windowProduced, double windowSeconds,
        long windowDelivered, long delivered, long expected, long cpuNanos, long allocated, long brokerCpuNanos,
        double steal, long fetchRequests, Memory idle, String loadStart, String loadEnd, String error)
    {
        boolean complete()
        {
            return error == null && produced > 0 && delivered == expected;
        }

        double deliveredPerSecond()
        {
            return windowDelivered / windowSeconds;
        }

        /** The window's deliveries over what it produced times the subscribers: below 1 when they fall behind. */
        double ofExpected()
        {
            return streams > 0 && windowProduced > 0 ? (double) windowDelivered / (windowProduced * streams) : Double.NaN;
        }

        double perCore()
        {
            return windowDelivered > 0 ? windowDelivered / (cpuNanos / 1e9) : Double.NaN;
        }

        double cpuMicrosPerMessage()
        {
            return windowDelivered > 0 ? cpuNanos / 1e3 / windowDelivered : Double.NaN;
        }

        double bytesPerMessage()
        {
            return windowDelivered > 0 ? (double) allocated / windowDelivered : Double.NaN;
        }

        double brokerMicrosPerMessage()
        {
            return brokerCpuNanos / 1e3 / (streams > 0 ? windowDelivered : windowProduced);
        }

        /** The broker's CPU less what producing costs it (the produce-only phase's per record), per delivered. */
        double brokerNetMicrosPerMessage(Phase base)
        {
            final double producing = (double) base.brokerCpuNanos / base.windowProduced * windowProduced;
            return (brokerCpuNanos - producing) / 1e3 / windowDelivered;
        }

        /**
         * The records each Fetch request brought from the broker: the cache fetches each record once for all its
         * subscribers, a KafkaConsumer each record for itself.
         */
        double recordsPerFetch()
        {
            final long fetched = CONSUMERS.equals(target) ? windowDelivered : CACHE.equals(target) ? windowProduced : 0L;
            return fetchRequests > 0 ? (double) fetched / fetchRequests : 0.0;
        }

        double brokerPercent()
        {
            return 100.0 * brokerCpuNanos / (windowSeconds * 1e9);
        }

        String format()
        {
            if (streams == 0)
            {
                return String.format(Locale.ROOT, "N %,d %-13s no subscriber at %,.0f records/s: window %.2f s, %,d records "
                    + "produced, zilla's workers %.1f%% of a core, broker CPU %.1f%% of a core (%.3f µs per record "
                    + "produced), steal %.1f%%; load %s -> %s%s", n, target, rate, windowSeconds, windowProduced,
                    100.0 * cpuNanos / (windowSeconds * 1e9), brokerPercent(), brokerMicrosPerMessage(), steal, loadStart,
                    loadEnd, error != null ? ", ERROR " + error : "");
            }
            return String.format(Locale.ROOT, "N %,d %-13s %,6d subscribers at %,.0f records/s: window %.2f s, %,d records "
                + "produced, %,d delivered (%,.0f msg/s, %.3f of expected), CPU %.1f%% of a core (%.3f µs/msg, %,.0f msg "
                + "per CPU-second), %.3f B/msg (%,d B), broker CPU %.1f%% of a core (%.3f µs/msg), Fetch requests "
                + "%,d (%.1f records each), steal %.1f%%; all %,d of %,d delivered; load %s -> %s%s",
                n, target, streams, rate, windowSeconds, windowProduced, windowDelivered, deliveredPerSecond(),
                ofExpected(), 100.0 * cpuNanos / (windowSeconds * 1e9), cpuMicrosPerMessage(), perCore(),
                bytesPerMessage(), allocated, brokerPercent(), brokerMicrosPerMessage(), fetchRequests,
                recordsPerFetch(), steal, delivered,
                expected, loadStart, loadEnd, error != null ? ", ERROR " + error : "");
        }
    }
}
