/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.stream.KafkaRequestScanner.BACKLOGGED;
import static io.zilla.bindings.kafka.stream.KafkaRequestScanner.MALFORMED;
import static io.zilla.bindings.kafka.stream.KafkaRequestScanner.NO_REQUEST;
import static io.zilla.bindings.kafka.stream.KafkaRequestScanner.OVERSIZED;
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
    void shouldRememberTheRequestsWhoseResponsesAreRewrittenWhateverTheSplit()
    {
        final byte[] bytes = concat(
            request(KafkaApis.METADATA, 12, 7, "client", new byte[40]),
            produce(9, 8, "producer-1", -1),
            request(KafkaApis.FETCH, 15, 9, "consumer", new byte[300]),
            request(KafkaApis.API_VERSIONS, 3, 10, "client", new byte[20]));
        for (int split = 1; split < bytes.length; split++)
        {
            final KafkaRequestScanner fresh = new KafkaRequestScanner(new RequestHeaderDecoder(), 1024 * 1024);
            final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
            assertEquals(VALID, fresh.scan(buffer, 0, split));
            assertEquals(VALID, fresh.scan(buffer, split, bytes.length));
            assertFalse(fresh.midRequest());
            assertEquals(KafkaApis.METADATA << 16 | 12, fresh.take(7));
            // Produce and Fetch responses pass through as they are: nothing to remember
            assertEquals(NO_REQUEST, fresh.take(8));
            assertEquals(NO_REQUEST, fresh.take(9));
            assertEquals(KafkaApis.API_VERSIONS << 16 | 3, fresh.take(10));
            assertEquals(NO_REQUEST, fresh.take(10));
        }
    }

    @Test
    void shouldRememberNoProduceWhateverItsAcks()
    {
        for (int version = 3; version <= KafkaRequestScanner.PRODUCE_MAX_VERSION; version++)
        {
            final byte[] bytes = concat(produce(version, 1, "p", 0), produce(version, 2, "p", 1), produce(version, 3, "p", -1));
            assertEquals(VALID, scanner.scan(new UnsafeBuffer(bytes), 0, bytes.length));
            assertFalse(scanner.awaitingResponses(), "v" + version);
        }
    }

    @Test
    void shouldLeaveNothingBehindForProduceWithAcksZeroAndALongClientId()
    {
        // acks=0 beyond what the scanner sees (a 1000-byte client id): never answered, so nothing may wait for it
        final byte[] bytes = produce(8, 4, "c".repeat(1000), 0);
        for (int i = 0; i < 10 * KafkaRequestScanner.MAX_PENDING; i++)
        {
            ByteBuffer.wrap(bytes).putInt(8, i);
            assertEquals(VALID, scanner.scan(new UnsafeBuffer(bytes), 0, bytes.length));
        }
        assertFalse(scanner.awaitingResponses());
    }

    @Test
    void shouldRefuseMoreRequestsAwaitingRewrittenResponsesThanTheMaximum()
    {
        final byte[] bytes = request(KafkaApis.METADATA, 4, 0, "c", new byte[5]);
        for (int i = 0; i < KafkaRequestScanner.MAX_PENDING; i++)
        {
            ByteBuffer.wrap(bytes).putInt(8, i);
            assertEquals(VALID, scanner.scan(new UnsafeBuffer(bytes), 0, bytes.length));
        }
        // one answered: one more may wait
        assertEquals(KafkaApis.METADATA << 16 | 4, scanner.take(0));
        ByteBuffer.wrap(bytes).putInt(8, KafkaRequestScanner.MAX_PENDING);
        assertEquals(VALID, scanner.scan(new UnsafeBuffer(bytes), 0, bytes.length));
        ByteBuffer.wrap(bytes).putInt(8, KafkaRequestScanner.MAX_PENDING + 1);
        assertEquals(BACKLOGGED, scanner.scan(new UnsafeBuffer(bytes), 0, bytes.length));
    }

    @Test
    void shouldRejectLengthsOutOfRange()
    {
        assertEquals(MALFORMED, scan(ByteBuffer.allocate(4).putInt(-1).array()));
        assertEquals(MALFORMED, scan(ByteBuffer.allocate(4).putInt(7).array()));
    }

    @Test
    void shouldTellALengthOverTheMaximum()
    {
        assertEquals(OVERSIZED, scanner.scan(new UnsafeBuffer(ByteBuffer.allocate(4).putInt(1024 * 1024 + 1).array()), 0, 4));
        assertEquals(1024 * 1024 + 1, scanner.partialSize());
        assertEquals(OVERSIZED, scan(ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array()));
    }

    @Test
    void shouldTellThePartialRequestItsSizeAndWhichItIs()
    {
        final byte[] bytes = concat(request(KafkaApis.METADATA, 4, 1, "c", new byte[20]),
            request(KafkaApis.METADATA, 4, 2, "c", new byte[20]));
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        assertEquals(VALID, scanner.scan(buffer, 0, 2));
        assertEquals(0, scanner.partialSize(), "its length is not whole yet");
        assertEquals(1, scanner.requestsBegun());
        assertEquals(VALID, scanner.scan(buffer, 2, 40));
        assertEquals(bytes.length / 2 - 4, scanner.partialSize(), "the second request's");
        assertEquals(2, scanner.requestsBegun());
        assertEquals(VALID, scanner.scan(buffer, 40, bytes.length));
        assertEquals(0, scanner.partialSize(), "between requests");
        assertEquals(2, scanner.requestsBegun());
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
    void shouldRefuseTransactionalIdLengthsOutOfRangeWhateverTheSplit()
    {
        // compact lengths (v9): 2^31 (the 80 80 80 80 08), 2^32 - 1, six bytes, 32768 + 1 (over Kafka's
        // 32767), and 200 in a frame far shorter; int16 lengths (v3-v8): 32767 and 200 in a frame far shorter
        final byte[][] lengths = {
            {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08},
            {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f},
            {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01},
            {(byte) 0x81, (byte) 0x80, 0x02},
            {(byte) 0xc9, 0x01}};
        for (byte[] length : lengths)
        {
            assertRefusedWhateverTheSplit(produceWithTransactionalId(9, length), "compact " + Arrays.toString(length));
        }
        assertRefusedWhateverTheSplit(produceWithTransactionalId(8, new byte[] {0x7f, (byte) 0xff}), "int16 32767");
        assertRefusedWhateverTheSplit(produceWithTransactionalId(3, new byte[] {0x00, (byte) 200}), "int16 200");
    }

    @Test
    void shouldReadNullAndShortTransactionalIds()
    {
        // a negative int16 is a null id, as Kafka reads it; a compact 3 is two bytes
        final byte[] negative = produceWithTransactionalId(8, new byte[] {(byte) 0x80, 0x00});
        final byte[] twoBytes = produceWithTransactionalId(9, new byte[] {0x03, 'i', 'd'});
        assertEquals(VALID, scanner.scan(new UnsafeBuffer(negative), 0, negative.length));
        assertEquals(VALID, scanner.scan(new UnsafeBuffer(twoBytes), 0, twoBytes.length));
        assertEquals(NO_REQUEST, scanner.take(1), "acks=0 after a null id");
        assertFalse(scanner.awaitingResponses(), "acks=0 after a two-byte id");
    }

    @Test
    void shouldPassProduceWhoseTransactionalIdRunsPastThePrefix()
    {
        // a 1000-byte id (compact 1001: e9 07) in a frame that holds it: the acks are not in the prefix
        final byte[] id = new byte[2 + 1000];
        id[0] = (byte) 0xe9;
        id[1] = 0x07;
        final byte[] bytes = produceWithTransactionalId(9, id);
        assertEquals(VALID, scanner.scan(new UnsafeBuffer(bytes), 0, bytes.length));
        assertFalse(scanner.awaitingResponses());
    }

    @Test
    void shouldRefuseAWholeProduceWhoseTransactionalIdLengthItsEndCutsShort()
    {
        // the request ends inside the id's length: a compact one whose byte says more follow, half an int16
        assertRefusedWhateverTheSplit(request(KafkaApis.PRODUCE, 9, 1, "p", new byte[] {(byte) 0x80}), "compact 80");
        assertRefusedWhateverTheSplit(request(KafkaApis.PRODUCE, 9, 1, "p", new byte[] {(byte) 0x81, (byte) 0x80}),
            "compact 81 80");
        assertRefusedWhateverTheSplit(request(KafkaApis.PRODUCE, 8, 1, "p", new byte[] {0x00}), "int16, one byte");
    }

    @Test
    void shouldRefuseHeaderLengthsOutOfRangeWhateverTheSplit()
    {
        // a client id of length -2 and of 32767 in a short frame; flexible header v2 tagged fields whose count is
        // 2^31, whose one field's size is 2^31, and whose count is six bytes long
        final byte[] negativeClientId = request(KafkaApis.METADATA, 4, 1, "client", new byte[8]);
        ByteBuffer.wrap(negativeClientId).putShort(12, (short) -2);
        final byte[] longClientId = request(KafkaApis.METADATA, 4, 1, "client", new byte[8]);
        ByteBuffer.wrap(longClientId).putShort(12, Short.MAX_VALUE);
        assertRefusedWhateverTheSplit(negativeClientId, "client id -2");
        assertRefusedWhateverTheSplit(longClientId, "client id 32767");
        assertRefusedWhateverTheSplit(flexibleWithTaggedFields(
            (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08), "tagged field count 2^31");
        assertRefusedWhateverTheSplit(flexibleWithTaggedFields(
            0x01, 0x00, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08), "tagged field size 2^31");
        assertRefusedWhateverTheSplit(flexibleWithTaggedFields(
            (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01), "tagged field count of six bytes");
    }

    @Test
    void shouldFollowRequestsUpToTheLargestSize()
    {
        // Integer.MAX_VALUE bytes allowed: the frame's limit is past any int, and the scanner still follows it
        final KafkaRequestScanner largest = new KafkaRequestScanner(new RequestHeaderDecoder(), Integer.MAX_VALUE);
        final byte[] bytes = request(KafkaApis.METADATA, 4, 5, "c", new byte[400]);
        ByteBuffer.wrap(bytes).putInt(0, Integer.MAX_VALUE);
        assertEquals(VALID, largest.scan(new UnsafeBuffer(bytes), 0, bytes.length));
        assertTrue(largest.midRequest());
        assertEquals(KafkaApis.METADATA << 16 | 4, largest.take(5));
        assertEquals(MALFORMED, scan(ByteBuffer.allocate(4).putInt(Integer.MIN_VALUE).array()));
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

    // refused whether the bytes come whole or in two frames split anywhere, and never an exception
    private static void assertRefusedWhateverTheSplit(byte[] bytes, String what)
    {
        for (int split = 1; split <= bytes.length; split++)
        {
            final KafkaRequestScanner fresh = new KafkaRequestScanner(new RequestHeaderDecoder(), 1024 * 1024);
            final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
            int result = fresh.scan(buffer, 0, split);
            if (result == VALID && split < bytes.length)
            {
                result = fresh.scan(buffer, split, bytes.length);
            }
            assertEquals(MALFORMED, result, what + " split at " + split);
        }
    }

    // a Produce of this version whose transactional id is these bytes (its length, then as much of it as given), then
    // acks=0 and a stand-in for its topic data
    private static byte[] produceWithTransactionalId(int apiVersion, byte[] transactionalId)
    {
        final ByteBuffer body = ByteBuffer.allocate(transactionalId.length + 2 + 16)
            .put(transactionalId)
            .putShort((short) 0);
        return request(KafkaApis.PRODUCE, apiVersion, 1, "p", body.array());
    }

    // a Metadata v9 (flexible: header v2) whose header's tagged fields are these bytes
    private static byte[] flexibleWithTaggedFields(int... taggedFields)
    {
        final byte[] bytes = request(KafkaApis.METADATA, 9, 1, "c", new byte[taggedFields.length - 1 + 8]);
        // the header's one byte of tagged fields (0) at 4 + 2 + 2 + 4 + 2 + 1 = 15, then the body
        for (int i = 0; i < taggedFields.length; i++)
        {
            bytes[15 + i] = (byte) taggedFields[i];
        }
        return bytes;
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
