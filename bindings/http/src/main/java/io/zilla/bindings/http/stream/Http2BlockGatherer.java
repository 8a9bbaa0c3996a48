/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.ENHANCE_YOUR_CALM;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static io.zilla.engine.binding.buffer.BufferPool.NO_SLOT;

import io.zilla.bindings.http.codec.http2.Http2ContinuationFW;
import io.zilla.bindings.http.codec.http2.Http2HeadersFW;
import io.zilla.engine.binding.buffer.BufferPool;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One HTTP/2 connection's header block in the making, for server and client alike: a HEADERS frame with END_HEADERS
 * is handed on where it lies; one without is gathered with its CONTINUATION frames in a buffer slot, and handed on
 * whole at the last. A block larger than a slot is a connection error (it cannot be decoded, and HPACK's table would
 * drift without it), and so is a block of more CONTINUATION frames than {@code maxContinuations}: empty ones never
 * grow the block, so its size alone would let a client send them for ever (netty's CVE-2026-33871).
 */
final class Http2BlockGatherer
{
    /** A whole header block, with what its HEADERS frame said and the {@code kind} its connection gave it. */
    @FunctionalInterface
    interface BlockHandler
    {
        void onBlock(long traceId, int streamId, int kind, boolean endStream, int error, DirectBuffer buffer, int offset,
            int length);
    }

    private final Http2Connection connection;
    private final BufferPool bufferPool;
    private final BlockHandler handler;
    private final int maxContinuations;

    // the block being gathered: its stream (0 when none), its kind, and its first frame's flags and error
    private int streamId;
    private int kind;
    private boolean endStream;
    private int error;
    private int slot = NO_SLOT;
    private int length;
    private int continuations;

    Http2BlockGatherer(Http2Connection connection, BufferPool bufferPool, BlockHandler handler, int maxContinuations)
    {
        this.connection = connection;
        this.bufferPool = bufferPool;
        this.handler = handler;
        this.maxContinuations = maxContinuations;
    }

    /** A HEADERS frame was not complete with END_HEADERS: only CONTINUATION frames of its stream may follow. */
    boolean expectsContinuation()
    {
        return streamId != 0;
    }

    int streamId()
    {
        return streamId;
    }

    void onHeaders(long traceId, Http2HeadersFW headers, int blockKind, int frameError)
    {
        final int id = headers.streamId();
        if (headers.endHeaders())
        {
            handler.onBlock(traceId, id, blockKind, headers.endStream(), frameError, headers.buffer(),
                headers.fragmentOffset(), headers.fragmentLength());
            return;
        }
        slot = bufferPool.acquire(connection.net.inboundId);
        if (slot == NO_SLOT)
        {
            connection.connectionError(traceId, ENHANCE_YOUR_CALM, "no buffer slot for a header block");
            return;
        }
        streamId = id;
        kind = blockKind;
        endStream = headers.endStream();
        error = frameError;
        length = 0;
        continuations = 0;
        append(traceId, headers.buffer(), headers.fragmentOffset(), headers.fragmentLength());
    }

    void onContinuation(long traceId, Http2ContinuationFW continuation)
    {
        if (streamId == 0)
        {
            connection.connectionError(traceId, PROTOCOL_ERROR, "CONTINUATION without HEADERS");
            return;
        }
        if (++continuations > maxContinuations)
        {
            connection.connectionError(traceId, ENHANCE_YOUR_CALM, "more than " + maxContinuations
                + " CONTINUATION frames in a header block");
            return;
        }
        if (!append(traceId, continuation.buffer(), continuation.fragmentOffset(), continuation.fragmentLength()))
        {
            return;
        }
        if (continuation.endHeaders())
        {
            final int id = streamId;
            streamId = 0;
            handler.onBlock(traceId, id, kind, endStream, error, bufferPool.buffer(slot), 0, length);
            release();
        }
    }

    void release()
    {
        if (slot != NO_SLOT)
        {
            bufferPool.release(slot);
            slot = NO_SLOT;
        }
        streamId = 0;
    }

    private boolean append(long traceId, DirectBuffer buffer, int offset, int fragmentLength)
    {
        final MutableDirectBuffer held = bufferPool.buffer(slot);
        if (length + fragmentLength > held.capacity())
        {
            connection.connectionError(traceId, ENHANCE_YOUR_CALM, "a header block larger than a buffer slot");
            return false;
        }
        held.putBytes(length, buffer, offset, fragmentLength);
        length += fragmentLength;
        return true;
    }
}
