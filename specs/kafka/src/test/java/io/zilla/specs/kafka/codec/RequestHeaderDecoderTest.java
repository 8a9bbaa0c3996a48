/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static java.nio.ByteOrder.BIG_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.Test;

class RequestHeaderDecoderTest
{
    private static final int OFFSET = 7;

    private final RequestHeaderDecoder decoder = new RequestHeaderDecoder();

    @Test
    void shouldDecodeEveryApiKeyAndVersion()
    {
        int checked = 0;
        for (ApiKeys apiKey : ApiKeys.values())
        {
            for (short version = 0; version <= apiKey.latestVersion(true); version++)
            {
                assertDecodes(apiKey, version, "client-" + version);
                assertDecodes(apiKey, version, null);
                checked++;
            }
        }
        assertTrue(checked > 200);
    }

    @Test
    void shouldRejectEveryTruncation()
    {
        final byte[][] headers =
        {
            headerV0(ApiKeys.CONTROLLED_SHUTDOWN.id, 0, 5),
            header(ApiKeys.PRODUCE, 3, "client", (short) 1, true),
            header(ApiKeys.METADATA, 12, "client", (short) 2, true),
        };
        for (byte[] bytes : headers)
        {
            final UnsafeBuffer buffer = Messages.withJunkAfter(OFFSET, bytes);
            assertEquals(OFFSET + bytes.length, decoder.wrap(buffer, OFFSET, OFFSET + bytes.length));
            for (int length = 0; length < bytes.length; length++)
            {
                assertEquals(RequestHeaderDecoder.MALFORMED, decoder.wrap(buffer, OFFSET, OFFSET + length), "length " + length);
            }
        }
    }

    @Test
    void shouldRejectMalformedTaggedFields()
    {
        final byte[] bytes = header(ApiKeys.METADATA, 12, null, (short) 2, false);
        final UnsafeBuffer buffer = Messages.withJunkAfter(OFFSET, bytes);
        final int taggedFields = OFFSET + bytes.length - 1;

        buffer.putByte(taggedFields, (byte) 0x7f);  // 127 tagged fields in 0 bytes
        assertEquals(RequestHeaderDecoder.MALFORMED, decoder.wrap(buffer, OFFSET, OFFSET + bytes.length));
        buffer.putByte(taggedFields, (byte) 0x80);  // a varint that does not end before the limit
        assertEquals(RequestHeaderDecoder.MALFORMED, decoder.wrap(buffer, OFFSET, OFFSET + bytes.length));
    }

    @Test
    void shouldNeverThrowOnACorruptedHeader()
    {
        final byte[] bytes = header(ApiKeys.METADATA, 12, "client", (short) 2, true);
        for (int index = 0; index < bytes.length; index++)
        {
            for (int corrupt : new int[] {0x00, 0x7f, 0x80, 0xff})
            {
                final UnsafeBuffer buffer = Messages.withJunkAfter(OFFSET, bytes);
                buffer.putByte(OFFSET + index, (byte) corrupt);
                final int limit = decoder.wrap(buffer, OFFSET, OFFSET + bytes.length);
                assertTrue(limit < 0 || limit > OFFSET && limit <= OFFSET + bytes.length, "corrupted at " + index);
            }
        }
    }

    @Test
    void shouldRejectAClientIdLongerThanTheHeader()
    {
        final byte[] bytes = header(ApiKeys.PRODUCE, 3, "client", (short) 1, false);
        final UnsafeBuffer buffer = Messages.withJunkAfter(OFFSET, bytes);
        buffer.putShort(OFFSET + 8, (short) 7, BIG_ENDIAN);
        assertEquals(RequestHeaderDecoder.MALFORMED, decoder.wrap(buffer, OFFSET, OFFSET + bytes.length));
    }

    @Test
    void shouldReadTheCorrelationIdOfAnUnknownApiKey()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[16]);
        buffer.putShort(0, (short) 1000, BIG_ENDIAN);
        buffer.putShort(2, (short) 3, BIG_ENDIAN);
        buffer.putInt(4, 42, BIG_ENDIAN);
        assertEquals(RequestHeaderDecoder.UNKNOWN_API_KEY, decoder.wrap(buffer, 0, 16));
        assertEquals(1000, decoder.apiKey());
        assertEquals(3, decoder.apiVersion());
        assertEquals(42, decoder.correlationId());
    }

    private void assertDecodes(
        ApiKeys apiKey,
        short version,
        String clientId)
    {
        final short headerVersion = apiKey.requestHeaderVersion(version);
        final byte[] bytes = header(apiKey, version, clientId, headerVersion, true);
        final UnsafeBuffer buffer = Messages.withJunkAfter(OFFSET, bytes);
        final String what = apiKey.name() + " v" + version;

        // the body follows the header, here the junk: the decoder must stop where the header ends
        assertEquals(OFFSET + bytes.length, decoder.wrap(buffer, OFFSET, buffer.capacity()), what);
        assertEquals(apiKey.id, decoder.apiKey(), what);
        assertEquals(version, decoder.apiVersion(), what);
        assertEquals(version * 31 + apiKey.id, decoder.correlationId(), what);
        assertEquals(headerVersion, decoder.headerVersion(), what);
        if (headerVersion == 0)
        {
            assertNull(decoder.clientId(), what);
        }
        else
        {
            assertEquals(clientId, decoder.clientId().asString(), what);
        }
    }

    /* kafka-clients 4 no longer writes header v0 (only ControlledShutdown v0 used it): written here */
    private static byte[] headerV0(
        short apiKey,
        int version,
        int correlationId)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        buffer.putShort(0, apiKey, BIG_ENDIAN);
        buffer.putShort(2, (short) version, BIG_ENDIAN);
        buffer.putInt(4, correlationId, BIG_ENDIAN);
        return buffer.byteArray();
    }

    private static byte[] header(
        ApiKeys apiKey,
        int version,
        String clientId,
        short headerVersion,
        boolean tagged)
    {
        final RequestHeaderData header = new RequestHeaderData()
            .setRequestApiKey(apiKey.id)
            .setRequestApiVersion((short) version)
            .setCorrelationId(version * 31 + apiKey.id)
            .setClientId(headerVersion == 0 ? "" : clientId);
        if (headerVersion == 2 && tagged)
        {
            header.unknownTaggedFields().add(new RawTaggedField(7, new byte[] {1, 2, 3}));
            header.unknownTaggedFields().add(new RawTaggedField(300, new byte[200]));
        }
        return Messages.bytes(header, headerVersion);
    }
}
