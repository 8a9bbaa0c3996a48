/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.DEFAULT_PARTITION;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.mergedBeginEx;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.zilla.bindings.kafka.test.KafkaMergedStreams;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A MERGED stream over batches larger than a buffer slot, written by a KafkaProducer with batch.size 262144. */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientMergedLargeBatchTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientMergedTest.class);

    @Test
    void shouldFetchBatchesLargerThanASlotThroughAMergedStream(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        final List<ProducerRecord<byte[], byte[]>> produced = KafkaClientFetchLargeBatchTest.produce(kafka, topic, 0, "none",
            false);
        final byte[] values = KafkaClientFetchLargeBatchTest.values(produced);

        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
        final TestClient app = TestBinding.client("app");
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.FETCH_ONLY,
            Map.of(DEFAULT_PARTITION, EARLIEST), List.of(), KafkaAckMode.IN_SYNC_REPLICAS));
        stream.await(WAIT, () -> stream.received().length >= values.length || stream.reset() || stream.aborted());
        assertFalse(stream.reset(), "stream reset");
        assertFalse(stream.aborted(), "stream aborted");

        final List<KafkaMergedStreams.Merged> fetched = records(stream);
        assertEquals(produced.size(), fetched.size(), "records");
        for (int i = 0; i < produced.size(); i++)
        {
            assertEquals(i, fetched.get(i).offset(), "offset of record " + i);
            assertEquals(new String(produced.get(i).key(), UTF_8), fetched.get(i).key(), "key of record " + i);
        }
        assertArrayEquals(values, stream.received(), "values");
    }
}
