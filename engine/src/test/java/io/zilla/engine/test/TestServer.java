/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import org.agrona.DirectBuffer;

/**
 * A {@code test} binding of kind server: accepts every stream, begins its reply, grants credit, and records
 * what arrives. Streams are listed in the order they were accepted.
 */
public final class TestServer implements BindingHandler
{
    private final EngineContext context;
    private final BindingConfig binding;
    private final BeginFW beginRO = new BeginFW();
    private final List<TestStream> streams = new CopyOnWriteArrayList<>();

    TestServer(EngineContext context, BindingConfig binding)
    {
        this.context = context;
        this.binding = binding;
    }

    EngineContext context()
    {
        return context;
    }

    public List<TestStream> streams()
    {
        return streams;
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final long initialId = begin.streamId();
        final TestStream stream = new TestStream(begin.originId(), begin.routedId(), initialId & ~1L, initialId);
        final long traceId = begin.traceId();
        stream.target(sender);
        streams.add(stream);
        return (type, frames, offset, size) ->
        {
            stream.onMessage(type, frames, offset, size);
            if (type == BeginFW.TYPE_ID)
            {
                stream.doBegin(traceId);
            }
        };
    }

    /** The binding this server is. */
    public BindingConfig binding()
    {
        return binding;
    }
}
