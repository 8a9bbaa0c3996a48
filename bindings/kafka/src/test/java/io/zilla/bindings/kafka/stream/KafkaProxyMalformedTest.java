/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaProxyFixture.LOOPBACK;
import static io.zilla.bindings.kafka.test.RawSockets.readOrClosed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Malformed request frames from a raw socket close that connection with a {@code kafka.frame.malformed} event, while
 * a producer on another connection keeps getting every send acknowledged.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyMalformedTest
{
    private static final String MALFORMED = "kafka.frame.malformed";
    private static final String STREAM_FAILED = "engine.stream.failed";
    private static final int PARTITIONS = 4;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    enum Malformed
    {
        // a length of -1 (read as null octets by FrameFW) and another negative length
        NULL_LENGTH(socket -> out(socket).writeInt(-1)),
        NEGATIVE_LENGTH(socket -> out(socket).writeInt(-2)),
        // a length shorter than the 8-byte request header
        SHORT_LENGTH(socket -> out(socket).writeInt(4)),
        // a length of 8 (a whole header), then only 3 bytes of it, then the client half-closes
        TRUNCATED_HEADER(socket ->
        {
            final DataOutputStream out = out(socket);
            out.writeInt(8);
            out.write(new byte[] {0, 3, 0});
            out.flush();
            socket.shutdownOutput();
        }),
        // a whole header with api key -1
        NEGATIVE_API_KEY(socket ->
        {
            final DataOutputStream out = out(socket);
            out.writeInt(8);
            out.writeShort(-1);
            out.writeShort(0);
            out.writeInt(7);
        }),
        // issue 21: a Produce v9 whose transactional id's compact length is 2^31 (80 80 80 80 08)
        PRODUCE_TRANSACTIONAL_ID_OVERFLOW(socket -> flexibleRequest(socket, 0, 9, new byte[0],
            new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08, 0, 0, 0, 0, 0x75, 0x30})),
        // a Metadata v12 whose header's tagged fields count 2^31
        TAGGED_FIELDS_OVERFLOW(socket -> flexibleRequest(socket, 3, 12,
            new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08}, new byte[8]));

        private final RawClient client;

        Malformed(RawClient client)
        {
            this.client = client;
        }
    }

    @FunctionalInterface
    interface RawClient
    {
        void send(Socket socket) throws IOException;
    }

    @ParameterizedTest
    @EnumSource(Malformed.class)
    void shouldCloseMalformedConnectionAndKeepProducing(Malformed malformed, EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        proxy.start(kafka);
        // one topic per case: every invocation of a parameterized test gets the same KafkaTopics prefix
        final String topic = topics.name() + "-" + malformed;
        kafka.createTopic(topic, PARTITIONS);
        final AtomicBoolean running = new AtomicBoolean(true);
        final ExecutorService executor = Executors.newSingleThreadExecutor();
        try
        {
            final AtomicInteger acks = new AtomicInteger();
            final Future<List<RecordMetadata>> producing = executor.submit(() -> produceUntilStopped(topic, running, acks));
            awaitAcks(acks, 1);

            for (int events = 1; events <= 2; events++)
            {
                try (Socket socket = new Socket(LOOPBACK, proxy.bootstrapPort()))
                {
                    socket.setSoTimeout(15_000);
                    malformed.client.send(socket);
                    assertEquals(-1, readOrClosed(socket.getInputStream()), "the proxy closes the connection");
                }
                assertTrue(proxy.awaitEvents(MALFORMED, events, 10), "event " + MALFORMED + " number " + events);
                assertEquals(events, proxy.eventCount(MALFORMED));
            }
            // refused by the proxy's own checks, not by an exception the engine caught
            assertEquals(0, proxy.eventCount(STREAM_FAILED), engine.events().toString());

            // the producer keeps going after the bad connections
            awaitAcks(acks, acks.get() + 10);
            running.set(false);
            final List<RecordMetadata> acknowledged = producing.get(60, TimeUnit.SECONDS);
            assertTrue(acknowledged.size() > 1);
            assertEquals(acknowledged.size(), endOffsets(topic, kafka), "every acknowledged record is in the log, once");
        }
        finally
        {
            running.set(false);
            executor.shutdownNow();
            assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    // sends one record at a time, each acknowledged before the next, until stopped
    private List<RecordMetadata> produceUntilStopped(String topic, AtomicBoolean running, AtomicInteger acks)
        throws Exception
    {
        final List<RecordMetadata> acknowledged = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(proxy.clientConfig(Map.of(
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))))
        {
            int i = 0;
            while (running.get())
            {
                final RecordMetadata metadata = producer.send(new ProducerRecord<>(topic, i % PARTITIONS, "key-" + i,
                    "value-" + i)).get(30, TimeUnit.SECONDS);
                acknowledged.add(metadata);
                acks.incrementAndGet();
                i++;
                Thread.sleep(10);
            }
        }
        return acknowledged;
    }

    private static void awaitAcks(AtomicInteger acks, int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (acks.get() < count && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertTrue(acks.get() >= count, "the producer got " + acks.get() + " of " + count + " acknowledgements");
    }

    private static long endOffsets(String topic, EmbeddedKafka kafka) throws Exception
    {
        final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int partition = 0; partition < PARTITIONS; partition++)
        {
            latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
        }
        long total = 0;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers())))
        {
            for (ListOffsetsResultInfo info : admin.listOffsets(latest).all().get(20, TimeUnit.SECONDS).values())
            {
                total += info.offset();
            }
        }
        return total;
    }

    // a request with header v2: api key, version, correlation id 7, client id "c", these tagged fields (none: a 0)
    private static void flexibleRequest(Socket socket, int apiKey, int apiVersion, byte[] taggedFields, byte[] body)
        throws IOException
    {
        final byte[] fields = taggedFields.length > 0 ? taggedFields : new byte[1];
        final DataOutputStream out = out(socket);
        out.writeInt(2 + 2 + 4 + 2 + 1 + fields.length + body.length);
        out.writeShort(apiKey);
        out.writeShort(apiVersion);
        out.writeInt(7);
        out.writeShort(1);
        out.writeByte('c');
        out.write(fields);
        out.write(body);
        out.flush();
    }

    private static DataOutputStream out(Socket socket) throws IOException
    {
        return new DataOutputStream(socket.getOutputStream());
    }
}
