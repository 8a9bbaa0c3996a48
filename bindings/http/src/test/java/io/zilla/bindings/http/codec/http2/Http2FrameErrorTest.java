/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.FLOW_CONTROL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.FRAME_SIZE_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Each frame-level rule of RFC 9113, broken once: the error code, and whether it is the stream's or the connection's. */
class Http2FrameErrorTest
{
    private final Http2FrameDecoder decoder = new Http2FrameDecoder(Http2FrameFW.DEFAULT_MAX_FRAME_SIZE);

    @Test
    void shouldRejectFramesOverTheMaxFrameSize()
    {
        // 16385 bytes announced: rejected on the header alone
        assertConnectionError("004001 00 00 00000001", FRAME_SIZE_ERROR);
        decoder.maxFrameSize(1 << 15);
        assertEquals(Http2FrameDecoder.INCOMPLETE, decoder.decode(bytes("004001 00 00 00000001"), 0, 9));
    }

    @Test
    void shouldRejectStreamZeroWhereAStreamIsNeeded()
    {
        assertConnectionError("000000 00 00 00000000", PROTOCOL_ERROR); // DATA
        assertConnectionError("000000 01 04 00000000", PROTOCOL_ERROR); // HEADERS
        assertConnectionError("000005 02 00 00000000 0000000110", PROTOCOL_ERROR); // PRIORITY
        assertConnectionError("000004 03 00 00000000 00000008", PROTOCOL_ERROR); // RST_STREAM
        assertConnectionError("000004 05 04 00000000 00000002", PROTOCOL_ERROR); // PUSH_PROMISE
        assertConnectionError("000000 09 04 00000000", PROTOCOL_ERROR); // CONTINUATION
    }

    @Test
    void shouldRejectAStreamWhereTheConnectionIsMeant()
    {
        assertConnectionError("000000 04 00 00000001", PROTOCOL_ERROR); // SETTINGS
        assertConnectionError("000008 06 00 00000001 0000000000000000", PROTOCOL_ERROR); // PING
        assertConnectionError("000008 07 00 00000001 0000000000000000", PROTOCOL_ERROR); // GOAWAY
    }

    @Test
    void shouldRejectBadPadding()
    {
        // DATA, PADDED, no room for the pad length
        assertConnectionError("000000 00 08 00000001", FRAME_SIZE_ERROR);
        // DATA, PADDED, pad length 3 with 3 bytes after it: no data, all padding, which is allowed
        assertValid("000004 00 08 00000001 03 000000");
        // DATA, PADDED, pad length 4 with 3 bytes after it
        assertConnectionError("000004 00 08 00000001 04 000000", PROTOCOL_ERROR);
        // HEADERS, PADDED | PRIORITY, pad length 1 with only the priority fields after it
        assertConnectionError("000006 01 2c 00000001 01 0000000310", PROTOCOL_ERROR);
        // HEADERS, PRIORITY, 4 bytes: no room for the priority fields
        assertConnectionError("000004 01 24 00000001 00000003", FRAME_SIZE_ERROR);
        // PUSH_PROMISE, PADDED, pad length 2 with only the promised id after it
        assertConnectionError("000005 05 0c 00000001 02 00000002", PROTOCOL_ERROR);
        // PUSH_PROMISE without room for the promised id
        assertConnectionError("000003 05 04 00000001 000000", FRAME_SIZE_ERROR);
    }

    @Test
    void shouldRejectAStreamDependingOnItself()
    {
        assertStreamError("000005 02 00 00000003 0000000310", PROTOCOL_ERROR);
        assertStreamError("000006 01 24 00000003 8000000310 82", PROTOCOL_ERROR);
    }

    @Test
    void shouldRejectBadLengthsForTheType()
    {
        assertStreamError("000004 02 00 00000003 00000001", FRAME_SIZE_ERROR); // PRIORITY: a stream error
        assertConnectionError("000005 03 00 00000003 0000000000", FRAME_SIZE_ERROR); // RST_STREAM
        assertConnectionError("000006 04 01 00000000 000100001000", FRAME_SIZE_ERROR); // SETTINGS ACK with a payload
        assertConnectionError("000005 04 00 00000000 0001000010", FRAME_SIZE_ERROR); // SETTINGS not a multiple of 6
        assertConnectionError("000007 06 00 00000000 00000000000000", FRAME_SIZE_ERROR); // PING
        assertConnectionError("000007 07 00 00000000 00000000000000", FRAME_SIZE_ERROR); // GOAWAY
        assertConnectionError("000003 08 00 00000000 000001", FRAME_SIZE_ERROR); // WINDOW_UPDATE
    }

    @Test
    void shouldRejectBadSettingsValues()
    {
        assertConnectionError("000006 04 00 00000000 0002 00000002", PROTOCOL_ERROR); // ENABLE_PUSH 2
        assertConnectionError("000006 04 00 00000000 0004 80000000", FLOW_CONTROL_ERROR); // INITIAL_WINDOW_SIZE 2^31
        assertConnectionError("000006 04 00 00000000 0005 00003fff", PROTOCOL_ERROR); // MAX_FRAME_SIZE 16383
        assertConnectionError("000006 04 00 00000000 0005 01000000", PROTOCOL_ERROR); // MAX_FRAME_SIZE 2^24
        assertValid("000006 04 00 00000000 0004 7fffffff");
        assertValid("000006 04 00 00000000 0005 00ffffff");
    }

    @Test
    void shouldRejectAZeroWindowUpdate()
    {
        assertConnectionError("000004 08 00 00000000 00000000", PROTOCOL_ERROR); // the connection's window
        assertStreamError("000004 08 00 00000005 80000000", PROTOCOL_ERROR); // a stream's (the reserved bit ignored)
    }

    private void assertConnectionError(
        String hex,
        int code)
    {
        final UnsafeBuffer frame = bytes(hex);
        assertEquals(Http2FrameDecoder.CONNECTION_ERROR, decoder.decode(frame, 0, frame.capacity()), hex);
        assertEquals(Http2ErrorCode.name(code), Http2ErrorCode.name(decoder.error()), hex);
    }

    private void assertStreamError(
        String hex,
        int code)
    {
        final UnsafeBuffer frame = bytes(hex);
        assertEquals(frame.capacity(), decoder.decode(frame, 0, frame.capacity()), hex);
        assertEquals(Http2ErrorCode.name(code), Http2ErrorCode.name(decoder.error()), hex);
    }

    private void assertValid(
        String hex)
    {
        assertStreamError(hex, Http2ErrorCode.NO_ERROR);
    }

    private static UnsafeBuffer bytes(
        String hex)
    {
        return new UnsafeBuffer(HexFormat.of().parseHex(hex.replace(" ", "")));
    }
}
