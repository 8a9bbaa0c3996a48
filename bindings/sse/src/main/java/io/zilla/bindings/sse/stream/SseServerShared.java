/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.ChallengeFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import io.zilla.specs.sse.types.stream.SseBeginExFW;
import io.zilla.specs.sse.types.stream.SseDataExFW;
import io.zilla.specs.sse.types.stream.SseEndExFW;
import io.zilla.specs.sse.types.stream.SseResetExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What every sse server on one worker shares: the flyweights that read and build frames, the scratch buffers that
 * events are written into before they go out, and the response heads, built once. Single-threaded, like its worker.
 */
final class SseServerShared
{
    /** The type id of http's extensions ("http".hashCode(), as the http binding tags them). */
    static final int HTTP_TYPE_ID = "http".hashCode();

    final BeginFW beginRO = new BeginFW();
    final DataFW dataRO = new DataFW();
    final FlushFW flushRO = new FlushFW();
    final EndFW endRO = new EndFW();
    final AbortFW abortRO = new AbortFW();
    final WindowFW windowRO = new WindowFW();
    final ResetFW resetRO = new ResetFW();
    final SignalFW signalRO = new SignalFW();
    final ChallengeFW challengeRO = new ChallengeFW();
    final HttpBeginExFW httpBeginExRO = new HttpBeginExFW();
    final HttpHeaderFW headerRO = new HttpHeaderFW();
    final SseDataExFW sseDataExRO = new SseDataExFW();
    final SseEndExFW sseEndExRO = new SseEndExFW();
    final SseResetExFW sseResetExRO = new SseResetExFW();

    final BeginFW.Builder beginRW = new BeginFW.Builder();
    final SseBeginExFW sseBeginExRO = new SseBeginExFW();
    final SseBeginExFW.Builder sseBeginExRW = new SseBeginExFW.Builder();
    final SseDataExFW.Builder sseDataExRW = new SseDataExFW.Builder();
    final SseEndExFW.Builder sseEndExRW = new SseEndExFW.Builder();
    final SseResetExFW.Builder sseResetExRW = new SseResetExFW.Builder();
    final EndFW.Builder endRW = new EndFW.Builder();
    final WindowFW.Builder windowRW = new WindowFW.Builder();

    final EngineContext context;
    final StreamFrames frames;

    /** Where an event's text form is written before it goes out: a payload of a slot may grow 7 times. */
    final MutableDirectBuffer scratch;
    /** The SseBeginEx of a stream being opened (not in the write buffer, where its Begin is built). */
    final MutableDirectBuffer extension;
    /** A percent-decoded lastEventId query parameter. */
    final MutableDirectBuffer decoded;
    /** A response head built for a status other than 200. */
    final MutableDirectBuffer head = new UnsafeBuffer(new byte[256]);

    /** The head of every event stream: 200, text/event-stream, not to be cached or buffered on the way. */
    final DirectBuffer okHead;
    final int okHeadLength;

    SseServerShared(EngineContext context)
    {
        this.context = context;
        this.frames = new StreamFrames(context.writeBuffer());
        final int slot = context.bufferPool().slotCapacity();
        this.scratch = new UnsafeBuffer(new byte[8 * slot + 1024]);
        this.extension = new UnsafeBuffer(new byte[slot]);
        this.decoded = new UnsafeBuffer(new byte[slot]);
        final MutableDirectBuffer ok = new UnsafeBuffer(new byte[256]);
        this.okHeadLength = new HeadWriter(ok).status(200)
            .header("content-type", "text/event-stream")
            .header("cache-control", "no-cache")
            .header("x-accel-buffering", "no")
            .end();
        this.okHead = ok;
    }

    /** A response head without a body: {@code status}, {@code allow: GET} when {@code allowGet}; its length. */
    int errorHead(int status, boolean allowGet)
    {
        final HeadWriter writer = new HeadWriter(head).status(status);
        if (allowGet)
        {
            writer.header("allow", "GET");
        }
        return writer.header("content-length", "0").end();
    }

    /**
     * Writes one header of an HttpBeginEx at {@code at} of {@code out} (a name and a value, each a native string16);
     * returns the index after it. Allocates nothing.
     */
    static int putHeader(MutableDirectBuffer out, int at, DirectBuffer name, DirectBuffer value, int offset, int length)
    {
        int index = at;
        out.putShort(index, (short) name.capacity(), ByteOrder.nativeOrder());
        out.putBytes(index + Short.BYTES, name, 0, name.capacity());
        index += Short.BYTES + name.capacity();
        out.putShort(index, (short) length, ByteOrder.nativeOrder());
        out.putBytes(index + Short.BYTES, value, offset, length);
        return index + Short.BYTES + length;
    }

    /** Starts an HttpBeginEx at 0 of {@code out}: http's type id, and room for the count; returns the index after. */
    static int startHeaders(MutableDirectBuffer out)
    {
        out.putInt(0, HTTP_TYPE_ID, ByteOrder.nativeOrder());
        return 2 * Integer.BYTES;
    }

    /** Completes the HttpBeginEx of {@code count} headers. */
    static void endHeaders(MutableDirectBuffer out, int count)
    {
        out.putInt(Integer.BYTES, count, ByteOrder.nativeOrder());
    }

    /** Whether a header's name is {@code name} (lower case already, as http writes names). */
    static boolean nameIs(HttpHeaderFW header, byte[] name)
    {
        final int length = header.name().length();
        if (length != name.length)
        {
            return false;
        }
        final DirectBuffer buffer = header.name().buffer();
        final int offset = header.name().valueOffset();
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != name[i])
            {
                return false;
            }
        }
        return true;
    }

    static byte[] bytes(String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Writes an HttpBeginEx (http's type id, then an array32 of name and value string16s) into a buffer, without
     * allocating beyond its reuse: a writer per head is on paths that are not per event (errors), the 200 is built once.
     */
    private static final class HeadWriter
    {
        private final MutableDirectBuffer buffer;
        private int position;
        private int count;

        HeadWriter(MutableDirectBuffer buffer)
        {
            this.buffer = buffer;
            buffer.putInt(0, HTTP_TYPE_ID, ByteOrder.nativeOrder());
            this.position = 2 * Integer.BYTES;
        }

        HeadWriter status(int status)
        {
            return header(":status", Integer.toString(status));
        }

        HeadWriter header(String name, String value)
        {
            position = string(position, name);
            position = string(position, value);
            count++;
            return this;
        }

        int end()
        {
            buffer.putInt(Integer.BYTES, count, ByteOrder.nativeOrder());
            return position;
        }

        private int string(int at, String value)
        {
            buffer.putShort(at, (short) value.length(), ByteOrder.nativeOrder());
            buffer.putStringWithoutLengthAscii(at + Short.BYTES, value);
            return at + Short.BYTES + value.length();
        }
    }
}
