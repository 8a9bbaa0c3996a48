/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static java.nio.ByteOrder.BIG_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.zilla.specs.kafka.types.codec.FrameFW;
import io.zilla.specs.kafka.types.codec.TaggedFieldFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class KafkaCodecFlyweightsTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);

    @Test
    void shouldWrapACompleteFrameOnly()
    {
        buffer.putInt(0, 5, BIG_ENDIAN);
        buffer.putBytes(4, new byte[] {1, 2, 3, 4, 5});
        final FrameFW frame = new FrameFW().tryWrap(buffer, 0, 9);
        assertNotNull(frame);
        assertEquals(5, frame.length());
        assertEquals(9, frame.limit());
        assertEquals(5, frame.payload().sizeof());
        for (int limit = 0; limit < 9; limit++)
        {
            assertNull(new FrameFW().tryWrap(buffer, 0, limit));
        }
    }

    @Test
    void shouldReadANegativeFrameLengthAsNoPayload()
    {
        // the IDL reads a size of -1 as null octets: the proxy refuses a frame without payload
        buffer.putInt(0, -1, BIG_ENDIAN);
        final FrameFW frame = new FrameFW().tryWrap(buffer, 0, 4);
        assertNotNull(frame);
        assertNull(frame.payload());
        buffer.putInt(0, -2, BIG_ENDIAN);
        assertNull(new FrameFW().tryWrap(buffer, 0, 64));
    }

    @Test
    void shouldRoundTripATaggedField()
    {
        final int limit = new TaggedFieldFW.Builder().wrap(buffer, 0, buffer.capacity())
            .tag(300)
            .data(new byte[] {7, 8})
            .build()
            .limit();
        assertEquals(5, limit);     // tag 300 takes 2 bytes, size 1, data 2
        final TaggedFieldFW field = new TaggedFieldFW().tryWrap(buffer, 0, limit);
        assertNotNull(field);
        assertEquals(300, field.tag());
        assertEquals(2, field.size());
        assertNull(new TaggedFieldFW().tryWrap(buffer, 0, limit - 1));
    }
}
