/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Random byte streams through the frame decoder, as a connection would feed them: results are a frame's size,
 * INCOMPLETE or a connection error; nothing throws or reads past the limit (the buffer ends there); the typed
 * views read inside the frame. And decoding allocates nothing.
 */
class Http2FrameRandomInputTest
{
    @Test
    void shouldSurviveRandomBytes()
    {
        final Random random = new Random(9113);
        final Http2FrameDecoder decoder = new Http2FrameDecoder(Http2FrameFW.DEFAULT_MAX_FRAME_SIZE);
        final byte[] bytes = new byte[512];
        int frames = 0;
        int errors = 0;
        for (int round = 0; round < 100_000; round++)
        {
            random.nextBytes(bytes);
            final int limit = random.nextInt(bytes.length);
            // most rounds with a small length, a known type and a plausible stream id, to get past the header
            if (round % 2 == 0 && limit >= Http2FrameFW.HEADER_SIZE)
            {
                final int length = random.nextInt(limit - Http2FrameFW.HEADER_SIZE + 1);
                bytes[0] = 0;
                bytes[1] = (byte) (length >> 8);
                bytes[2] = (byte) length;
                bytes[3] = (byte) random.nextInt(11);
                bytes[5] = (byte) (bytes[5] & 0x80);
                bytes[6] = 0;
                bytes[7] = 0;
                bytes[8] = (byte) random.nextInt(3);
            }
            final UnsafeBuffer buffer = new UnsafeBuffer(bytes, 0, limit);
            int offset = 0;
            int result;
            while ((result = decoder.decode(buffer, offset, limit)) > 0)
            {
                frames++;
                assertTrue(offset + result <= limit);
                assertEquals(offset + result, decoder.frame().limit());
                readView(decoder.frame(), buffer, offset, limit);
                offset += result;
            }
            assertTrue(result == Http2FrameDecoder.INCOMPLETE || result == Http2FrameDecoder.CONNECTION_ERROR);
            errors += result == Http2FrameDecoder.CONNECTION_ERROR ? 1 : 0;
        }
        assertTrue(frames > 0 && errors > 0);
    }

    @Test
    void shouldDecodeWithoutAllocating()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final UnsafeBuffer content = new UnsafeBuffer(new byte[100]);
        int limit = Http2FrameWriter.data(buffer, 0, 1, false, content, 0, 100, 10);
        limit = Http2FrameWriter.headers(buffer, limit, 3, Http2Flags.END_HEADERS, content, 0, 50, 0);
        limit = Http2FrameWriter.windowUpdate(buffer, limit, 0, 1000);
        limit = Http2FrameWriter.settings(buffer, limit, new Http2Settings().set(Http2Settings.ENABLE_PUSH, 0));
        limit = Http2FrameWriter.ping(buffer, limit, false, 1);
        final Http2FrameDecoder decoder = new Http2FrameDecoder(Http2FrameFW.DEFAULT_MAX_FRAME_SIZE);
        final Http2DataFW data = new Http2DataFW();
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        long sum = decodeAll(decoder, data, buffer, limit);
        final long before = threads.getCurrentThreadAllocatedBytes();
        sum += decodeAll(decoder, data, buffer, limit);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertEquals(2L * 100_000 * (limit + 100), sum);
        assertEquals(0, allocated / 100_000, "bytes allocated per round");
    }

    private static long decodeAll(
        Http2FrameDecoder decoder,
        Http2DataFW data,
        UnsafeBuffer buffer,
        int limit)
    {
        long sum = 0;
        for (int round = 0; round < 100_000; round++)
        {
            int offset = 0;
            int size;
            while (offset < limit && (size = decoder.decode(buffer, offset, limit)) > 0)
            {
                if (decoder.frame().type() == Http2FrameType.DATA)
                {
                    sum += data.wrap(buffer, offset, limit).dataLength();
                }
                offset += size;
                sum += size;
            }
        }
        return sum;
    }

    private static void readView(
        Http2FrameFW frame,
        UnsafeBuffer buffer,
        int offset,
        int limit)
    {
        if (frame.type() == Http2FrameType.DATA)
        {
            final Http2DataFW data = new Http2DataFW().wrap(buffer, offset, limit);
            assertTrue(data.dataOffset() >= data.payloadOffset() && data.dataLength() >= 0
                && data.dataOffset() + data.dataLength() <= data.limit());
        }
        else if (frame.type() == Http2FrameType.HEADERS)
        {
            final Http2HeadersFW headers = new Http2HeadersFW().wrap(buffer, offset, limit);
            assertTrue(headers.fragmentLength() >= 0 && headers.fragmentOffset() + headers.fragmentLength() <= headers.limit());
        }
        else if (frame.type() == Http2FrameType.PUSH_PROMISE)
        {
            final Http2PushPromiseFW promise = new Http2PushPromiseFW().wrap(buffer, offset, limit);
            assertTrue(promise.fragmentLength() >= 0 && promise.fragmentOffset() + promise.fragmentLength() <= promise.limit());
        }
        else if (frame.type() == Http2FrameType.SETTINGS)
        {
            final Http2SettingsFW settings = new Http2SettingsFW().wrap(buffer, offset, limit);
            new Http2Settings().apply(settings);
        }
    }
}
