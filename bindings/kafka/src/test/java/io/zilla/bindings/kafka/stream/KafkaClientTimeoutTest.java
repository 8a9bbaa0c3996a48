/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.metaBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.metaData;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The request timeout, against a server that accepts and never answers, and the idle close, against the real broker. */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientTimeoutTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientTimeoutTest.class);

    @Test
    void shouldFailAConnectionWhoseRequestHasNoResponse() throws Exception
    {
        try (BlackHole server = new BlackHole())
        {
            engine.property(KafkaBinding.CLIENT_REQUEST_TIMEOUT, 1_000)
                .env("KAFKA_BOOTSTRAP", "127.0.0.1:" + server.port())
                .start("client.yaml");
            final long started = System.currentTimeMillis();

            final TestStream stream = TestBinding.client("app").open(metaBeginEx("any"));
            stream.await(WAIT, () -> !events("kafka.request.timeout").isEmpty());
            final long elapsed = System.currentTimeMillis() - started;
            assertTrue(elapsed >= 1_000L, "not before the timeout: " + elapsed + " ms");
            final EngineEvent event = events("kafka.request.timeout").get(0);
            assertTrue(event.detail().contains("api 18 to node -1"), () -> "ApiVersions, the first request: " + event.detail());
            assertTrue(event.detail().contains("no response in 1000 ms"), event::detail);

            // the META stream retries a network loss: a new connection, which times out again
            stream.await(WAIT, () -> events("kafka.request.timeout").size() >= 2);
            assertFalse(stream.reset(), "META retries a lost connection");
            assertTrue(metaData(stream).isEmpty());
            assertTrue(server.accepted() >= 2, "connections the black hole accepted: " + server.accepted());
            assertTrue(counter(engine.directory(), "kafka_client", "connections.opened") >= 2);
        }
    }

    @Test
    void shouldCloseAnIdleConnectionAndOpenANewOneOnNextUse(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String first = topics.create(1);
        final String second = topics.create(2);
        engine.property(KafkaBinding.CLIENT_CONNECTIONS_MAX_IDLE, 1_000)
            .env("KAFKA_BOOTSTRAP", kafka.bootstrapServers())
            .start("client.yaml");
        final TestClient app = TestBinding.client("app");

        final TestStream one = app.open(metaBeginEx(first));
        one.await(WAIT, () -> !metaData(one).isEmpty());
        assertEquals(1, counter(engine.directory(), "tcp_client", "connections.active"));

        // the metadata max age is 5 minutes: nothing uses the control connection now
        one.await(WAIT, () -> counter(engine.directory(), "tcp_client", "connections.active") == 0);
        assertEquals(1, counter(engine.directory(), "kafka_client", "connections.idle.closed"));
        assertTrue(events("kafka.connection.closed").isEmpty(), () -> "closed quietly: " + engine.events());
        assertFalse(one.reset() || one.ended(), "the META stream goes on");

        final TestStream two = app.open(metaBeginEx(second));
        two.await(WAIT, () -> !metaData(two).isEmpty() || two.reset());
        assertEquals(2, metaData(two).get(0).size());
        assertEquals(2, counter(engine.directory(), "kafka_client", "connections.opened"), "a new control connection");
        assertEquals(2, counter(engine.directory(), "tcp_client", "connections.opened"));
    }

    private List<EngineEvent> events(String name)
    {
        return engine.events().stream().filter(e -> e.event().equals(name)).toList();
    }

    /** A server that accepts connections and never reads or writes a byte: a request to it never gets a response. */
    private static final class BlackHole implements AutoCloseable
    {
        private final ServerSocket server;
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final Thread acceptor;

        BlackHole() throws IOException
        {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(this::accept, "black-hole");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port()
        {
            return server.getLocalPort();
        }

        int accepted()
        {
            return sockets.size();
        }

        private void accept()
        {
            try
            {
                while (!server.isClosed())
                {
                    sockets.add(server.accept());
                }
            }
            catch (IOException ex)
            {
                // closed
            }
        }

        @Override
        public void close() throws IOException
        {
            server.close();
            for (Socket socket : sockets)
            {
                socket.close();
            }
        }
    }
}
