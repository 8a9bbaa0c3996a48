/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.nio.ByteBuffer;
import java.util.concurrent.Executor;

import io.zilla.bindings.tls.engine.TlsEngineProvider;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the tls connections of one worker share: the engine context, the frame writer, the buffers that an
 * SSLEngine wraps and unwraps from and into (used and emptied within one call, so one set serves every connection
 * of the worker), and the executor that runs the handshakes' delegated tasks off the worker.
 * <p>
 * The buffers are on the heap for the JDK's engine and direct for others: the JDK's AES-GCM works on arrays and
 * allocates a copy of each record it is given in a direct buffer (measured: 5 KB per record with direct buffers,
 * 3 KB with heap ones, what remains being the engine's own), while a native engine wants direct memory.
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
    final TlsEngineProvider provider;

    /** Read-only views of the frames a connection receives, wrapped and read within one call. */
    final BeginFW beginRO = new BeginFW();
    final DataFW dataRO = new DataFW();
    final EndFW endRO = new EndFW();
    final AbortFW abortRO = new AbortFW();
    final WindowFW windowRO = new WindowFW();
    final ResetFW resetRO = new ResetFW();
    final SignalFW signalRO = new SignalFW();

    /** Plaintext to encrypt, copied out of a Data frame (the ring's bytes are not a ByteBuffer). */
    final ByteBuffer plainIn;
    final MutableDirectBuffer plainInBuffer;
    /** One record to decrypt, copied out of a connection's slot. */
    final ByteBuffer cipherIn;
    final MutableDirectBuffer cipherInBuffer;
    /** What unwrap decrypts into, sent on as Data at once. */
    final ByteBuffer plainOut;
    final MutableDirectBuffer plainOutBuffer;
    /** What wrap encrypts into, sent on as Data at once (or held in the connection's slot). */
    final ByteBuffer cipherOut;
    final MutableDirectBuffer cipherOutBuffer;
    final ByteBuffer empty = ByteBuffer.allocateDirect(0);

    /** Padding a Data frame of plaintext needs to cover its records: frames up to {@link #plainIn}'s size. */
    final int framePadding;

    TlsScratch(EngineContext context, Executor executor, long timeout, TlsEngineProvider provider)
    {
        final boolean direct = !"jdk".equals(provider.name());
        this.provider = provider;
        this.context = context;
        this.frames = new StreamFrames(context.writeBuffer());
        this.bufferPool = context.bufferPool();
        this.executor = executor;
        this.timeout = timeout;
        final int capacity = Math.max(bufferPool.slotCapacity(), 2 * MAX_PLAINTEXT);
        this.plainIn = allocate(direct, capacity);
        this.plainInBuffer = new UnsafeBuffer(plainIn);
        this.cipherIn = allocate(direct, capacity);
        this.cipherInBuffer = new UnsafeBuffer(cipherIn);
        this.plainOut = allocate(direct, capacity + MAX_PLAINTEXT);
        this.plainOutBuffer = new UnsafeBuffer(plainOut);
        final int records = (capacity + MAX_PLAINTEXT - 1) / MAX_PLAINTEXT + 1;
        this.cipherOut = allocate(direct, capacity + records * RECORD_OVERHEAD + 2 * MAX_PLAINTEXT);
        this.cipherOutBuffer = new UnsafeBuffer(cipherOut);
        this.framePadding = records * RECORD_OVERHEAD;
    }

    private static ByteBuffer allocate(boolean direct, int capacity)
    {
        return direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
    }
}
