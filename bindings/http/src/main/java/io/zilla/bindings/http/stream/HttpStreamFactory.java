/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.bindings.http.config.Http2FloodLimits;
import io.zilla.bindings.http.config.HttpOptionsConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpEndExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the streams of one http binding on one worker share, whatever its kind: the options and routes, the frame
 * flyweights and builders, and the scratch buffers a head or a chunk is written in. Single-threaded, as the worker.
 */
abstract class HttpStreamFactory implements BindingHandler
{
    /** A chunk's framing around its payload: up to 16 hex digits, CRLF, and the CRLF after the payload. */
    static final int CHUNK_OVERHEAD = 20;
    /** What the first Data of a request body of unknown length adds to the head: its framing and the empty line. */
    static final int FRAMING_TAIL = 32;

    final EngineContext context;
    final BindingConfig binding;
    final HttpOptionsConfig options;
    /** The HTTP/2 flood limits of the engine's properties. */
    final Http2FloodLimits floods;
    final StreamFrames frames;
    final BufferPool bufferPool;
    final HttpRouter router;
    final HttpRequestHead head = new HttpRequestHead();
    final HttpHeaderListWriter trailers;
    final HttpAsciiWriter out;
    final Http1HeaderEncoder headers = new Http1HeaderEncoder();
    final int[] length = new int[1];
    /** The most payload one Data frame to the peer may carry, so that its chunk fits {@link #out}. */
    final int maxFrame;
    /** A chunk's size line as a writer builds it, shared by this worker's connections (not one each). */
    final MutableDirectBuffer chunkHead = new UnsafeBuffer(new byte[HttpNetWriter.CHUNK_HEAD_MAX]);

    final BeginFW beginRO = new BeginFW();
    final DataFW dataRO = new DataFW();
    final EndFW endRO = new EndFW();
    final AbortFW abortRO = new AbortFW();
    final FlushFW flushRO = new FlushFW();
    final WindowFW windowRO = new WindowFW();
    final ResetFW resetRO = new ResetFW();
    final HttpBeginExFW httpBeginExRO = new HttpBeginExFW();
    final HttpEndExFW httpEndExRO = new HttpEndExFW();
    final BeginFW.Builder beginRW = new BeginFW.Builder();
    final EndFW.Builder endRW = new EndFW.Builder();

    private Http2Shared http2;

    HttpStreamFactory(EngineContext context, BindingConfig binding, Http2FloodLimits floods)
    {
        this.context = context;
        this.binding = binding;
        this.floods = floods;
        this.options = binding.options() instanceof HttpOptionsConfig http ? http : HttpOptionsConfig.DEFAULTS;
        this.frames = new StreamFrames(context.writeBuffer());
        this.bufferPool = context.bufferPool();
        final int capacity = bufferPool.slotCapacity();
        this.router = new HttpRouter(binding, options, capacity);
        this.trailers = new HttpHeaderListWriter(capacity);
        this.out = new HttpAsciiWriter(new UnsafeBuffer(new byte[capacity + CHUNK_OVERHEAD + FRAMING_TAIL]));
        this.maxFrame = capacity;
    }

    /** The header-list limit: the configured one, within what a buffer slot can hold. */
    int headerListSize()
    {
        // one byte less than a slot: a head that fills the slot is then over the limit, not waiting for credit
        return Math.min(options.limits().headerListSize(), bufferPool.slotCapacity() - 1);
    }

    /** What this worker's HTTP/2 connections of this binding share, made when the first one starts. */
    Http2Shared http2()
    {
        if (http2 == null)
        {
            http2 = new Http2Shared(out.buffer.capacity());
        }
        return http2;
    }

    /** Ends {@code side}'s outbound direction with {@code extension} (an HttpEndEx of trailers), or without one. */
    void doEnd(StreamSide side, long traceId, DirectBuffer extension, int offset, int length)
    {
        if (extension == null)
        {
            side.doOutEnd(traceId);
        }
        else if (side.outOpened && !side.outClosed)
        {
            final MutableDirectBuffer writeBuffer = context.writeBuffer();
            final EndFW end = endRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(side.originId).routedId(side.routedId).streamId(side.outboundId)
                .sequence(side.outSeq).acknowledge(side.outAck).maximum(side.outMax)
                .traceId(traceId)
                .extension(extension, offset, length)
                .build();
            side.target.accept(EndFW.TYPE_ID, end.buffer(), end.offset(), end.sizeof());
            side.outClosed = true;
        }
    }

    /**
     * Resets {@code side}'s inbound direction whatever its state: after its End (an exit's request that will get no
     * reply) or before its Begin (a reply that no one waits for any more), which {@link StreamSide#doInReset} skips.
     * The engine delivers it while the stream is open; the caller makes sure it is sent once.
     */
    void doReset(StreamSide side, long traceId, DirectBuffer extension, int length)
    {
        frames.reset(side.target, side.originId, side.routedId, side.inboundId, side.inSeq, side.inAck, side.inMax,
            traceId, extension, 0, length);
        side.inClosed = true;
    }

    void event(long traceId, String name, String detail)
    {
        context.event(binding.id(), traceId, name, "bindings." + binding.name() + ": " + detail);
    }

    /** The binding is going away: abort every stream it still serves. */
    abstract void close();

    /**
     * Opens the stream to the exit that carries one request: a Begin with the request's header list ({@code length}
     * bytes from offset 0 of {@code extension}; null: none, for a client's connection), whose frames come back to
     * {@code handler}; {@code app} becomes that stream's side. False when the exit is not there.
     */
    boolean openApp(StreamSide app, long traceId, long exitId, DirectBuffer extension, int length, MessageConsumer handler)
    {
        final long initialId = context.supplyInitialId(exitId);
        final long replyId = context.supplyReplyId(initialId);
        final MutableDirectBuffer writeBuffer = context.writeBuffer();
        final BeginFW.Builder builder = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(binding.id()).routedId(exitId).streamId(initialId)
            .sequence(0).acknowledge(0).maximum(0)
            .traceId(traceId);
        final BeginFW begin = (extension != null ? builder.extension(extension, 0, length) : builder).build();
        final MessageConsumer exit = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), handler);
        final boolean opened = exit != null;
        if (opened)
        {
            app.set(exit, binding.id(), exitId, replyId, initialId);
            app.outOpened = true;
        }
        return opened;
    }
}
