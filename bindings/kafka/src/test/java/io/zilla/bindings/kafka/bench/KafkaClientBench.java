/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import io.zilla.engine.test.CpuSteal;
import io.zilla.engine.test.ThreadStats;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * The kafka client benchmark (docs/benchmarks.md, "kafka client binding"; issue 6): in one JVM and one run, against
 * one embedded broker, the produce and fetch throughput of zilla's kafka client binding (its application-side
 * streams, one per partition, driven at full credit by {@link ClientBenchDriver} on zilla's worker) and of
 * kafka-clients ({@link KafkaClientsLoad}: a KafkaProducer, a KafkaConsumer, each on its own thread), alternating,
 * over several rounds, with records of each size to a fresh 16-partition topic, acks all.
 * <p>
 * Per round and size: zilla produces {@code --records} records to topic Z, kafka-clients as many to topic K (every
 * second round the other one first), each checked on the broker (the end offsets add up to the records); then zilla
 * fetches Z from earliest and a KafkaConsumer fetches Z (both the same batches, zilla's), in the same alternating
 * order, and then both fetch K as well (phase {@code fetch-kp}: the KafkaProducer's batches, up to its batch.size,
 * which a FETCH stream holds beyond its slot when they are larger). Each run reports records/s and MB/s
 * (values only) from its start to its last record, and the bytes that zilla's worker thread (or the client's
 * threads) allocated per record between 20% and 80% of the run's records, in steady state. The first
 * {@code --warmup-rounds} rounds are not counted.
 * <p>
 * Arguments (all optional): {@code --records 96000} (per run), {@code --sizes 1024,100}, {@code --partitions 16},
 * {@code --rounds 3}, {@code --warmup-rounds 1}, {@code --linger-ms 5}, {@code --batch-size 65536},
 * {@code --max-partition-fetch-bytes 64512} (the KafkaConsumer's; zilla asks for a slot less 1 KiB), {@code
 * --compression none} (zilla's option and the KafkaProducer's compression.type), {@code --bootstrap host:port}
 * (a broker already running, instead of an embedded one), {@code --broker-jvm=-Xms1g,-Xmx1g,...}, {@code --timeout 300}
 * (seconds a run may take before it counts as failed).
 */
public final class KafkaClientBench
{
    static final String ZILLA = "zilla";
    static final String CLIENTS = "kafka-clients";
    static final String PRODUCE = "produce";
    static final String FETCH = "fetch";
    /** The fetch of the topic the KafkaProducer wrote: its batches, up to its batch.size. */
    static final String FETCH_PRODUCED = "fetch-kp";

    private final long records;
    private final List<Integer> sizes;
    private final int partitions;
    private final int rounds;
    private final int warmupRounds;
    private final int lingerMs;
    private final int batchSize;
    private final int maxPartitionFetchBytes;
    private final String compression;
    private final String bootstrap;
    private final List<String> brokerJvm;
    private final long timeoutNanos;

    private EmbeddedKafka kafka;
    private ZillaKafkaClient zilla;
    private Admin admin;

