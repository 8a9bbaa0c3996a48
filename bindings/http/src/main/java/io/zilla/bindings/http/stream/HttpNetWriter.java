/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.engine.binding.buffer.BufferPool.NO_SLOT;

import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.StreamSide;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes an HTTP/1.1 connection's bytes to its network stream: at once while the peer's credit allows and nothing
 * waits before them, else into a buffer slot that the next Window drains. Only what this binding makes itself (a head,
 * a chunk's framing, a status it answers) ever waits there: a body is given credit from the network's, so it fits.
 * A chunk of a body is written with its framing straight into the Data frame toward the network, so that the
 * payload is copied once on its way through.
 */
final class HttpNetWriter
{
    private static final DirectBuffer CRLF = new UnsafeBuffer("\r\n".getBytes());
    /** A chunk's size line: up to 16 hex digits and CRLF. */
    private static final int CHUNK_HEAD_MAX = 18;

    private final MutableDirectBuffer chunkHead = new UnsafeBuffer(new byte[CHUNK_HEAD_MAX]);
    private final StreamSide net;
    private final BufferPool bufferPool;
    private final int maxFrame;
    private int slot = NO_SLOT;
    private int offset;
    private int limit;

    HttpNetWriter(StreamSide net, BufferPool bufferPool, int maxFrame)
    {
        this.net = net;
        this.bufferPool = bufferPool;
        this.maxFrame = maxFrame;
    }

    /** Writes or queues {@code length} bytes; false when they cannot be held (no slot, or more than one holds). */
    boolean write(long traceId, DirectBuffer buffer, int index, int length)
    {
        if (length <= 0 || net.outClosed)
        {
            return true;
        }
        if (slot == NO_SLOT && net.outCredit() >= length)
        {
            net.doOutData(traceId, buffer, index, length);
            return true;
        }
        if (slot == NO_SLOT)
        {
            slot = bufferPool.acquire(net.outboundId);
            offset = 0;
            limit = 0;
            if (slot == NO_SLOT)
            {
                return false;
            }
        }
        final MutableDirectBuffer held = bufferPool.buffer(slot);
        if (offset > 0)
        {
            held.putBytes(0, held, offset, limit - offset);
            limit -= offset;
            offset = 0;
        }
        if (limit + length > held.capacity())
        {
            return false;
        }
        held.putBytes(limit, buffer, index, length);
        limit += length;
        flush(traceId);
        return true;
    }

    /**
     * Writes {@code length} bytes of a chunked body as one chunk: its size line, the bytes and CRLF, built in the
     * outgoing Data frame when the peer's credit takes it all and nothing waits, else through {@link #write}.
     */
    boolean writeChunk(long traceId, DirectBuffer buffer, int index, int length)
    {
        if (length <= 0 || net.outClosed)
        {
            return true;
        }
        final int digits = HttpAsciiWriter.hexDigits(length);
        final int framed = digits + 2 + length + 2;
        if (slot == NO_SLOT && net.outCredit() >= framed)
        {
            final int payloadIndex = net.claimOutData(framed);
            if (payloadIndex >= 0)
            {
                final MutableDirectBuffer frame = net.outBuffer();
                HttpAsciiWriter.putHex(frame, payloadIndex, length, digits);
                frame.putBytes(payloadIndex + digits, CRLF, 0, 2);
                frame.putBytes(payloadIndex + digits + 2, buffer, index, length);
                frame.putBytes(payloadIndex + framed - 2, CRLF, 0, 2);
                net.commitOutData(traceId, payloadIndex, framed);
                return true;
            }
        }
        HttpAsciiWriter.putHex(chunkHead, 0, length, digits);
        chunkHead.putBytes(digits, CRLF, 0, 2);
        return write(traceId, chunkHead, 0, digits + 2)
            && write(traceId, buffer, index, length)
            && write(traceId, CRLF, 0, 2);
    }

    /** Writes what waits, as far as the peer's credit goes. */
    void flush(long traceId)
    {
        while (slot != NO_SLOT)
        {
            final int credit = Math.min(net.outCredit(), maxFrame);
            if (credit <= 0)
            {
                break;
            }
            final int length = Math.min(credit, limit - offset);
            net.doOutData(traceId, bufferPool.buffer(slot), offset, length);
            offset += length;
            if (offset == limit)
            {
                release();
            }
        }
    }

    /** Whether bytes wait for the peer's credit. */
    boolean pending()
    {
        return slot != NO_SLOT;
    }

    void release()
    {
        if (slot != NO_SLOT)
        {
            bufferPool.release(slot);
            slot = NO_SLOT;
        }
    }
}
