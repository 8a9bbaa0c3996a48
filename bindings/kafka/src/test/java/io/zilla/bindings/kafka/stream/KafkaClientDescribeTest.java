/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.KAFKA_TYPE_ID;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.indexes;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.replyBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** DESCRIBE streams from the test binding through the kafka client to the shared real broker, changed with an Admin. */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientDescribeTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientDescribeTest.class);

    @Test
    void shouldDescribeEveryConfigurationEntry(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = createCompacted(kafka, topics);
        final TestClient app = start(kafka);

        final TestStream stream = app.open(describeBeginEx(topic));
        stream.await(WAIT, () -> !describeData(stream).isEmpty() || stream.reset());

        final KafkaBeginExFW replyBeginEx = replyBeginEx(stream);
        assertEquals(KafkaCapability.DESCRIBE, replyBeginEx.kind());
        assertEquals(topic, replyBeginEx.describe().topic().asString());
        final Map<String, String> configs = describeData(stream).get(0);
        assertEquals("compact", configs.get("cleanup.policy"));
        assertEquals("123456789", configs.get("retention.ms"));
        assertTrue(configs.size() > 10, () -> "every entry, defaults too: " + configs);
        assertTrue(configs.containsKey("max.message.bytes"), configs::toString);

        app.end(stream);
        stream.await(WAIT, stream::ended);
        assertFalse(stream.reset());
    }

    @Test
    void shouldDescribeOnlyTheNamesAskedFor(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = createCompacted(kafka, topics);
        final TestClient app = start(kafka);

        final TestStream stream = app.open(describeBeginEx(topic, "cleanup.policy", "retention.ms"));
        stream.await(WAIT, () -> !describeData(stream).isEmpty() || stream.reset());

        assertEquals(Map.of("cleanup.policy", "compact", "retention.ms", "123456789"), describeData(stream).get(0));
    }

    @Test
    void shouldSendANewDataOnlyWhenTheConfigurationChanges(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = createCompacted(kafka, topics);
        engine.property(KafkaBinding.CLIENT_METADATA_MAX_AGE, 300);
        final TestClient app = start(kafka);

        final TestStream stream = app.open(describeBeginEx(topic, "cleanup.policy", "retention.ms"));
        stream.await(WAIT, () -> !describeData(stream).isEmpty() || stream.reset());
        // several polls without a change: still one Data
        Thread.sleep(1_500L);
        assertEquals(1, describeData(stream).size(), () -> "data " + describeData(stream));

        try (Admin admin = kafka.admin())
        {
            final ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            final AlterConfigOp op = new AlterConfigOp(new ConfigEntry("retention.ms", "987654321"), AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(resource, List.of(op))).all().get(20, TimeUnit.SECONDS);
        }
        stream.await(WAIT, () -> describeData(stream).size() >= 2 || stream.reset());

        assertEquals(Map.of("cleanup.policy", "compact", "retention.ms", "987654321"), describeData(stream).get(1));
        Thread.sleep(1_000L);
        assertEquals(2, describeData(stream).size(), "no Data without a change");
        assertFalse(stream.reset());
    }

    @Test
    void shouldResetAnUnknownTopicWithItsError(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final TestClient app = start(kafka);

        final TestStream stream = app.open(describeBeginEx(topics.name()));
        stream.await(WAIT, stream::reset);

        assertEquals(Short.valueOf((short) 3), resetError(stream), "UNKNOWN_TOPIC_OR_PARTITION");
        assertTrue(describeData(stream).isEmpty());
    }

    private TestClient start(EmbeddedKafka kafka)
    {
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
        return TestBinding.client("app");
    }

    private static String createCompacted(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.name();
        try (Admin admin = kafka.admin())
        {
            final NewTopic compacted = new NewTopic(topic, 1, (short) 1)
                .configs(Map.of("cleanup.policy", "compact", "retention.ms", "123456789"));
            admin.createTopics(List.of(compacted)).all().get(20, TimeUnit.SECONDS);
        }
        return topic;
    }

    private static byte[] describeBeginEx(String topic, String... names)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final KafkaBeginExFW beginEx = new KafkaBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(KAFKA_TYPE_ID)
            .describe(d ->
            {
                d.topic(topic);
                for (String name : names)
                {
                    d.configsItem(c -> c.name(name));
                }
            })
            .build();
        final byte[] bytes = new byte[beginEx.sizeof()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /** The configuration of every DESCRIBE Data the stream received, in order. */
    private static List<Map<String, String>> describeData(TestStream stream)
    {
        final List<Map<String, String>> answers = new ArrayList<>();
        final List<byte[]> extensions = stream.extensions();
        for (int index : indexes(stream, "DATA"))
        {
            final byte[] bytes = extensions.get(index);
            final KafkaDataExFW dataEx = new KafkaDataExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
            final Map<String, String> configs = new LinkedHashMap<>();
            dataEx.describe().configs().forEach(c -> configs.put(c.name().asString(), c.value().asString()));
            answers.add(configs);
        }
        return answers;
    }
}
