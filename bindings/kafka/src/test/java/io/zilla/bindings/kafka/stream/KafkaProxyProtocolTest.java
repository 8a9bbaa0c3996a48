/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaProxyFixture.ADVERTISED_HOST;
import static io.zilla.bindings.kafka.test.KafkaProxyFixture.LOOPBACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.codec.KafkaApis;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The proxy's protocol rules, with raw frames where clients would never send them, against a real broker. */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyProtocolTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    @Test
    void shouldAnswerApiVersionsNewerThanProxyKnowsAsKip511Says(EmbeddedKafka kafka) throws Exception
    {
        proxy.start(kafka);
        try (Socket socket = new Socket(LOOPBACK, proxy.bootstrapPort()))
        {
            socket.setSoTimeout(20_000);
            final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            // ApiVersions v127, header v2 with client id "future" and no tags, and a body this proxy cannot know
            final byte[] clientId = "future".getBytes();
            out.writeInt(2 + 2 + 4 + 2 + clientId.length + 1 + 3);
            out.writeShort(KafkaApis.API_VERSIONS);
            out.writeShort(127);
            out.writeInt(42);
            out.writeShort(clientId.length);
            out.write(clientId);
            out.write(new byte[] {0, 1, 1, 0});
            out.flush();

            final DataInputStream in = new DataInputStream(socket.getInputStream());
            final byte[] response = new byte[in.readInt()];
            in.readFully(response);
            final ByteBuffer buffer = ByteBuffer.wrap(response);
            assertEquals(42, buffer.getInt());
            final ApiVersionsResponseData body = new ApiVersionsResponseData(new ByteBufferAccessor(buffer), (short) 0);
            assertEquals(35, body.errorCode());
            assertEquals(KafkaRequestScanner.PRODUCE_MAX_VERSION, body.apiKeys().find(KafkaApis.PRODUCE).maxVersion());
            assertEquals(KafkaRequestScanner.FETCH_MAX_VERSION, body.apiKeys().find(KafkaApis.FETCH).maxVersion());
            assertEquals(1, body.apiKeys().find(KafkaApis.SASL_HANDSHAKE).minVersion());
        }
    }

    @Test
    void shouldCloseConnectionSendingProduceVersionNotOffered(EmbeddedKafka kafka) throws Exception
    {
        proxy.start(kafka);
        try (Socket socket = new Socket(LOOPBACK, proxy.bootstrapPort()))
        {
            socket.setSoTimeout(20_000);
            final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(2 + 2 + 4 + 2 + 1 + 16);
            out.writeShort(KafkaApis.PRODUCE);
            out.writeShort(KafkaRequestScanner.PRODUCE_MAX_VERSION + 2);
            out.writeInt(1);
            out.writeShort(-1);
            out.write(new byte[1 + 16]);
            out.flush();
            assertClosed(new DataInputStream(socket.getInputStream()));
        }
        assertTrue(proxy.awaitEvent("kafka.request.unsupported", 10));
    }

    @Test
    void shouldProduceWithAcksZero(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.create(4);
        final int count = 500;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(proxy.clientConfig(Map.of(
            ProducerConfig.ACKS_CONFIG, "0",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))))
        {
            for (int i = 0; i < count; i++)
            {
                producer.send(new ProducerRecord<>(topic, "key-" + i, "value-" + i));
            }
            producer.flush();
        }
        final Map<String, String> received = consumeAll(topic, count);
        assertEquals(count, received.size());
        received.forEach((key, value) -> assertEquals("value-" + key.substring(4), value));
    }

    @Test
    void shouldProduceWithAcksZeroAndALongClientId(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        // a client id of 1000 bytes puts acks beyond what the scanner copies: Produce must leave nothing behind, or
        // more than MAX_PENDING of them (one request each, never answered) would close the connection
        proxy.start(kafka);
        final String topic = topics.create(1);
        final int count = KafkaRequestScanner.MAX_PENDING + 100;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(proxy.clientConfig(Map.of(
            ProducerConfig.ACKS_CONFIG, "0",
            ProducerConfig.CLIENT_ID_CONFIG, "c".repeat(1000),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))))
        {
            for (int i = 0; i < count; i++)
            {
                producer.send(new ProducerRecord<>(topic, "key-" + i, "value-" + i));
                // a Produce request each
                producer.flush();
            }
        }
        assertEquals(count, consumeAll(topic, count).size());
        assertEquals(0, proxy.eventCount("kafka.requests.backlogged"), engine.events().toString());
    }

    @Test
    void shouldCloseConnectionSendingMetadataRequestsWithoutReadingTheAnswers(EmbeddedKafka kafka) throws Exception
    {
        proxy.start(kafka);
        try (Socket socket = new Socket(LOOPBACK, proxy.bootstrapPort()))
        {
            socket.setSoTimeout(20_000);
            // Metadata v4 (all topics, no auto-creation) four times the maximum over, in one write, none read
            final ByteBuffer requests = ByteBuffer.allocate(4 * KafkaRequestScanner.MAX_PENDING * 20);
            for (int i = 0; i < 4 * KafkaRequestScanner.MAX_PENDING; i++)
            {
                requests.putInt(16).putShort((short) KafkaApis.METADATA).putShort((short) 4).putInt(i)
                    .putShort((short) 1).put((byte) 'c').putInt(-1).put((byte) 0);
            }
            try
            {
                socket.getOutputStream().write(requests.array());
            }
            catch (IOException ex)
            {
                // closed before it took them all
            }
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            final byte[] skipped = new byte[8192];
            try
            {
                while (in.read(skipped) != -1)
                {
                    // the answers that came before the close
                }
            }
            catch (IOException ex)
            {
                // reset by the proxy: closed as well
            }
        }
        assertTrue(proxy.awaitEvent("kafka.requests.backlogged", 10), engine.events().toString());
        assertEquals(0, proxy.eventCount("engine.stream.failed"), engine.events().toString());
    }

    @Test
    void shouldRewriteMetadataLargerThanBufferSlot(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        // 2 KiB slots: the Metadata of 3 topics of 64 partitions is several times that
        engine.property("zilla.engine.buffer.slot.capacity", 2048);
        proxy.start(kafka);
        final List<String> names = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            names.add(topics.create(64));
        }
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(proxy.clientConfig(Map.of(
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))))
        {
            // Metadata for every topic of the broker, each partition with its leader's address rewritten
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            Map<String, List<PartitionInfo>> listed = consumer.listTopics(Duration.ofSeconds(20));
            while (!listed.keySet().containsAll(names) && System.nanoTime() < deadline)
            {
                Thread.sleep(200);
                listed = consumer.listTopics(Duration.ofSeconds(20));
            }
            for (String name : names)
            {
                final List<PartitionInfo> partitions = listed.get(name);
                assertNotNull(partitions, name);
                assertEquals(64, partitions.size());
                for (PartitionInfo partition : partitions)
                {
                    assertEquals(ADVERTISED_HOST, partition.leader().host());
                    assertEquals(proxy.nodePort(), partition.leader().port());
                }
            }
        }
    }

    /** The topic's records through the proxy, key to value, read from the earliest until {@code count} or a minute. */
    private Map<String, String> consumeAll(String topic, int count)
    {
        final Map<String, String> received = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(proxy.clientConfig(Map.of(
            ConsumerConfig.GROUP_ID_CONFIG, topic,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))))
        {
            consumer.subscribe(List.of(topic));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received.size() < count && System.nanoTime() < deadline)
            {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> received.put(record.key(), record.value()));
            }
        }
        return received;
    }

    private static void assertClosed(DataInputStream in)
    {
        boolean closed;
        try
        {
            closed = in.read() == -1;
        }
        catch (EOFException ex)
        {
            closed = true;
        }
        catch (IOException ex)
        {
            // reset by the proxy: closed as well
            closed = true;
        }
        assertTrue(closed);
    }
}
