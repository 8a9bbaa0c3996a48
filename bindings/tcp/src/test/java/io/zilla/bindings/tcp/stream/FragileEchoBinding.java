/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import io.zilla.bindings.echo.stream.EchoServerFactory;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.test.TestBindingType;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;

/** An echo that throws on any Data carrying {@code boom}: a binding bug, as the engine must contain it. */
final class FragileEchoBinding extends TestBindingType
{
    static final String TYPE = "fragile_echo";

    FragileEchoBinding()
    {
        super(TYPE, KindConfig.SERVER);
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        final EchoServerFactory echo = new EchoServerFactory(context);
        final DataFW dataRO = new DataFW();
        return new BindingContext()
        {
            @Override
            public BindingHandler attach(BindingConfig binding)
            {
                return (msgTypeId, buffer, index, length, sender) ->
                {
                    final MessageConsumer delegate = echo.newStream(msgTypeId, buffer, index, length, sender);
                    return (type, frame, offset, size) ->
                    {
                        if (type == DataFW.TYPE_ID && isBoom(dataRO.wrap(frame, offset, offset + size).payload()))
                        {
                            throw new IllegalStateException("boom on purpose");
                        }
                        delegate.accept(type, frame, offset, size);
                    };
                };
            }

            @Override
            public void detach(BindingConfig binding)
            {
                echo.detach(binding.id());
            }
        };
    }

    private static boolean isBoom(OctetsFW payload)
    {
        if (payload == null)
        {
            return false;
        }
        final DirectBuffer buffer = payload.buffer();
        final String text = buffer.getStringWithoutLengthAscii(payload.offset(), payload.sizeof());
        return text.contains("boom");
    }
}
