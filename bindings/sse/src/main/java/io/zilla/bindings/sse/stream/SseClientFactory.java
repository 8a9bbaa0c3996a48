/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.function.Predicate;

import io.zilla.bindings.sse.config.SseConditionConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * One sse client binding on one worker: each sse stream it accepts (from an sse server, or a mapping) becomes an HTTP
 * GET with {@code accept: text/event-stream} to its route's exit (an http client), whose response is read back into
 * events ({@link SseClientStream}).
 */
final class SseClientFactory implements BindingHandler
{
    final SseServerShared shared;
    final EngineContext context;
    final BindingConfig binding;
    private final Long2ObjectHashMap<SseClientStream> streams = new Long2ObjectHashMap<>();
    private final ArrayDeque<SseClientStream> spares = new ArrayDeque<>();

    private DirectBuffer pathBuffer;
    private int pathOffset;
    private int pathLength;
    private final Predicate<ConditionConfig> pathMatcher = this::matchesPath;

    SseClientFactory(EngineContext context, SseServerShared shared, BindingConfig binding)
    {
        this.context = context;
        this.shared = shared;
        this.binding = binding;
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = shared.beginRO.wrap(buffer, index, index + length);
        final SseClientStream spare = spares.poll();
        final SseClientStream stream = spare != null ? spare : new SseClientStream(this);
        stream.sse.set(sender, begin.originId(), begin.routedId(), begin.streamId(), begin.streamId() & ~1L);
        streams.put(stream.sse.inboundId, stream);
        return stream.onSse;
    }

    /** The exit of the first route whose path matches, or 0 when none does. */
    long resolve(DirectBuffer buffer, int offset, int length)
    {
        pathBuffer = buffer;
        pathOffset = offset;
        pathLength = length;
        final var route = binding.resolve(pathMatcher);
        return route != null ? route.exitId() : 0L;
    }

    private boolean matchesPath(ConditionConfig condition)
    {
        return condition instanceof SseConditionConfig sse && pathLength >= 0
            && sse.matches(pathBuffer, pathOffset, pathLength);
    }

    void release(SseClientStream stream, long initialId)
    {
        if (streams.remove(initialId) == stream)
        {
            spares.push(stream);
        }
    }

    void event(long traceId, String event, String detail)
    {
        context.event(binding.id(), traceId, event, detail);
    }

    void close()
    {
        for (SseClientStream stream : new ArrayList<>(streams.values()))
        {
            stream.doAbortAll(0L);
        }
    }
}
