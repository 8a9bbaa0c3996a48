/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.LATEST;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.DEFAULT_PARTITION;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.lastProgress;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.mergedBeginEx;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.mergedProduceDataEx;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaIsolation;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import org.junit.jupiter.api.Test;

/**
 * Every MERGED test of kind client, run again through {@code cache_client -> cache_server -> client} (cache.yaml):
 * the same records, progress, filters, fragments, produce acknowledgements and errors, so a mapping cannot tell the
 * cache from the client. Only what differs by design is tested differently here.
 */
class KafkaCacheMergedTest extends KafkaClientMergedTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Override
    String config()
    {
        return "cache.yaml";
    }

    /**
     * A live stream (latest) on a cold cache: the topic's partitions are known before each partition's first fetch
     * came back (an empty partition's waits up to the fetch's max wait). The stream's reply begins once every partition
     * can be read, so a record written to any partition after that Begin reaches the stream (a reply begun as soon as
     * the partitions were known started the unread ones at the end the cache had when it could read them: 7 of 8
     * records missed).
     */
    @Test
    void shouldNotMissARecordWrittenRightAfterALiveStreamBegan(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(8);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start(config());
        final TestStream stream = TestBinding.client("app").open(fetchBeginEx(topic, Map.of(DEFAULT_PARTITION, LATEST),
            List.of()));
        stream.await(WAIT, () -> stream.frames().stream().anyMatch(frame -> frame.startsWith("BEGIN")));

        produce(kafka, topic, 8, 1);

        stream.await(WAIT, () -> records(stream).size() >= 8);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), records(stream).stream().map(r -> r.partition()).sorted().toList());
    }

    /**
     * The cache holds records as read_uncommitted sees them, aborted ones too, and no transaction state: a
     * read_committed MERGED stream is relayed, as it is, to the cache_server's exit (kind client), and the cache does
     * not fetch the topic for it.
     */
    @Test
    void shouldRelayAReadCommittedStreamToTheClient(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        KafkaClientFetchTest.produceCommittedAndAborted(kafka, topic);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start(config());
        final TestClient app = TestBinding.client("app");
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.FETCH_ONLY,
            Map.of(DEFAULT_PARTITION, EARLIEST), List.of(), KafkaIsolation.READ_COMMITTED, KafkaAckMode.IN_SYNC_REPLICAS));
        stream.await(WAIT, () -> lastProgress(stream).getOrDefault(0, -1L) == 8L);

        assertEquals(List.of("committed-1", "committed-2", "committed-3"), records(stream).stream().map(r -> r.key())
            .toList());
        assertEquals(List.of(0L, 1L, 6L), records(stream).stream().map(r -> r.offset()).toList());
        assertEquals("abe", new String(stream.received(), UTF_8));
        assertFalse(Files.exists(engine.directory().resolve("kafka-cache").resolve("kafka_cache_server")
            .resolve(topic + "-0")), "the cache was not asked for the topic");
    }

    /**
     * The cache's own streams (a META and a FETCH per partition) outlive a reader: they are the cache. What a reader
     * opened for itself (its produce half) closes with it.
     */
    @Test
    @Override
    void shouldCloseEveryInternalStreamWithTheMergedOne(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(8);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start(config());
        final TestClient app = TestBinding.client("app");
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.PRODUCE_AND_FETCH,
            Map.of(DEFAULT_PARTITION, EARLIEST), List.of(), KafkaAckMode.IN_SYNC_REPLICAS));
        for (int i = 0; i < 40; i++)
        {
            app.send(stream, ("value-" + i).getBytes(UTF_8),
                mergedProduceDataEx(0, System.currentTimeMillis(), -1, ("key-" + i).getBytes(UTF_8), List.of()), 0x03);
        }
        stream.await(WAIT, () -> records(stream).size() >= 40 && stream.acknowledged() == stream.sequence());
        final long cacheStreams = counter(engine.directory(), "kafka_cache_server", "streams.opened")
            - counter(engine.directory(), "kafka_cache_server", "streams.closed");

        app.abort(stream);
        app.reset(stream);
        stream.await(WAIT, () -> counter(engine.directory(), "kafka_cache_client", "streams.opened")
            == counter(engine.directory(), "kafka_cache_client", "streams.closed"));
        assertEquals(cacheStreams, counter(engine.directory(), "kafka_cache_server", "streams.opened")
            - counter(engine.directory(), "kafka_cache_server", "streams.closed"), "the cache's streams stay");
    }
}
