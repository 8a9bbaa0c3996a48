/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.fetchBeginEx;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.lastFlushOffset;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;

/**
 * Every FETCH test of kind client, run again through {@code cache_client -> cache_server -> client} (cache.yaml):
 * the same records, offsets, filters, fragments and errors, so a mapping cannot tell the cache from the client. Only
 * what differs by design is tested differently here.
 */
class KafkaCacheFetchTest extends KafkaClientFetchTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Override
    String config()
    {
        return "cache.yaml";
    }

    /**
     * The cache holds a partition's records as read_uncommitted sees them, aborted ones too, and no transaction state
     * to tell them apart: a read_committed stream is relayed, as it is, to the cache_server's exit (kind client), and
     * the cache does not fetch the topic for it. A read_uncommitted one is read from the cache.
     */
    @Test
    @Override
    void shouldDropAbortedRecordsUnderReadCommitted(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        produceCommittedAndAborted(kafka, topic);
        final TestClient app = start(kafka);
        final TestStream committed = app.open(fetchBeginEx(topic, 0, EARLIEST, true, List.of()));
        committed.await(WAIT, () -> lastFlushOffset(committed) == 8L);

        assertEquals(List.of("committed-1", "committed-2", "committed-3"), keys(records(committed)));
        assertEquals(List.of(0L, 1L, 6L), offsets(records(committed)));
        assertEquals("abe", new String(committed.received(), UTF_8));
        assertTrue(records(committed).stream().allMatch(r -> r.producerId() >= 0), "the producer id is told");
        final Path cached = engine.directory().resolve("kafka-cache").resolve("kafka_cache_server").resolve(topic + "-0");
        assertFalse(Files.exists(cached), "the cache was not asked for the topic");

        final TestStream uncommitted = app.open(fetchBeginEx(topic, 0, EARLIEST, false, List.of()));
        uncommitted.await(WAIT, () -> lastFlushOffset(uncommitted) == 8L);
        assertEquals(List.of("committed-1", "committed-2", "aborted-1", "aborted-2", "committed-3"),
            keys(records(uncommitted)));
        assertEquals(List.of(0L, 1L, 3L, 4L, 6L), offsets(records(uncommitted)));
        assertTrue(Files.isDirectory(cached), "read from the cache: " + cached);
        assertFalse(committed.reset() || committed.ended(), "the relayed stream stays open");
    }

    /**
     * The cache fetches a partition for all its readers and, when that FETCH fails, opens it again (with a backoff)
     * from where the cache is: here the corrupt batch, which a new leader may serve sound. A reader gets the records
     * before it, then waits, as at the end of the partition; it is not reset. Each try is kind client's event.
     */
    @Test
    @Override
    void shouldResetACorruptBatchWithAnEvent(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        produceACorruptLastBatch(kafka, topic);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 0, EARLIEST));
        stream.await(WAIT, () -> records(stream).size() >= 2 && engine.events().stream()
            .filter(e -> e.event().equals("kafka.fetch.corrupt")).count() >= 2);

        assertEquals(List.of(0L, 1L), offsets(records(stream)), "the records before the corrupt batch");
        assertFalse(stream.reset(), "the reader is not reset");
        assertFalse(stream.aborted() || stream.ended(), "nor its reply closed");
    }
}