    private KafkaClientBench(Map<String, String> options)
    {
        this.records = Long.parseLong(options.getOrDefault("records", "96000"));
        this.sizes = List.of(options.getOrDefault("sizes", "1024,100").split(",")).stream().map(Integer::parseInt).toList();
        this.partitions = Integer.parseInt(options.getOrDefault("partitions", "16"));
        this.rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
        this.warmupRounds = Integer.parseInt(options.getOrDefault("warmup-rounds", "1"));
        this.lingerMs = Integer.parseInt(options.getOrDefault("linger-ms", "5"));
        this.batchSize = Integer.parseInt(options.getOrDefault("batch-size", "65536"));
        this.maxPartitionFetchBytes = Integer.parseInt(options.getOrDefault("max-partition-fetch-bytes", "64512"));
        this.compression = options.getOrDefault("compression", "none");
        this.bootstrap = options.get("bootstrap");
        this.brokerJvm = List.of(options.getOrDefault("broker-jvm",
            "-Xms1g,-Xmx1g,-XX:+UseG1GC,-XX:MaxGCPauseMillis=20").split(","));
        this.timeoutNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(options.getOrDefault("timeout", "300")));
        if (records % partitions != 0)
        {
            throw new IllegalArgumentException("--records must be a multiple of --partitions");
        }
    }

    public static void main(String[] args) throws Exception
    {
        // the admin client logs an ERROR each time it asks for a topic the broker does not serve yet (awaitTopic)
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka.clients.admin",
            System.getProperty("org.slf4j.simpleLogger.log.org.apache.kafka.clients.admin", "off"));
        final List<Run> runs = of(args).run();
        System.exit(runs.stream().allMatch(Run::complete) ? 0 : 1);
    }

    static KafkaClientBench of(String... args)
    {
        ThreadStats.enable();
        return new KafkaClientBench(BenchArgs.parse(args));
    }

    /** Starts the broker (unless given one) and zilla, runs every round, prints each run and the table. */
    List<Run> run() throws Exception
    {
        System.out.printf(Locale.ROOT, "kafka client binding vs kafka-clients: %,d records per run, sizes %s B, %d "
            + "partitions, acks all, %d round(s) after %d warm-up round(s); KafkaProducer linger.ms %d, batch.size %d, "
            + "idempotence off (zilla's streams are plain producers); KafkaConsumer max.partition.fetch.bytes %d, "
            + "fetch.min.bytes 1; compression %s; zilla 1 worker; %s %s, %d cores; JVM options %s; load average %s%n",
            records, sizes, partitions, rounds, warmupRounds, lingerMs, batchSize, maxPartitionFetchBytes, compression,
            System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
            Runtime.getRuntime().availableProcessors(), ManagementFactory.getRuntimeMXBean().getInputArguments(),
            loadAverage());
        final List<Run> runs = new ArrayList<>();
        try
        {
            String brokers = bootstrap;
            if (brokers == null)
            {
                kafka = new EmbeddedKafka().jvmOptions(brokerJvm).property("file.delete.delay.ms", 0);
                kafka.start();
                brokers = kafka.bootstrapServers();
            }
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers));
            zilla = new ZillaKafkaClient(brokers, compression);
            final KafkaClientsLoad clients = new KafkaClientsLoad(brokers, lingerMs, batchSize, maxPartitionFetchBytes,
                compression);
            for (int round = -warmupRounds; round < rounds; round++)
            {
                for (int size : sizes)
                {
                    runRound(round, size, clients, runs);
                }
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
            if (kafka != null)
            {
                kafka.close();
            }
        }
        summarize(runs.stream().filter(r -> r.round >= 0).toList());
        System.out.printf("load average at the end: %s%n", loadAverage());
        return runs;
    }

    private void runRound(int round, int size, KafkaClientsLoad clients, List<Run> runs) throws Exception
    {
        final String prefix = String.format(Locale.ROOT, "client-bench-%d-%d-%d", round + warmupRounds, size,
            System.currentTimeMillis());
        final String zillaTopic = prefix + "-zilla";
        final String clientsTopic = prefix + "-clients";
        admin.createTopics(List.of(new NewTopic(zillaTopic, partitions, (short) 1),
            new NewTopic(clientsTopic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
        try
        {
            // created means the controller has them: wait until the broker serves them too
            awaitTopic(zillaTopic);
            awaitTopic(clientsTopic);
            final List<String> order = Math.floorMod(round, 2) == 0 ? List.of(ZILLA, CLIENTS) : List.of(CLIENTS, ZILLA);
            for (String target : order)
            {
                final Run run = ZILLA.equals(target)
                    ? zillaProduce(round, size, zillaTopic)
                    : measure(PRODUCE, CLIENTS, round, size, clients.produce(clientsTopic, partitions, records, size));
                final long logged = endOffsets(ZILLA.equals(target) ? zillaTopic : clientsTopic);
                runs.add(print(run.logged(logged)));
            }
            for (String target : order)
            {
                final Run run = ZILLA.equals(target)
                    ? measure(FETCH, ZILLA, round, size, zilla(zilla.driver().fetch(zillaTopic, partitions,
                        records / partitions)))
                    : measure(FETCH, CLIENTS, round, size, clients.fetch(zillaTopic, partitions, records));
                runs.add(print(run.logged(run.records)));
            }
            for (String target : order)
            {
                final Run run = ZILLA.equals(target)
                    ? measure(FETCH_PRODUCED, ZILLA, round, size, zilla(zilla.driver().fetch(clientsTopic, partitions,
                        records / partitions)))
                    : measure(FETCH_PRODUCED, CLIENTS, round, size, clients.fetch(clientsTopic, partitions, records));
                runs.add(print(run.logged(run.records)));
            }
        }
        finally
        {
            admin.deleteTopics(List.of(zillaTopic, clientsTopic)).all().get(60, TimeUnit.SECONDS);
        }
    }

    private Run zillaProduce(int round, int size, String topic)
    {
        final long requests = zilla.counter("produce.requests");
        final long produced = zilla.counter("produce.records");
        final Run run = measure(PRODUCE, ZILLA, round, size, zilla(zilla.driver().produce(topic, partitions,
            records / partitions, size)));
        final long batches = zilla.counter("produce.requests") - requests;
        return run.batching(batches > 0 ? (double) (zilla.counter("produce.records") - produced) / batches : 0.0);
    }

    /** Something running that the benchmark thread watches: its records so far, whether done, its error. */
    interface Load
    {
        long records();

        long bytes();

        boolean done();

        String error();

        /** The threads whose allocation counts for it: zilla's worker, or the client's threads. */
        ThreadStats threads();
    }

    private static Load zilla(ClientBenchDriver.DriverRun run)
    {
        return new Load()
        {
            @Override
            public long records()
            {
                return run.records();
            }

            @Override
            public long bytes()
            {
                return run.bytes();
            }

            @Override
            public boolean done()
            {
                return run.done();
            }

            @Override
            public String error()
            {
                return run.error() != null || run.done() ? run.error() : "per stream " + run.progress();
            }

            @Override
            public ThreadStats threads()
            {
                return ThreadStats.of(ZillaKafkaProxy.WORKER_THREAD_PREFIX);
            }
        };
    }

    // from the request to the last record; the allocation between 20% and 80% of the records
    private Run measure(String phase, String target, int round, int size, Load load)
    {
        final CpuSteal steal = CpuSteal.now();
        final long start = System.nanoTime();
        final long from = records / 5;
        final long to = records * 4 / 5;
        ThreadStats before = null;
        ThreadStats after = null;
        long windowStart = 0;
        long windowEnd = 0;
        while (!load.done() && System.nanoTime() - start < timeoutNanos)
        {
            final long done = load.records();
            if (before == null && done >= from)
            {
                before = load.threads();
                windowStart = load.records();
            }
            else if (before != null && after == null && done >= to)
            {
                after = load.threads();
                windowEnd = load.records();
            }
            LockSupport.parkNanos(100_000L);
        }
        final long nanos = System.nanoTime() - start;
        final ThreadStats window = after != null ? after.minus(before) : ThreadStats.NONE;
        final String error = load.done() ? load.error() : "timed out: " + load.error() + ", events " + zilla.events();
        return new Run(phase, target, round, size, load.records(), load.bytes(), nanos, window.allocated(),
            windowEnd - windowStart, CpuSteal.now().percentSince(steal), error, -1L, 0.0);
    }

    private void awaitTopic(String topic) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (endOffsets(topic) < 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(50);
        }
    }

    // the records on the broker, or -1 when it cannot tell (a topic it does not serve yet)
    private long endOffsets(String topic) throws InterruptedException
    {
        final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++)
        {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        try
        {
            return admin.listOffsets(latest).all().get(60, TimeUnit.SECONDS).values().stream()
                .mapToLong(info -> info.offset()).sum();
        }
        catch (ExecutionException | TimeoutException ex)
        {
            return -1L;
        }
    }

    private Run print(Run run)
    {
        System.out.println(run.format());
        return run;
    }

    private void summarize(List<Run> runs)
    {
        final Map<String, Total> totals = new LinkedHashMap<>();
        for (Run run : runs)
        {
            totals.computeIfAbsent(run.phase + "/" + run.size + "/" + run.target, k -> new Total()).add(run);
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "%d round(s) of %,d records per run, %d partitions, acks all (sums over the "
            + "rounds; B/record: allocation of zilla's worker, or of the client's threads, between 20%% and 80%% of "
            + "each run):%n", rounds, records, partitions);
        System.out.printf(Locale.ROOT, "| %-8s | %6s | %-13s | %12s | %8s | %9s | %15s | %9s |%n", "phase", "size",
            "target", "records/s", "MB/s", "B/record", "zilla / clients", "steal %");
        System.out.println("|---|---:|---|---:|---:|---:|---:|---:|");
        for (String phase : List.of(PRODUCE, FETCH, FETCH_PRODUCED))
        {
            for (int size : sizes)
            {
                final Total proxied = totals.get(phase + "/" + size + "/" + ZILLA);
                final Total clients = totals.get(phase + "/" + size + "/" + CLIENTS);
                for (Total total : new Total[] {proxied, clients})
                {
                    if (total != null)
                    {
                        final String ratio = total == proxied && clients != null
                            ? String.format(Locale.ROOT, "%.2f", proxied.recordsPerSecond() / clients.recordsPerSecond())
                            : "";
                        System.out.printf(Locale.ROOT, "| %-8s | %6d | %-13s | %,12.0f | %8.1f | %9.3f | %15s | %9.1f |%n",
                            phase, size, total.target, total.recordsPerSecond(), total.megabytesPerSecond(),
                            total.bytesPerRecord(), ratio, total.steal());
                    }
                }
            }
        }
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

    /** One run: {@code records} records of {@code size} bytes, in {@code nanos}. */
    record Run(String phase, String target, int round, int size, long records, long bytes, long nanos,
        long allocated, long windowRecords, double steal, String error, long logged, double recordsPerRequest)
    {
        Run logged(long logged)
        {
            return new Run(phase, target, round, size, records, bytes, nanos, allocated, windowRecords, steal, error,
                logged, recordsPerRequest);
        }

        Run batching(double recordsPerRequest)
        {
            return new Run(phase, target, round, size, records, bytes, nanos, allocated, windowRecords, steal, error,
                logged, recordsPerRequest);
        }

        /** Every record there, on the broker and back, without error. */
        boolean complete()
        {
            return error == null && records > 0 && logged == records;
        }

        double recordsPerSecond()
        {
            return records / (nanos / 1e9);
        }

        double bytesPerRecord()
        {
            return windowRecords > 0 ? (double) allocated / windowRecords : Double.NaN;
        }

        String format()
        {
            return String.format(Locale.ROOT, "%s %-8s %4d B %-13s %,9d records in %6.3f s: %,10.0f records/s %7.1f MB/s, "
                + "%.3f B/record allocated (%,d B over %,d records), steal %.1f%%%s%s%s",
                round < 0 ? "warm-up" : "round " + round, phase, size, target, records, nanos / 1e9, recordsPerSecond(),
                bytes / (nanos / 1e3), bytesPerRecord(), allocated, windowRecords, steal,
                logged != records ? ", " + logged + " on the broker" : "",
                recordsPerRequest > 0 ? String.format(Locale.ROOT, ", %.1f records per Produce", recordsPerRequest) : "",
                error != null ? ", ERROR " + error : "");
        }
    }

    private static final class Total
    {
        private String target;
        private long records;
        private long bytes;
        private long nanos;
        private long allocated;
        private long windowRecords;
        private double stealNanos;

        void add(Run run)
        {
            target = run.target;
            records += run.records;
            bytes += run.bytes;
            nanos += run.nanos;
            allocated += run.allocated;
            windowRecords += run.windowRecords;
            stealNanos += run.steal * run.nanos;
        }

        double recordsPerSecond()
        {
            return records / (nanos / 1e9);
        }

        double megabytesPerSecond()
        {
            return bytes / (nanos / 1e3);
        }

        double bytesPerRecord()
        {
            return windowRecords > 0 ? (double) allocated / windowRecords : Double.NaN;
        }

        double steal()
        {
            return stealNanos / nanos;
        }
    }
}
