/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.NO_ERROR;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Every frame type written, then decoded and read through its view; the preface; the settings record. */
class Http2FrameTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
    private final Http2FrameDecoder decoder = new Http2FrameDecoder(Http2FrameFW.DEFAULT_MAX_FRAME_SIZE);
    private final UnsafeBuffer content = new UnsafeBuffer("hello, h2".getBytes(US_ASCII));

    @Test
    void shouldRoundTripData()
    {
        int limit = Http2FrameWriter.data(buffer, 0, 1, true, content, 0, content.capacity(), 0);
        assertEquals("000009000100000001" + hex(content), hex(buffer, limit));
        Http2DataFW data = new Http2DataFW().wrap(buffer, 0, decode(limit));
        assertTrue(data.endStream());
        assertEquals("hello, h2", string(buffer, data.dataOffset(), data.dataLength()));
        assertEquals(9, data.flowControlled());

        limit = Http2FrameWriter.data(buffer, 0, 3, false, content, 0, content.capacity(), 6);
        data = new Http2DataFW().wrap(buffer, 0, decode(limit));
        assertFalse(data.endStream());
        assertEquals(3, data.streamId());
        assertEquals("hello, h2", string(buffer, data.dataOffset(), data.dataLength()));
        assertEquals(16, data.flowControlled());
    }

    @Test
    void shouldRoundTripHeaders()
    {
        final int limit = Http2FrameWriter.headers(buffer, 0, 5, Http2Flags.END_HEADERS | Http2Flags.END_STREAM,
            content, 0, content.capacity(), 3);
        final Http2HeadersFW headers = new Http2HeadersFW().wrap(buffer, 0, decode(limit));
        assertTrue(headers.endHeaders());
        assertTrue(headers.endStream());
        assertFalse(headers.hasPriority());
        assertEquals("hello, h2", string(buffer, headers.fragmentOffset(), headers.fragmentLength()));
    }

    @Test
    void shouldSkipHeadersPriorityFields()
    {
        // HEADERS, PADDED | PRIORITY | END_HEADERS, stream 7: pad 2, exclusive on 3, weight 16, "ab", padding
        final int limit = write("00000a 01 2c 00000007 02 80000003 0f 6162 0000");
        final Http2HeadersFW headers = new Http2HeadersFW().wrap(buffer, 0, decode(limit));
        assertTrue(headers.hasPriority());
        assertTrue(headers.exclusive());
        assertEquals(3, headers.dependency());
        assertEquals(16, headers.weight());
        assertEquals("ab", string(buffer, headers.fragmentOffset(), headers.fragmentLength()));
    }

    @Test
    void shouldRoundTripPriority()
    {
        final int limit = Http2FrameWriter.priority(buffer, 0, 9, 1, true, 256);
        final Http2PriorityFW priority = new Http2PriorityFW().wrap(buffer, 0, decode(limit));
        assertEquals(1, priority.dependency());
        assertTrue(priority.exclusive());
        assertEquals(256, priority.weight());
    }

    @Test
    void shouldRoundTripRstStream()
    {
        final int limit = Http2FrameWriter.rstStream(buffer, 0, 11, Http2ErrorCode.CANCEL);
        assertEquals(Http2ErrorCode.CANCEL, new Http2RstStreamFW().wrap(buffer, 0, decode(limit)).errorCode());
    }

    @Test
    void shouldRoundTripSettings()
    {
        final Http2Settings settings = new Http2Settings()
            .set(Http2Settings.ENABLE_PUSH, 0)
            .set(Http2Settings.MAX_CONCURRENT_STREAMS, 100)
            .set(Http2Settings.INITIAL_WINDOW_SIZE, 1 << 20)
            .set(Http2Settings.MAX_HEADER_LIST_SIZE, 16384);
        int limit = Http2FrameWriter.settings(buffer, 0, settings);
        final Http2SettingsFW frame = new Http2SettingsFW().wrap(buffer, 0, decode(limit));
        assertFalse(frame.ack());
        assertEquals(4, frame.count());
        assertEquals(Http2Settings.ENABLE_PUSH, frame.id(0));
        assertEquals(0, frame.value(0));

        final Http2Settings received = new Http2Settings();
        received.apply(frame);
        assertFalse(received.enablePush());
        assertEquals(100, received.maxConcurrentStreams());
        assertEquals(1 << 20, received.initialWindowSize());
        assertEquals(16384, received.maxHeaderListSize());
        assertEquals(4096, received.headerTableSize());
        assertEquals(16384, received.maxFrameSize());

        limit = Http2FrameWriter.settingsAck(buffer, 0);
        assertEquals("000000040100000000", hex(buffer, limit));
        assertTrue(new Http2SettingsFW().wrap(buffer, 0, decode(limit)).ack());
    }

    @Test
    void shouldIgnoreUnknownSettings()
    {
        // an unknown id 0x99 between HEADER_TABLE_SIZE 8192 and MAX_FRAME_SIZE 32768
        final int limit = write("000012 04 00 00000000 0001 00002000 0099 ffffffff 0005 00008000");
        final Http2Settings received = new Http2Settings();
        received.apply(new Http2SettingsFW().wrap(buffer, 0, decode(limit)));
        assertEquals(8192, received.headerTableSize());
        assertEquals(32768, received.maxFrameSize());
    }

    @Test
    void shouldRoundTripPushPromise()
    {
        int limit = Http2FrameWriter.pushPromise(buffer, 0, 1, 2, true, content, 0, content.capacity());
        Http2PushPromiseFW promise = new Http2PushPromiseFW().wrap(buffer, 0, decode(limit));
        assertEquals(2, promise.promisedStreamId());
        assertTrue(promise.endHeaders());
        assertEquals("hello, h2", string(buffer, promise.fragmentOffset(), promise.fragmentLength()));

        // padded: pad 1, promised 4, "ab", one byte of padding
        limit = write("000008 05 0c 00000001 01 00000004 6162 00");
        promise = new Http2PushPromiseFW().wrap(buffer, 0, decode(limit));
        assertEquals(4, promise.promisedStreamId());
        assertEquals("ab", string(buffer, promise.fragmentOffset(), promise.fragmentLength()));
    }

    @Test
    void shouldRoundTripPing()
    {
        final int limit = Http2FrameWriter.ping(buffer, 0, true, 0x0102030405060708L);
        assertEquals("000008060100000000" + "0102030405060708", hex(buffer, limit));
        final Http2PingFW ping = new Http2PingFW().wrap(buffer, 0, decode(limit));
        assertTrue(ping.ack());
        assertEquals(0x0102030405060708L, ping.opaque());
    }

    @Test
    void shouldRoundTripGoaway()
    {
        final int limit = Http2FrameWriter.goaway(buffer, 0, 7, Http2ErrorCode.ENHANCE_YOUR_CALM, content, 0, 5);
        final Http2GoawayFW goaway = new Http2GoawayFW().wrap(buffer, 0, decode(limit));
        assertEquals(7, goaway.lastStreamId());
        assertEquals(Http2ErrorCode.ENHANCE_YOUR_CALM, goaway.errorCode());
        assertEquals("hello", string(buffer, goaway.debugOffset(), goaway.debugLength()));
        assertEquals("ENHANCE_YOUR_CALM", Http2ErrorCode.name(goaway.errorCode()));
        assertEquals("UNKNOWN", Http2ErrorCode.name(0xffff_ffffL));
    }

    @Test
    void shouldRoundTripWindowUpdate()
    {
        final int limit = Http2FrameWriter.windowUpdate(buffer, 0, 0, 0x7fff_ffff);
        assertEquals(0x7fff_ffff, new Http2WindowUpdateFW().wrap(buffer, 0, decode(limit)).increment());
    }

    @Test
    void shouldRoundTripContinuation()
    {
        final int limit = Http2FrameWriter.continuation(buffer, 0, 13, true, content, 0, content.capacity());
        final Http2ContinuationFW continuation = new Http2ContinuationFW().wrap(buffer, 0, decode(limit));
        assertTrue(continuation.endHeaders());
        assertEquals(13, continuation.streamId());
        assertEquals("hello, h2", string(buffer, continuation.fragmentOffset(), continuation.fragmentLength()));
    }

    @Test
    void shouldIgnoreTheReservedBit()
    {
        // DATA on stream 1 with the reserved bit set
        final int limit = write("000000 00 00 80000001");
        assertEquals(1, new Http2DataFW().wrap(buffer, 0, decode(limit)).streamId());
    }

    @Test
    void shouldPassUnknownTypesUnchecked()
    {
        // type 0xb on stream 0 with any flags and payload
        final int limit = write("000003 0b ff 00000000 010203");
        assertEquals(limit, decoder.decode(buffer, 0, limit));
        assertEquals(NO_ERROR, decoder.error());
        assertEquals(0x0b, decoder.frame().type());
        assertFalse(Http2FrameType.known(decoder.frame().type()));
    }

    @Test
    void shouldWaitForWholeFrames()
    {
        final int limit = Http2FrameWriter.data(buffer, 0, 1, false, content, 0, content.capacity(), 0);
        for (int cut = 0; cut < limit; cut++)
        {
            assertEquals(Http2FrameDecoder.INCOMPLETE, decoder.decode(buffer, 0, cut));
        }
        // two frames back to back
        final int second = Http2FrameWriter.ping(buffer, limit, false, 42);
        assertEquals(limit, decoder.decode(buffer, 0, second));
        assertEquals(second - limit, decoder.decode(buffer, limit, second));
        assertEquals(Http2FrameType.PING, decoder.frame().type());
    }

    @Test
    void shouldMatchThePreface()
    {
        final int limit = Http2Preface.write(buffer, 0);
        assertEquals(24, limit);
        assertEquals("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", string(buffer, 0, limit));
        assertEquals(Http2Preface.MATCHED, Http2Preface.match(buffer, 0, limit + 9));
        assertEquals(Http2Preface.INCOMPLETE, Http2Preface.match(buffer, 0, 10));
        final DirectBuffer http11 = new UnsafeBuffer("GET / HTTP/1.1\r\n".getBytes(US_ASCII));
        assertEquals(Http2Preface.MISMATCHED, Http2Preface.match(http11, 0, http11.capacity()));
    }

    private int decode(
        int limit)
    {
        assertEquals(limit, decoder.decode(buffer, 0, limit), () -> Http2ErrorCode.name(decoder.error()));
        assertEquals(NO_ERROR, decoder.error());
        return limit;
    }

    private int write(
        String hex)
    {
        final byte[] bytes = HexFormat.of().parseHex(hex.replace(" ", ""));
        buffer.putBytes(0, bytes);
        return bytes.length;
    }

    private static String hex(
        DirectBuffer buffer,
        int limit)
    {
        final byte[] bytes = new byte[limit];
        buffer.getBytes(0, bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static String hex(
        DirectBuffer buffer)
    {
        return hex(buffer, buffer.capacity());
    }

    private static String string(
        DirectBuffer buffer,
        int offset,
        int length)
    {
        return buffer.getStringWithoutLengthAscii(offset, length);
    }
}
