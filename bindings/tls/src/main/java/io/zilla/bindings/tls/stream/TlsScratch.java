/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.nio.ByteBuffer;
import java.util.concurrent.Executor;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.StreamFrames;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the tls connections of one worker share: the engine context, the frame writer, direct buffers that an
 * SSLEngine wraps into and unwraps into (used and emptied within one call, so one set serves every connection of
 * the worker), a ByteBuffer view of each buffer slot (made once per slot), and the executor that runs the
 * handshakes' delegated tasks off the worker.
 */
final class TlsScratch
{
    /** The most a TLS record adds to its plaintext: header 5, explicit nonce 8 (TLS 1.2 GCM) or type 1, tag 16. */
    static final int RECORD_OVERHEAD = 5 + 8 + 16 + 3;
    static final int MAX_PLAINTEXT = 16 * 1024;

    final EngineContext context;
    final StreamFrames frames;
    final BufferPool bufferPool;
    final Executor executor;
    final long timeout;

    /** Plaintext to encrypt, copied out of a Data frame (the ring's bytes are not a ByteBuffer). */
    final ByteBuffer plainIn;
    final MutableDirectBuffer plainInBuffer;
    /** What unwrap decrypts into, sent on as Data at once. */
    final ByteBuffer plainOut;
    final MutableDirectBuffer plainOutBuffer;
    /** What wrap encrypts into, sent on as Data at once (or held in the connection's slot). */
    final ByteBuffer cipherOut;
    final MutableDirectBuffer cipherOutBuffer;
    final ByteBuffer empty = ByteBuffer.allocateDirect(0);

    /** Padding a Data frame of plaintext needs to cover its records: frames up to {@link #plainIn}'s size. */
    final int framePadding;

    private final Int2ObjectHashMap<ByteBuffer> slotViews = new Int2ObjectHashMap<>();

    TlsScratch(EngineContext context, Executor executor, long timeout)
    {
        this.context = context;
        this.frames = new StreamFrames(context.writeBuffer());
        this.bufferPool = context.bufferPool();
        this.executor = executor;
        this.timeout = timeout;
        final int capacity = Math.max(bufferPool.slotCapacity(), 2 * MAX_PLAINTEXT);
        this.plainIn = ByteBuffer.allocateDirect(capacity);
        this.plainInBuffer = new UnsafeBuffer(plainIn);
        this.plainOut = ByteBuffer.allocateDirect(capacity + MAX_PLAINTEXT);
        this.plainOutBuffer = new UnsafeBuffer(plainOut);
        final int records = (capacity + MAX_PLAINTEXT - 1) / MAX_PLAINTEXT + 1;
        this.cipherOut = ByteBuffer.allocateDirect(capacity + records * RECORD_OVERHEAD + 2 * MAX_PLAINTEXT);
        this.cipherOutBuffer = new UnsafeBuffer(cipherOut);
        this.framePadding = records * RECORD_OVERHEAD;
    }

    /** The slot's bytes as a ByteBuffer (position 0, limit its capacity), for an SSLEngine to read. */
    ByteBuffer view(int slot)
    {
        ByteBuffer view = slotViews.get(slot);
        if (view == null)
        {
            final MutableDirectBuffer buffer = bufferPool.buffer(slot);
            final ByteBuffer whole = buffer.byteBuffer().duplicate();
            final int offset = (int) buffer.wrapAdjustment();
            whole.limit(offset + buffer.capacity()).position(offset);
            view = whole.slice();
            slotViews.put(slot, view);
        }
        view.clear();
        return view;
    }
}
