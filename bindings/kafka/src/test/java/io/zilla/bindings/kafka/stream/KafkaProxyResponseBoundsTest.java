/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaProxyFixture.LOOPBACK;
import static io.zilla.bindings.kafka.test.RawSockets.readOrClosed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.test.CraftedBroker;
import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.codec.KafkaApis;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Lengths out of range in the responses the proxy reads (each response's size, and in the four it rewrites their
 * header's tagged fields, arrays and strings): a broker in front of which {@link CraftedBroker} answers some
 * connections with crafted bytes. Each such connection is closed with {@code kafka.frame.malformed}, never by an
 * exception the engine caught, while a producer through the same proxy and relay keeps getting acknowledgements; a
 * broker lookup answered with a size out of range gives up with {@code kafka.broker.unknown}.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyResponseBoundsTest
{
    private static final byte[] VARUINT_2_31 = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08};

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);
    private CraftedBroker broker;

    @AfterEach
    void closeBroker() throws IOException
    {
        if (broker != null)
        {
            broker.close();
        }
    }

    @Test
    void shouldCloseConnectionsWhoseResponsesHaveLengthsOutOfRange(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        broker = new CraftedBroker(kafka.bootstrapServers());
        // ApiVersions v3 (18): response header v0; Metadata v12 (3), DescribeCluster v0 (60), FindCoordinator v4 (10):
        // header v1 (tagged fields); ListOffsets v1 (2): passed through, not rewritten
        final Map<String, Crafted> cases = Map.of(
            "size-max", new Crafted(18, 3, bytes(0x7fffffff, 0, 0)),
            "size-negative", new Crafted(18, 3, bytes(0x80000000, 0, 0)),
            "size-short", new Crafted(18, 3, bytes(2, 0, 0)),
            "size-over-passed", new Crafted(2, 1, bytes(100 * 1024 * 1024 + 1, 0, 0)),
            "api-keys-count", new Crafted(18, 3, frame(concat(new byte[] {0, 0}, VARUINT_2_31))),
            "header-tagged-fields", new Crafted(3, 12, frame(VARUINT_2_31)),
            "brokers-count", new Crafted(3, 12, frame(concat(new byte[] {0, 0, 0, 0, 0}, VARUINT_2_31))),
            "error-message-length", new Crafted(60, 0, frame(concat(new byte[] {0, 0, 0, 0, 0, 0, 0}, VARUINT_2_31))),
            "coordinators-count", new Crafted(10, 4, frame(concat(new byte[] {0, 0, 0, 0, 0}, VARUINT_2_31))));
        cases.forEach((name, crafted) -> broker.craft(name, crafted.response));
        proxy.start(broker.address());

        final String topic = topics.name();
        kafka.createTopic(topic, 1);
        try (KafkaProducer<String, String> producer = producer())
        {
            producer.send(new ProducerRecord<>(topic, "before", "before")).get(30, TimeUnit.SECONDS);
            for (Map.Entry<String, Crafted> entry : cases.entrySet())
            {
                try (Socket socket = new Socket(LOOPBACK, proxy.bootstrapPort()))
                {
                    socket.setSoTimeout(15_000);
                    socket.getOutputStream().write(request(entry.getValue().apiKey, entry.getValue().apiVersion,
                        "crafted-" + entry.getKey()));
                    assertEquals(-1, readOrClosed(socket.getInputStream()), entry.getKey() + ": the proxy closes the connection");
                }
                producer.send(new ProducerRecord<>(topic, entry.getKey(), entry.getKey())).get(30, TimeUnit.SECONDS);
            }
        }
        assertEquals(cases.size(), broker.answered());
        assertTrue(proxy.awaitEvents("kafka.frame.malformed", cases.size(), 10), engine.events().toString());
        assertEquals(0, proxy.eventCount("engine.stream.failed"), engine.events().toString());
    }

    @Test
    void shouldGiveUpALookupWhoseResponseSizeIsOutOfRange(EmbeddedKafka kafka) throws Exception
    {
        broker = new CraftedBroker(kafka.bootstrapServers());
        broker.craft("zilla-proxy", bytes(0x7ffffffd, 0, 0));
        proxy.start(broker.address());

        // node 1's port before any Metadata went through: the proxy looks the node up, and the answer is refused
        try (Socket socket = new Socket(LOOPBACK, proxy.nodePort()))
        {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(request(18, 3, "client"));
            assertEquals(-1, readOrClosed(socket.getInputStream()), "the proxy closes the connection");
        }
        assertTrue(proxy.awaitEvent("kafka.broker.unknown", 10), engine.events().toString());
        assertEquals(1, broker.answered());
        assertEquals(0, proxy.eventCount("engine.stream.failed"), engine.events().toString());
    }

    private record Crafted(int apiKey, int apiVersion, byte[] response)
    {
    }

    private KafkaProducer<String, String> producer()
    {
        return new KafkaProducer<>(proxy.clientConfig(Map.of(
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName())));
    }

    // a request with header v1 (v2, with no tagged fields, when flexible) and eight bytes of body
    private static byte[] request(int apiKey, int apiVersion, String clientId) throws IOException
    {
        final boolean flexible = KafkaApis.isFlexible(apiKey, apiVersion);
        final byte[] name = clientId.getBytes(StandardCharsets.US_ASCII);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(2 + 2 + 4 + 2 + name.length + (flexible ? 1 : 0) + 8);
        out.writeShort(apiKey);
        out.writeShort(apiVersion);
        out.writeInt(1);
        out.writeShort(name.length);
        out.write(name);
        if (flexible)
        {
            out.writeByte(0);
        }
        out.write(new byte[8]);
        return bytes.toByteArray();
    }

    // a response frame: its size, a correlation id (the relay writes the request's), then the body
    private static byte[] frame(byte[] body)
    {
        final byte[] frame = new byte[2 * Integer.BYTES + body.length];
        ByteBuffer.wrap(frame).putInt(Integer.BYTES + body.length).putInt(0).put(body);
        return frame;
    }

    private static byte[] bytes(int... ints)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(ints.length * Integer.BYTES);
        for (int value : ints)
        {
            buffer.putInt(value);
        }
        return buffer.array();
    }

    private static byte[] concat(byte[] first, byte[] second)
    {
        final byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
