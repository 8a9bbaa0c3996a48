/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.DEFAULT_PARTITION;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.lastProgress;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.mergedBeginEx;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.cache.CacheConfig;
import io.zilla.bindings.kafka.test.KafkaMergedStreams.Merged;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache over zilla's life: rebuilt from Kafka after a restart (a subscriber resumes exactly after its progress,
 * and the files of the run before are gone), and held within its disk bound by segment rolls and retention while far
 * more than the bound flows through it.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaCacheLifecycleTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PARTITIONS = 4;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientMergedTest.class);

    @TempDir
    Path cache;

    @Test
    void shouldResumeAfterTheProgressOnceZillaIsRestarted(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        produce(kafka, topic, 0, 10, 8);
        engine.property(KafkaBinding.CACHE_DIRECTORY, cache.toString());
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("cache.yaml");
        final TestStream first = TestBinding.client("app").open(beginEx(topic, Map.of(DEFAULT_PARTITION, EARLIEST)));
        first.await(WAIT, () -> records(first).size() >= PARTITIONS * 10);
        final Map<Integer, Long> progress = lastProgress(first);
        final Path segments = cache.resolve("kafka_cache_server").resolve(topic + "-0");
        assertTrue(Files.exists(segments), "the first run's segments");
        engine.engine().close();
        assertFalse(Files.exists(segments), "a cache closed removes its files");
        // what a killed zilla would leave behind
        final Path stale = Files.createDirectories(segments).resolve("00000000000000000000.log");
        Files.write(stale, new byte[4096]);

        produce(kafka, topic, 10, 15, 8);
        engine.start("cache.yaml");
        assertFalse(Files.exists(stale), "the cache starts empty: rebuilt from Kafka");
        final TestStream resumed = TestBinding.client("app").open(beginEx(topic, progress));
        final TestStream again = TestBinding.client("app").open(beginEx(topic, Map.of(DEFAULT_PARTITION, EARLIEST)));
        resumed.await(WAIT, () -> records(resumed).size() >= PARTITIONS * 5);
        again.await(WAIT, () -> records(again).size() >= PARTITIONS * 15);
        Thread.sleep(300);

        assertOffsets(records(resumed), 10, 15);
        assertOffsets(records(again), 0, 15);
    }

    @Test
    void shouldStayWithinTheDiskBoundWhileManyTimesItFlowsThrough(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final int segmentBytes = 64 * 1024;
        final int indexBytes = 8 * 1024;
        final long retentionBytes = 256 * 1024;
        engine.property(KafkaBinding.CACHE_DIRECTORY, cache.toString())
            .property(KafkaBinding.CACHE_SEGMENT_BYTES, segmentBytes)
            .property(KafkaBinding.CACHE_SEGMENT_INDEX_BYTES, indexBytes)
            .property(KafkaBinding.CACHE_RETENTION_BYTES, retentionBytes);
        final long bound = PARTITIONS * CacheConfig.DEFAULTS.withSegmentBytes(segmentBytes).withSegmentIndexBytes(indexBytes)
            .withRetentionBytes(retentionBytes).partitionFootprint();
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("cache.yaml");
        final TestStream live = TestBinding.client("app").open(beginEx(topic, Map.of(DEFAULT_PARTITION, EARLIEST)));

        // 16 MiB of 1 KiB records, 16 times the bound, in rounds: the cache's files are measured after each
        final int rounds = 16;
        final int perRound = 256;
        long largest = 0L;
        for (int round = 0; round < rounds; round++)
        {
            produce(kafka, topic, round * perRound, (round + 1) * perRound, 1024);
            final int expected = PARTITIONS * (round + 1) * perRound * 1024;
            live.await(WAIT, () -> live.reset() || live.receivedBytes() >= expected);
            assertFalse(live.reset());
            largest = Math.max(largest, size(cache));
        }
        assertTrue(largest <= bound, "the cache's files reached " + largest + " bytes, over the bound of " + bound);
        assertTrue(largest > bound / 4, "the files measured are the cache's: " + largest);
        assertOffsets(records(live), 0, rounds * perRound);
    }

    @AfterEach
    void printEvents()
    {
        engine.events().forEach(e -> System.out.println("event: " + e));
    }

    private static byte[] beginEx(String topic, Map<Integer, Long> partitions)
    {
        return mergedBeginEx(topic, KafkaMergedCapabilities.FETCH_ONLY, partitions, List.of(),
            KafkaAckMode.IN_SYNC_REPLICAS);
    }

    // every partition's offsets from..to - 1, once each and in order
    private static void assertOffsets(List<Merged> records, int from, int to)
    {
        final long[] next = new long[PARTITIONS];
        java.util.Arrays.fill(next, from);
        for (Merged record : records)
        {
            assertEquals(next[record.partition()]++, record.offset(), () -> "partition " + record.partition());
        }
        for (int p = 0; p < PARTITIONS; p++)
        {
            assertEquals(to, next[p], "partition " + p);
        }
    }

    // the files' sizes as the file system has them (the segments are mapped at capacity, sparse)
    private static long size(Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory))
        {
            return paths.filter(Files::isRegularFile).mapToLong(path ->
            {
                try
                {
                    return Files.size(path);
                }
                catch (IOException ex)
                {
                    // removed by retention meanwhile
                    return 0L;
                }
            }).sum();
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void produce(EmbeddedKafka kafka, String topic, int from, int to, int valueLength) throws Exception
    {
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = from; i < to; i++)
            {
                for (int p = 0; p < PARTITIONS; p++)
                {
                    records.add(new ProducerRecord<>(topic, p, ("key-" + p + "-" + i).getBytes(UTF_8), new byte[valueLength]));
                }
            }
            KafkaCacheFanoutTest.sendAll(producer, records);
        }
    }
}
