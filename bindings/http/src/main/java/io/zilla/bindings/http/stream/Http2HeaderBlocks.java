/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.COMPRESSION_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.NO_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.STREAM_CLOSED;

import io.zilla.bindings.http.codec.hpack.HpackDecoder;
import io.zilla.bindings.http.codec.http2.Http2ContinuationFW;
import io.zilla.bindings.http.codec.http2.Http2HeadersFW;
import org.agrona.DirectBuffer;

/**
 * The header blocks of one HTTP/2 server connection: a HEADERS frame and its CONTINUATION frames gathered
 * ({@link Http2BlockGatherer}), then decoded by the connection's HPACK decoder, whatever
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
    private final Http2BlockGatherer gatherer;

    Http2HeaderBlocks(Http2Server connection, HpackDecoder decoder)
    {
        this.connection = connection;
        this.decoder = decoder;
        this.gatherer = new Http2BlockGatherer(connection, connection.factory.bufferPool, this::onBlock,
            connection.factory.floods.maxContinuations());
    }

    /** A HEADERS frame was not complete with END_HEADERS: only CONTINUATION frames of its stream may follow. */
    boolean expectsContinuation()
    {
        return gatherer.expectsContinuation();
    }

    int streamId()
    {
        return gatherer.streamId();
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
        gatherer.onHeaders(traceId, headers, blockKind, frameError);
    }

    void onContinuation(long traceId, Http2ContinuationFW continuation)
    {
        gatherer.onContinuation(traceId, continuation);
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
        gatherer.release();
    }
}
