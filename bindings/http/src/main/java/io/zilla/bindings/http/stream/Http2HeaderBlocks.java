/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.COMPRESSION_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.NO_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.STREAM_CLOSED;
import static io.zilla.engine.binding.buffer.BufferPool.NO_SLOT;

import io.zilla.bindings.http.codec.hpack.HpackDecoder;
import io.zilla.bindings.http.codec.http2.Http2ContinuationFW;
import io.zilla.bindings.http.codec.http2.Http2ErrorCode;
import io.zilla.bindings.http.codec.http2.Http2HeadersFW;
import io.zilla.engine.binding.buffer.BufferPool;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The header blocks of one HTTP/2 connection: a HEADERS frame and its CONTINUATION frames gathered into a buffer slot
 * (or read in place when one frame holds the whole block), then decoded by the connection's HPACK decoder, whatever
 * becomes of the stream, so that the decoder's table stays in step with the client's encoder. A block opens a stream
 * with a request, or ends one with trailers; a block on a stream that cannot take it is decoded and dropped, and the
 * stream or the connection gets the error RFC 9113 section 5.1 gives.
 */
final class Http2HeaderBlocks
{
    private static final int NEW = 0;
    private static final int TRAILERS = 1;
    private static final int IGNORED = 2;
    private static final int CLOSED = 3;

    private final Http2Server connection;
    private final HpackDecoder decoder;
    private final BufferPool bufferPool;

    // the block being gathered: its stream (0 when none), what it is for, and its first frame's flags and error
    private int streamId;
    private int kind;
    private boolean endStream;
    private int error;
    private int slot = NO_SLOT;
    private int length;

    Http2HeaderBlocks(Http2Server connection, HpackDecoder decoder)
    {
        this.connection = connection;
        this.decoder = decoder;
        this.bufferPool = connection.factory.bufferPool;
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

    void onHeaders(long traceId, Http2HeadersFW headers, int frameError)
    {
        final int id = headers.streamId();
        if ((id & 1) == 0)
        {
            connection.connectionError(traceId, PROTOCOL_ERROR, "HEADERS on an even stream id");
            return;
        }
        final Http2Stream stream = connection.stream(id);
        final int blockKind;
        if (stream != null)
        {
            // an open stream takes trailers; one the client half-closed takes nothing more
            blockKind = stream.requestEnded() ? CLOSED : TRAILERS;
        }
        else if (id > connection.lastStreamId)
        {
            blockKind = NEW;
            connection.lastStreamId = id;
        }
        else if (connection.resetByUs(id))
        {
            blockKind = IGNORED;
        }
        else if (connection.recentlyClosed(id))
        {
            connection.connectionError(traceId, STREAM_CLOSED, "HEADERS on a closed stream");
            return;
        }
        else
        {
            connection.connectionError(traceId, PROTOCOL_ERROR, "a stream id lower than one already used");
            return;
        }

        if (headers.endHeaders())
        {
            onBlock(traceId, id, blockKind, headers.endStream(), frameError, headers.buffer(), headers.fragmentOffset(),
                headers.fragmentLength());
            return;
        }
        slot = bufferPool.acquire(connection.net.inboundId);
        if (slot == NO_SLOT)
        {
            connection.connectionError(traceId, Http2ErrorCode.ENHANCE_YOUR_CALM, "no buffer slot for a header block");
            return;
        }
        streamId = id;
        kind = blockKind;
        endStream = headers.endStream();
        error = frameError;
        length = 0;
        append(traceId, headers.buffer(), headers.fragmentOffset(), headers.fragmentLength());
    }

    void onContinuation(long traceId, Http2ContinuationFW continuation)
    {
        if (streamId == 0)
        {
            connection.connectionError(traceId, PROTOCOL_ERROR, "CONTINUATION without HEADERS");
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
            onBlock(traceId, id, kind, endStream, error, bufferPool.buffer(slot), 0, length);
            release();
        }
    }

    private boolean append(long traceId, DirectBuffer buffer, int offset, int fragmentLength)
    {
        final MutableDirectBuffer held = bufferPool.buffer(slot);
        if (length + fragmentLength > held.capacity())
        {
            // a block larger than a slot: it cannot be decoded, and HPACK's table would drift without it
            connection.connectionError(traceId, Http2ErrorCode.ENHANCE_YOUR_CALM, "a header block larger than a buffer slot");
            return false;
        }
        held.putBytes(length, buffer, offset, fragmentLength);
        length += fragmentLength;
        return true;
    }

    private void onBlock(long traceId, int id, int blockKind, boolean blockEndStream, int frameError, DirectBuffer buffer,
        int offset, int blockLength)
    {
        final HttpServerFactory factory = connection.factory;
        final Http2RequestHeaders sink = connection.shared.requestHeaders;
        final int result;
        switch (blockKind)
        {
            case NEW, TRAILERS ->
            {
                sink.begin(blockKind == NEW ? factory.requestHeaders : factory.trailers, blockKind == TRAILERS);
                result = decoder.decode(buffer, offset, blockLength, sink);
            }
            default -> result = decoder.decode(buffer, offset, blockLength, connection.shared.ignore);
        }
        if (result == HpackDecoder.COMPRESSION_ERROR)
        {
            connection.connectionError(traceId, COMPRESSION_ERROR, "HPACK: " + decoder.error());
            return;
        }
        if (frameError != NO_ERROR)
        {
            connection.streamError(traceId, id, frameError);
            return;
        }
        switch (blockKind)
        {
            case NEW -> onRequest(traceId, id, blockEndStream, result, sink);
            case TRAILERS ->
            {
                final int listLength = sink.end();
                if (!blockEndStream || sink.malformed || listLength < 0 || result != HpackDecoder.DECODED)
                {
                    factory.event(traceId, "http.request.rejected", "malformed trailers on stream " + id);
                    connection.streamError(traceId, id, PROTOCOL_ERROR);
                    return;
                }
                connection.stream(id).onTrailers(traceId, factory.trailers.buffer(), listLength);
            }
            case CLOSED -> connection.streamError(traceId, id, STREAM_CLOSED);
            default ->
            {
                // a stream we reset: its frames are dropped (RFC 9113 5.1)
            }
        }
    }

    private void onRequest(long traceId, int id, boolean requestEnded, int result, Http2RequestHeaders sink)
    {
        final HttpServerFactory factory = connection.factory;
        final int listLength = sink.end();
        if (sink.malformed && result == HpackDecoder.DECODED)
        {
            factory.rejected.increment();
            factory.event(traceId, "http.request.rejected", "malformed request on stream " + id + ": " + sink.reason);
            connection.streamError(traceId, id, PROTOCOL_ERROR);
            return;
        }
        final Http2Stream stream = connection.newStream(traceId, id);
        if (stream == null)
        {
            return;
        }
        if (result == HpackDecoder.HEADER_LIST_TOO_LARGE || listLength < 0)
        {
            factory.rejected.increment();
            factory.event(traceId, "http.request.rejected", "431 header list too large on stream " + id);
            stream.respondLocally(traceId, 431, null, requestEnded);
            return;
        }
        stream.onRequest(traceId, listLength, requestEnded, sink);
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
}
