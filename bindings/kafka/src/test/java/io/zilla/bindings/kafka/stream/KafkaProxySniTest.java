/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.zilla.bindings.kafka.test.CountingRelay;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import io.zilla.specs.tls.types.stream.TlsBeginExFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kafka proxy in SNI mode against the shared real broker: streams from the test binding carry the TlsBeginEx a
 * tls server would put on them, and real Kafka requests. The proxy's bootstrap server is a relay that counts its
 * connections, so that a test can tell a connection that went to the bootstrap server from one that went to node 1.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxySniTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int TLS_TYPE_ID = "tls".hashCode();
    private static final int TCP_TYPE_ID = "tcp".hashCode();
    private static final int PORT = 9093;
    private static final String BOOTSTRAP = "bootstrap.kafka.test";
    private static final String BROKER_1 = "broker-1.kafka.test";
    private static final short METADATA_VERSION = 12;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaProxySniTest.class);

    @Test
    void shouldAdvertiseEveryBrokerByItsNameOnTheOnePort(EmbeddedKafka kafka) throws Exception
    {
        try (CountingRelay relay = new CountingRelay(kafka.port()))
        {
            final TestClient app = start(relay);

            final TestStream stream = app.open(tlsBeginEx(BOOTSTRAP));
            final byte[] response = exchange(app, stream, metadataRequest(1), 0);
            final MetadataResponse metadata = (MetadataResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(response),
                metadataHeader(1));

            assertEquals(List.of(new Node(1, BROKER_1, PORT)), List.copyOf(metadata.brokers()));
            assertNeverTheBrokersAddress(kafka, response);
            assertEquals(1, relay.connections(), "the bootstrap name went to the bootstrap server");

            // the first FindCoordinator of a broker creates __consumer_offsets, answered COORDINATOR_NOT_AVAILABLE meanwhile
            final long deadline = System.nanoTime() + WAIT.toNanos();
            int offset = response.length + Integer.BYTES;
            int correlationId = 2;
            byte[] coordinator;
            FindCoordinatorResponseData.Coordinator found;
            do
            {
                coordinator = exchange(app, stream, findCoordinatorRequest(correlationId), offset);
                found = ((FindCoordinatorResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(coordinator),
                    findCoordinatorHeader(correlationId))).data().coordinators().get(0);
                offset += coordinator.length + Integer.BYTES;
                correlationId++;
            }
            while (found.errorCode() != 0 && System.nanoTime() < deadline && sleep(100));
            assertEquals(0, found.errorCode(), found::toString);
            assertEquals(1, found.nodeId());
            assertEquals(BROKER_1, found.host());
            assertEquals(PORT, found.port());
            assertNeverTheBrokersAddress(kafka, coordinator);
            assertFalse(stream.reset());
        }
    }

    @Test
    void shouldReachTheNodeTheServerNameNames(EmbeddedKafka kafka) throws Exception
    {
        try (CountingRelay relay = new CountingRelay(kafka.port()))
        {
            final TestClient app = start(relay);

            // node 1 not known yet: the proxy looks the cluster up through the bootstrap server, then goes to node 1
            final TestStream first = app.open(tlsBeginEx(BROKER_1.toUpperCase(Locale.ROOT)));
            final byte[] response = exchange(app, first, metadataRequest(1), 0);
            assertEquals(List.of(new Node(1, BROKER_1, PORT)), List.copyOf(((MetadataResponse) AbstractResponse.parseResponse(
                ByteBuffer.wrap(response), metadataHeader(1))).brokers()));
            assertEquals(1, relay.connections(), "only the lookup went to the bootstrap server");

            // node 1 known: straight there
            final TestStream second = app.open(tlsBeginEx(BROKER_1));
            exchange(app, second, metadataRequest(1), 0);
            assertEquals(1, relay.connections(), "node 1's connection did not go to the bootstrap server");

            // no server name, and a stream without TLS: the bootstrap server
            final TestStream unnamed = app.open(tlsBeginEx(null));
            exchange(app, unnamed, metadataRequest(1), 0);
            assertEquals(2, relay.connections());
            final TestStream plain = app.open(tcpBeginEx());
            exchange(app, plain, metadataRequest(1), 0);
            assertEquals(3, relay.connections());
        }
    }

    @Test
    void shouldCloseAConnectionWhoseServerNameIsNeitherBootstrapNorBroker(EmbeddedKafka kafka) throws Exception
    {
        try (CountingRelay relay = new CountingRelay(kafka.port()))
        {
            final TestClient app = start(relay);

            for (String name : List.of("kafka.other.test", "broker-01.kafka.test", "broker-x.kafka.test",
                "broker-1.kafka.test.example.com", "forged\nevent.kafka.test"))
            {
                final TestStream stream = app.open(tlsBeginEx(name));
                stream.await(WAIT, stream::reset);
                assertTrue(stream.frames().stream().noneMatch(f -> f.startsWith("DATA")), stream.frames()::toString);
            }

            final List<EngineEvent> events = awaitEvents("kafka.sni.unknown", 5);
            assertEquals(5, events.size(), engine.events()::toString);
            assertTrue(events.get(0).detail().contains("kafka.other.test"), events.get(0)::detail);
            assertTrue(events.get(4).detail().contains("forged?event.kafka.test"), events.get(4)::detail);
            assertEquals(5, counter(engine.directory(), "north_kafka_proxy", "sni.unknown"));
            assertEquals(0, relay.connections(), "no connection toward a broker");

            // the proxy goes on: a broker's name still works
            final TestStream stream = app.open(tlsBeginEx(BROKER_1));
            exchange(app, stream, metadataRequest(1), 0);
        }
    }

    @Test
    void shouldCloseAConnectionToANodeTheClusterDoesNotHave(EmbeddedKafka kafka) throws Exception
    {
        try (CountingRelay relay = new CountingRelay(kafka.port()))
        {
            final TestClient app = start(relay);

            final TestStream stream = app.open(tlsBeginEx("broker-2.kafka.test"));
            stream.await(WAIT, stream::reset);

            assertEquals(1, awaitEvents("kafka.broker.unknown", 1).size(), engine.events()::toString);
            assertEquals(1, relay.connections(), "the lookup asked the bootstrap server");
        }
    }

    // events reach the test after the worker raised them
    private List<EngineEvent> awaitEvents(String name, int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        List<EngineEvent> events = List.of();
        while (events.size() < count && System.nanoTime() < deadline)
        {
            Thread.sleep(20);
            events = engine.events().stream().filter(e -> name.equals(e.event())).toList();
        }
        return events;
    }

    private static boolean sleep(long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
        return true;
    }

    private TestClient start(CountingRelay relay)
    {
        engine.env("KAFKA_BOOTSTRAP", relay.address()).start("proxy.sni.yaml");
        return TestBinding.client("app");
    }

    // sends one request and waits for its whole response, which starts at offset of the bytes the stream received
    private static byte[] exchange(TestClient app, TestStream stream, ByteBuffer request, int offset)
    {
        final byte[] frame = ByteBuffer.allocate(Integer.BYTES + request.remaining())
            .putInt(request.remaining()).put(request).array();
        app.write(stream, frame);
        stream.await(WAIT, () -> stream.reset() || complete(stream.received(), offset));
        assertFalse(stream.reset(), stream.frames()::toString);
        final ByteBuffer received = ByteBuffer.wrap(stream.received());
        final int size = received.getInt(offset);
        final byte[] response = new byte[size];
        received.get(offset + Integer.BYTES, response);
        return response;
    }

    private static boolean complete(byte[] received, int offset)
    {
        return received.length >= offset + Integer.BYTES
            && received.length >= offset + Integer.BYTES + ByteBuffer.wrap(received).getInt(offset);
    }

    private static void assertNeverTheBrokersAddress(EmbeddedKafka kafka, byte[] response)
    {
        final String text = new String(response, US_ASCII);
        assertFalse(text.contains("127.0.0.1"), text);
        assertFalse(text.contains("localhost"), text);
        // the broker's port as Metadata and FindCoordinator write it: a big-endian int32
        final byte[] port = ByteBuffer.allocate(Integer.BYTES).putInt(kafka.port()).array();
        assertEquals(-1, indexOf(response, port), text);
    }

    private static int indexOf(byte[] bytes, byte[] part)
    {
        int found = -1;
        for (int i = 0; found == -1 && i + part.length <= bytes.length; i++)
        {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length))
            {
                found = i;
            }
        }
        return found;
    }

    private static ByteBuffer metadataRequest(int correlationId)
    {
        return new MetadataRequest(new MetadataRequestData().setTopics(null), METADATA_VERSION)
            .serializeWithHeader(metadataHeader(correlationId));
    }

    private static RequestHeader metadataHeader(int correlationId)
    {
        return new RequestHeader(ApiKeys.METADATA, METADATA_VERSION, "sni-test", correlationId);
    }

    private static ByteBuffer findCoordinatorRequest(int correlationId)
    {
        final RequestHeader header = findCoordinatorHeader(correlationId);
        final AbstractRequest request = new FindCoordinatorRequest.Builder(new FindCoordinatorRequestData()
            .setKeyType((byte) 0).setCoordinatorKeys(List.of("sni-group"))).build(header.apiVersion());
        return request.serializeWithHeader(header);
    }

    private static RequestHeader findCoordinatorHeader(int correlationId)
    {
        return new RequestHeader(ApiKeys.FIND_COORDINATOR, (short) 4, "sni-test", correlationId);
    }

    // what a tls server puts on the Begin toward its exit once the handshake is done
    private static byte[] tlsBeginEx(String serverName)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
        final TlsBeginExFW beginEx = new TlsBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(TLS_TYPE_ID)
            .authority(serverName)
            .alpn((String) null)
            .sourceHost("127.0.0.1")
            .sourcePort(50000)
            .destinationHost("127.0.0.1")
            .destinationPort(PORT)
            .build();
        final byte[] bytes = new byte[beginEx.sizeof()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    private static byte[] tcpBeginEx()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
        final TcpBeginExFW beginEx = new TcpBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(TCP_TYPE_ID)
            .sourceHost("127.0.0.1")
            .sourcePort(50001)
            .destinationHost("127.0.0.1")
            .destinationPort(PORT)
            .build();
        final byte[] bytes = new byte[beginEx.sizeof()];
        buffer.getBytes(0, bytes);
        return bytes;
    }
}
