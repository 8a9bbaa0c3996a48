/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.bindings.http.codec.hpack.HpackHeaderSink;
import io.zilla.bindings.http.codec.http2.Http2ContinuationFW;
import io.zilla.bindings.http.codec.http2.Http2DataFW;
import io.zilla.bindings.http.codec.http2.Http2FrameFW;
import io.zilla.bindings.http.codec.http2.Http2HeadersFW;
import io.zilla.bindings.http.codec.http2.Http2PingFW;
import io.zilla.bindings.http.codec.http2.Http2SettingsFW;
import io.zilla.bindings.http.codec.http2.Http2WindowUpdateFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the HTTP/2 connections of one http server on one worker share: the frame views, the buffers a frame or a
 * header block is written in, and the checker of request header blocks. Single-threaded, as the worker; made when
 * the first HTTP/2 connection starts.
 */
final class Http2Shared
{
    /** The largest DATA or header block fragment we send in one frame (the least MAX_FRAME_SIZE a peer accepts). */
    static final int MAX_FRAME_PAYLOAD = Http2FrameFW.DEFAULT_MAX_FRAME_SIZE;

    final MutableDirectBuffer frame = new UnsafeBuffer(new byte[Http2FrameFW.HEADER_SIZE + MAX_FRAME_PAYLOAD + 64]);
    /** An encoded header block: twice what the response's header lines can take, so that HPACK never runs out. */
    final MutableDirectBuffer block;
    /** A header name in lower case, as HTTP/2 writes it. */
    final MutableDirectBuffer name;
    final MutableDirectBuffer debug = new UnsafeBuffer(new byte[256]);
    final Http2RequestHeaders requestHeaders = new Http2RequestHeaders();
    /** Takes the fields of a block that must be decoded (to keep HPACK's table in step) and is then dropped. */
    final HpackHeaderSink ignore = (name, nameOffset, nameLength, value, valueOffset, valueLength, neverIndexed) ->
    {
    };

    final OctetsFW octetsRO = new OctetsFW();
    final Http2DataFW dataRO = new Http2DataFW();
    final Http2HeadersFW headersRO = new Http2HeadersFW();
    final Http2ContinuationFW continuationRO = new Http2ContinuationFW();
    final Http2SettingsFW settingsRO = new Http2SettingsFW();
    final Http2PingFW pingRO = new Http2PingFW();
    final Http2WindowUpdateFW windowUpdateRO = new Http2WindowUpdateFW();

    Http2Shared(int headerLinesCapacity)
    {
        this.block = new UnsafeBuffer(new byte[2 * headerLinesCapacity + 64]);
        this.name = new UnsafeBuffer(new byte[headerLinesCapacity]);
    }
}
