/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.metaBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.metaData;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A "broker" that answers the first request with a response of length -1 (a fault injected on a raw socket, not a
 * Kafka peer): the kafka client resets the META stream that waited on that connection with CORRUPT_MESSAGE, reports
 * an event and counts it, and another kafka client binding on the same worker goes on with the real broker.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientMalformedTest
{
    private static final Duration WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientMalformedTest.class);

    @Test
    void shouldResetTheStreamsOfAConnectionWithAMalformedResponse(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(2);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final Thread broker = new Thread(() -> answerGarbage(server), "malformed-broker");
            broker.setDaemon(true);
            broker.start();
            engine.env("BAD_BROKER", "127.0.0.1:" + server.getLocalPort())
                .env("KAFKA_BOOTSTRAP", kafka.bootstrapServers())
                .start("client.malformed.yaml");

            final TestStream bad = TestBinding.client("app").open(metaBeginEx(topic));
            bad.await(WAIT, bad::reset);
            assertEquals(Short.valueOf((short) 2), resetError(bad), "CORRUPT_MESSAGE");
            bad.await(WAIT, () -> engine.events().stream().anyMatch(e -> e.event().equals("kafka.response.malformed")));
            assertEquals(1, counter(engine.directory(), "kafka_client", "responses.malformed"));

            final TestStream good = TestBinding.client("app_good").open(metaBeginEx(topic));
            good.await(WAIT, () -> !metaData(good).isEmpty());
            assertEquals(2, metaData(good).get(0).size());
            assertEquals(0, counter(engine.directory(), "kafka_good_client", "responses.malformed"));
        }
    }

    private static void answerGarbage(ServerSocket server)
    {
        try (Socket socket = server.accept())
        {
            final InputStream in = socket.getInputStream();
            final int size = new DataInputStream(in).readInt();
            in.readNBytes(size);
            final OutputStream out = socket.getOutputStream();
            out.write(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 0});
            out.flush();
            // keep the connection open: the client closes it
            in.read();
        }
        catch (Exception ex)
        {
            // the test fails on what the client saw, not here
        }
    }
}
