/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import org.agrona.DirectBuffer;

/** One http client binding on one worker. */
public final class HttpClientFactory implements BindingHandler
{
    public HttpClientFactory(EngineContext context, BindingConfig binding)
    {
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        return null;
    }

    public void close()
    {
    }
}
