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
 * payload is copied once on its way through. A response head can be held back ({@link #hold}) to go out in one Data
 * frame with what follows it (the first chunk, or the end of a response without a body): one write to the socket
 * rather than two.
 */
final class HttpNetWriter
{
    private static final DirectBuffer CRLF = new UnsafeBuffer("\r\n".getBytes());
    /** A chunk's size line: up to 16 hex digits and CRLF. */
    static final int CHUNK_HEAD_MAX = 18;

    // the worker's scratch for a chunk's size line, shared by its writers: write() copies it out before returning
    private final MutableDirectBuffer chunkHead;
    private final StreamSide net;
    private final BufferPool bufferPool;
    private final int maxFrame;
    private int slot = NO_SLOT;
    private int offset;
    private int limit;
    // what is held waits for the next write, not for credit
    private boolean holding;

    HttpNetWriter(StreamSide net, BufferPool bufferPool, int maxFrame, MutableDirectBuffer chunkHead)
    {
        this.chunkHead = chunkHead;
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
        final boolean joined = holding;
        holding = false;
        if (joined && writeInPlace(traceId, false, buffer, index, length))
        {
            return true;
        }
        if (slot == NO_SLOT && net.outCredit() >= length)
        {
            net.doOutData(traceId, buffer, index, length);
            return true;
        }
        if (!append(buffer, index, length))
        {
            return false;
        }
        flush(traceId);
        return true;
    }

    /**
     * Holds {@code length} bytes (a response head) until the next write, or {@link #releaseHeld}, so that both go in
     * one Data frame; false when they can neither be held nor written.
     */
    boolean hold(long traceId, DirectBuffer buffer, int index, int length)
    {
        if (length <= 0 || net.outClosed)
        {
            return true;
        }
        holding = true;
        if (append(buffer, index, length))
        {
            return true;
        }
        holding = false;
        // no slot to hold it in (a burst of heads answered in one pass has taken the pool's slots): holding only
        // saves a write, so the head goes out now, as far as the client's credit allows
        return slot == NO_SLOT && write(traceId, buffer, index, length);
    }

    /** Writes what {@link #hold} held, as far as the peer's credit goes. */
    void releaseHeld(long traceId)
    {
        holding = false;
        flush(traceId);
    }

    /**
     * Writes {@code length} bytes of a chunked body as one chunk: its size line, the bytes and CRLF, built in the
     * outgoing Data frame (after what is held, if anything) when the peer's credit takes it all and nothing waits for
     * credit, else through {@link #write}.
     */
    boolean writeChunk(long traceId, DirectBuffer buffer, int index, int length)
    {
        if (length <= 0 || net.outClosed)
        {
            return true;
        }
        final boolean joined = holding;
        holding = false;
        if ((slot == NO_SLOT || joined) && writeInPlace(traceId, true, buffer, index, length))
        {
            return true;
        }
        final int digits = HttpAsciiWriter.hexDigits(length);
        HttpAsciiWriter.putHex(chunkHead, 0, length, digits);
        chunkHead.putBytes(digits, CRLF, 0, 2);
        return write(traceId, chunkHead, 0, digits + 2)
            && write(traceId, buffer, index, length)
            && write(traceId, CRLF, 0, 2);
    }

    /** The bytes held or waiting for credit. */
    int held()
    {
        return slot != NO_SLOT ? limit - offset : 0;
    }

    /** Writes what waits for credit, as far as the peer's credit goes; what is held for the next write stays. */
    void flush(long traceId)
    {
        while (slot != NO_SLOT && !holding)
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

    /** Whether bytes wait for the peer's credit (bytes held for the next write do not). */
    boolean pending()
    {
        return slot != NO_SLOT && !holding;
    }

    void release()
    {
        if (slot != NO_SLOT)
        {
            bufferPool.release(slot);
            slot = NO_SLOT;
        }
    }

    // what is in the slot, then the bytes (framed as a chunk or not), in one Data frame built where it is read
    private boolean writeInPlace(long traceId, boolean chunk, DirectBuffer buffer, int index, int length)
    {
        final int held = held();
        final int digits = chunk ? HttpAsciiWriter.hexDigits(length) : 0;
        final int frameLength = held + (chunk ? digits + 2 + length + 2 : length);
        if (net.outCredit() < frameLength)
        {
            return false;
        }
        final int payloadIndex = net.claimOutData(frameLength);
        if (payloadIndex < 0)
        {
            return false;
        }
        final MutableDirectBuffer frame = net.outBuffer();
        int at = payloadIndex;
        if (held > 0)
        {
            frame.putBytes(at, bufferPool.buffer(slot), offset, held);
            at += held;
            release();
        }
        if (chunk)
        {
            HttpAsciiWriter.putHex(frame, at, length, digits);
            frame.putBytes(at + digits, CRLF, 0, 2);
            at += digits + 2;
        }
        frame.putBytes(at, buffer, index, length);
        if (chunk)
        {
            frame.putBytes(at + length, CRLF, 0, 2);
        }
        net.commitOutData(traceId, payloadIndex, frameLength);
        return true;
    }

    // appends to the slot; false when no slot is free or the bytes do not fit it
    private boolean append(DirectBuffer buffer, int index, int length)
    {
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
        return true;
    }
}
