/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.fetchBeginEx;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.records;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceBeginEx;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceDataEx;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.zilla.bindings.kafka.test.KafkaFaultRelay;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.EngineHistograms;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kafka.* metrics, read from the engine directory as exporters read them, after records of known sizes went
 * through a client binding (produced and fetched back) and through the cache (fetched once, read by two readers),
 * and after a batch a relay failed was sent again.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaMetricsTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int WHOLE = 0x03;
    private static final int RECORDS = 50;
    // "value-000".."value-049": 9 bytes each
    private static final int VALUE_LENGTH = 9;
    private static final short NOT_ENOUGH_REPLICAS_AFTER_APPEND = 20;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaMetricsTest.class);

    @Test
    void shouldCountTheRecordsAClientProducesAndFetches(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.metrics.yaml");
        final TestClient app = TestBinding.client("app");

        final TestStream produce = app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));
        for (int i = 0; i < RECORDS; i++)
        {
            app.send(produce, value(i), produceDataEx(0, 0L, ("key-" + i).getBytes(UTF_8), List.of()), WHOLE);
        }
        produce.await(WAIT, () -> produce.reset() || produce.waiting() == 0 && produce.acknowledged() == produce.sequence());
        assertFalse(produce.reset(), () -> "reset with " + resetError(produce) + ", events " + engine.events());
        awaitCounter("kafka_client", "kafka.produce.records", RECORDS);
        assertEquals(RECORDS * VALUE_LENGTH, counter("kafka_client", "kafka.produce.bytes"), "value bytes only");
        assertEquals(0L, counter("kafka_client", "kafka.produce.retries"), "no batch sent again: the series at 0");

        final TestStream fetch = app.open(fetchBeginEx(topic, 0, EARLIEST));
        fetch.await(WAIT, () -> records(fetch).size() == RECORDS);
        awaitCounter("kafka_client", "kafka.fetch.records", RECORDS);
        assertEquals(RECORDS * VALUE_LENGTH, counter("kafka_client", "kafka.fetch.bytes"));

        // bootstrap (metadata), produce and fetch connections, open while the streams are
        final long connections = counter("kafka_client", "kafka.broker.connections");
        assertTrue(connections >= 1, "broker connections open: " + connections);
        // each answered request is one observation, in the series of its api by Kafka's name for it
        final Map<String, EngineHistograms.Values> timed = histograms("kafka_client");
        for (String api : List.of("ApiVersions", "Metadata", "Produce", "Fetch"))
        {
            final EngineHistograms.Values duration = timed.get("kafka.request.duration{api=" + api + "}");
            assertNotNull(duration, () -> api + " timed: " + timed.keySet());
            assertTrue(duration.count() >= 1, api + ": " + duration);
            assertTrue(duration.sum() > 0 && duration.sum() < Duration.ofMinutes(1).toNanos() * duration.count(),
                "a finite, positive sum: " + duration);
            assertEquals(0L, duration.counts()[duration.counts().length - 1], "none above 30 s: " + duration);
        }
        assertNull(timed.get("kafka.request.duration"), "every series has its api");

        // what the client binding does not record stays away
        assertEquals(-1L, counter("kafka_client", "kafka.cache.reads"));
        app.end(produce);
    }

    @Test
    void shouldCountTheBatchSentAgainAfterARetriableError() throws Exception
    {
        // the relay answers the third Produce with NOT_ENOUGH_REPLICAS_AFTER_APPEND (after the broker wrote it) once a
        // later batch is on its way, and holds its retry: the later batches in flight succeed, the failed one alone
        // goes again
        final int count = 400;
        try (KafkaFaultRelay relay = new KafkaFaultRelay(2, NOT_ENOUGH_REPLICAS_AFTER_APPEND);
             EmbeddedKafka kafka = relay.startBroker())
        {
            kafka.createTopic("retried", 1);
            engine.env("KAFKA_BOOTSTRAP", "127.0.0.1:" + relay.port()).start("client.metrics.yaml");
            final TestClient app = TestBinding.client("app");
            final TestStream produce = app.open(produceBeginEx("retried", 0, -1L, (short) -1,
                KafkaAckMode.IN_SYNC_REPLICAS));
            for (int i = 0; i < count; i++)
            {
                app.send(produce, indexed(i), produceDataEx(0, 0L, null, List.of()), WHOLE);
            }
            assertTrue(relay.awaitRetryHeld(WAIT), "the failed batch was sent again");
            // counted as it went, before the relay saw it
            assertEquals(1L, counter("kafka_client", "kafka.produce.retries"));

            relay.release();
            app.end(produce);
            produce.await(WAIT, () -> produce.ended() || produce.reset());
            assertFalse(produce.reset(), () -> "reset with " + resetError(produce) + ", events " + engine.events());
            assertEquals(produce.sequence(), produce.acknowledged(), "every record acknowledged");
            // every record in the log, twice only the failed batch's (the broker had written it)
            final List<Integer> failed = relay.failedRecords();
            final Map<Integer, Integer> found = KafkaClientAckTest.readToTheEnd(kafka, "retried", 1);
            for (int i = 0; i < count; i++)
            {
                final int times = found.getOrDefault(i, 0);
                assertTrue(times == 1 || failed.contains(i) && times == 2, "record " + i + " " + times + " times");
            }
            // one batch, one retry; each record acknowledged once, whatever the retries
            assertEquals(1L, counter("kafka_client", "kafka.produce.retries"));
            assertEquals(count, counter("kafka_client", "kafka.produce.records"));
            assertEquals(count * 1000L, counter("kafka_client", "kafka.produce.bytes"));
        }
    }

    @Test
    void shouldCountWhatTheCacheFetchedOnceAndWhatItsReadersRead(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        produce(kafka, topic);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("cache.metrics.yaml");
        final TestClient app = TestBinding.client("app");

        final TestStream first = app.open(fetchBeginEx(topic, 0, EARLIEST));
        final TestStream second = app.open(fetchBeginEx(topic, 0, EARLIEST));
        first.await(WAIT, () -> records(first).size() == RECORDS);
        second.await(WAIT, () -> records(second).size() == RECORDS);

        // two readers of each record, fetched from Kafka once: a hit ratio of 1 - 50/100
        awaitCounter("kafka_cache_client", "kafka.cache.reads", 2 * RECORDS);
        awaitCounter("kafka_cache_server", "kafka.cache.fetched", RECORDS);
        // caught up: nothing Kafka has is still to fetch (and the gauge exists: -1 would be no series)
        awaitCounter("kafka_cache_server", "kafka.cache.lag", 0);
        // the cache_server's exit, the client binding, delivered each record once, to the cache
        awaitCounter("kafka_client", "kafka.fetch.records", RECORDS);
        assertEquals(RECORDS * VALUE_LENGTH, counter("kafka_client", "kafka.fetch.bytes"));
        assertTrue(counter("kafka_client", "kafka.broker.connections") >= 1);
    }

    private static byte[] value(int i)
    {
        return String.format("value-%03d", i).getBytes(UTF_8);
    }

    // 1 KB starting with its index in 8 digits, as KafkaFaultRelay reads it
    private static byte[] indexed(int i)
    {
        final byte[] value = new byte[1000];
        Arrays.fill(value, (byte) 'a');
        final byte[] index = String.format("%08d", i).getBytes(UTF_8);
        System.arraycopy(index, 0, value, 0, index.length);
        return value;
    }

    private static void produce(EmbeddedKafka kafka, String topic) throws Exception
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config))
        {
            for (int i = 0; i < RECORDS; i++)
            {
                producer.send(new ProducerRecord<>(topic, 0, ("key-" + i).getBytes(UTF_8), value(i)));
            }
            producer.flush();
        }
    }

    private void awaitCounter(String binding, String metric, long value) throws Exception
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        long seen = counter(binding, metric);
        while (seen != value && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
            seen = counter(binding, metric);
        }
        assertEquals(value, seen, binding + " " + metric);
    }

    private long counter(String binding, String metric) throws Exception
    {
        return EngineCounters.read(engine.directory()).getOrDefault(binding, Map.of()).getOrDefault(metric, -1L);
    }

    private EngineHistograms.Values histogram(String binding, String metric) throws Exception
    {
        return histograms(binding).get(metric);
    }

    private Map<String, EngineHistograms.Values> histograms(String binding) throws Exception
    {
        return EngineHistograms.read(engine.directory()).getOrDefault(binding, Map.of());
    }
}
