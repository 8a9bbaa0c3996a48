/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.stream.KafkaRequestScanner.MALFORMED;
import static io.zilla.bindings.kafka.stream.KafkaRequestScanner.NO_REQUEST;
import static io.zilla.bindings.kafka.stream.KafkaRequestScanner.UNSUPPORTED;
import static io.zilla.bindings.kafka.stream.KafkaRequestScanner.VALID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.codec.RequestHeaderDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class KafkaRequestScannerTest
{
    private final KafkaRequestScanner scanner = new KafkaRequestScanner(new RequestHeaderDecoder(), 1024 * 1024);

    @Test
    void shouldRememberEachRequestWhateverTheSplit()
    {
        final byte[] bytes = concat(
            request(KafkaApis.METADATA, 12, 7, "client", new byte[40]),
            produce(9, 8, "producer-1", -1),
            request(KafkaApis.FETCH, 15, 9, "consumer", new byte[300]));
        for (int split = 1; split < bytes.length; split++)
        {
            final KafkaRequestScanner fresh = new KafkaRequestScanner(new RequestHeaderDecoder(), 1024 * 1024);
            final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
            assertEquals(VALID, fresh.scan(buffer, 0, split));
            assertEquals(VALID, fresh.scan(buffer, split, bytes.length));
            assertFalse(fresh.midRequest());
            assertEquals(KafkaApis.METADATA << 16 | 12, fresh.take(7));
            assertEquals(KafkaApis.PRODUCE << 16 | 9, fresh.take(8));
            assertEquals(KafkaApis.FETCH << 16 | 15, fresh.take(9));
            assertEquals(NO_REQUEST, fresh.take(9));
        }
    }

    @Test
    void shouldNotRememberProduceWithAcksZero()
    {
        for (int version = 3; version <= KafkaRequestScanner.PRODUCE_MAX_VERSION; version++)
        {
            final byte[] bytes = concat(produce(version, 1, "p", 0), produce(version, 2, "p", 1), produce(version, 3, "p", -1));
            assertEquals(VALID, scanner.scan(new UnsafeBuffer(bytes), 0, bytes.length));
            assertEquals(NO_REQUEST, scanner.take(1), "acks=0 in v" + version);
            assertEquals(KafkaApis.PRODUCE << 16 | version, scanner.take(2));
            assertEquals(KafkaApis.PRODUCE << 16 | version, scanner.take(3));
            assertFalse(scanner.awaitingResponses());
        }
    }

    @Test
    void shouldRememberProduceWhoseAcksAreBeyondThePrefix()
    {
        final byte[] bytes = produce(8, 4, "c".repeat(1000), 0);
        assertEquals(VALID, scanner.scan(new UnsafeBuffer(bytes), 0, bytes.length));
        assertEquals(KafkaApis.PRODUCE << 16 | 8, scanner.take(4));
    }

    @Test
    void shouldRejectLengthsOutOfRange()
    {
        assertEquals(MALFORMED, scan(ByteBuffer.allocate(4).putInt(-1).array()));
        assertEquals(MALFORMED, scan(ByteBuffer.allocate(4).putInt(7).array()));
        assertEquals(MALFORMED, scan(ByteBuffer.allocate(4).putInt(1024 * 1024 + 1).array()));
    }

    @Test
    void shouldRejectNegativeApiKeyOrVersion()
    {
        assertEquals(MALFORMED, scan(request(-1, 0, 1, "c", new byte[0])));
        assertEquals(MALFORMED, scan(request(KafkaApis.METADATA, -3, 1, "c", new byte[0])));
    }

    @Test
    void shouldRejectHeaderLongerThanItsFrame()
    {
        final byte[] bytes = request(KafkaApis.METADATA, 12, 1, "client", new byte[0]);
        ByteBuffer.wrap(bytes).putShort(12, (short) 100);
        assertEquals(MALFORMED, scan(bytes));
    }

    @Test
    void shouldRefuseVersionsNotOffered()
    {
        assertEquals(UNSUPPORTED, scan(produce(10, 1, "p", -1)));
        assertEquals(UNSUPPORTED, scan(request(KafkaApis.FETCH, 16, 1, "c", new byte[0])));
        assertEquals(UNSUPPORTED, scan(request(KafkaApis.SASL_HANDSHAKE, 0, 1, "c", new byte[0])));
        assertEquals(VALID, scan(request(KafkaApis.SASL_HANDSHAKE, 1, 1, "c", new byte[2])));
    }

    @Test
    void shouldKnowWhenStoppedInsideRequest()
    {
        final byte[] bytes = request(KafkaApis.METADATA, 12, 1, "client", new byte[10]);
        assertEquals(VALID, scanner.scan(new UnsafeBuffer(bytes), 0, 7));
        assertTrue(scanner.midRequest());
        assertEquals(VALID, scanner.scan(new UnsafeBuffer(bytes), 7, bytes.length));
        assertFalse(scanner.midRequest());
    }

    private int scan(byte[] bytes)
    {
        return new KafkaRequestScanner(new RequestHeaderDecoder(), 1024 * 1024).scan(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    // a request with header v1, or v2 (an empty tagged-field section) for flexible versions
    private static byte[] request(int apiKey, int apiVersion, int correlationId, String clientId, byte[] body)
    {
        final boolean flexible = apiKey >= 0 && apiVersion >= 0 && KafkaApis.isFlexible(apiKey, apiVersion);
        final int size = 2 + 2 + 4 + 2 + clientId.length() + (flexible ? 1 : 0) + body.length;
        final ByteBuffer buffer = ByteBuffer.allocate(4 + size)
            .putInt(size)
            .putShort((short) apiKey)
            .putShort((short) apiVersion)
            .putInt(correlationId)
            .putShort((short) clientId.length())
            .put(clientId.getBytes());
        if (flexible)
        {
            buffer.put((byte) 0);
        }
        return buffer.put(body).array();
    }

    // a Produce request with a null transactional id and these acks, then a stand-in for its topic data
    private static byte[] produce(int apiVersion, int correlationId, String clientId, int acks)
    {
        final ByteBuffer body = ByteBuffer.allocate(64);
        if (apiVersion >= 9)
        {
            body.put((byte) 0);
        }
        else if (apiVersion >= 3)
        {
            body.putShort((short) -1);
        }
        body.putShort((short) acks).putInt(30_000);
        return request(KafkaApis.PRODUCE, apiVersion, correlationId, clientId, body.array());
    }

    private static byte[] concat(byte[]... parts)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] part : parts)
        {
            buffer.put(part);
        }
        return buffer.array();
    }
}
