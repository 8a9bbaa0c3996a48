/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.Test;

class ResponseHeaderDecoderTest
{
    private static final int OFFSET = 3;

    private final ResponseHeaderDecoder decoder = new ResponseHeaderDecoder();

    @Test
    void shouldDecodeEveryApiKeyAndVersion()
    {
        for (ApiKeys apiKey : ApiKeys.values())
        {
            for (short version = 0; version <= apiKey.latestVersion(true); version++)
            {
                final byte[] bytes = header(apiKey.responseHeaderVersion(version), version * 17);
                final UnsafeBuffer buffer = Messages.withJunkAfter(OFFSET, bytes);
                final String what = apiKey.name() + " v" + version;
                assertEquals(OFFSET + bytes.length, decoder.wrap(buffer, OFFSET, buffer.capacity(), apiKey.id, version), what);
                assertEquals(version * 17, decoder.correlationId(), what);
                for (int length = 0; length < bytes.length; length++)
                {
                    assertEquals(ResponseHeaderDecoder.MALFORMED,
                        decoder.wrap(buffer, OFFSET, OFFSET + length, apiKey.id, version), what);
                }
            }
        }
    }

    @Test
    void shouldReadOnlyTheCorrelationId()
    {
        final byte[] bytes = header((short) 1, 99);
        final UnsafeBuffer buffer = Messages.withJunkAfter(0, bytes);
        assertEquals(4, decoder.wrapCorrelationId(buffer, 0, bytes.length));
        assertEquals(99, decoder.correlationId());
        assertEquals(ResponseHeaderDecoder.MALFORMED, decoder.wrapCorrelationId(buffer, 0, 3));
    }

    private static byte[] header(
        short headerVersion,
        int correlationId)
    {
        final ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        if (headerVersion == 1)
        {
            header.unknownTaggedFields().add(new RawTaggedField(1, new byte[] {9}));
        }
        return Messages.bytes(header, headerVersion);
    }
}
