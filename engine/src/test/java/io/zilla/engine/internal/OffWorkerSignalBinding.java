/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.test.TestBindingType;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.SignalFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A server binding that, on Begin, has {@code signals} signals sent to its stream from threads of its own pool
 * ({@link EngineContext#signalNowFromAnyThread}), each after {@code delayMillis}, and ends its reply once all of them
 * reached it, each on the worker's thread; a signal on any other thread aborts the reply instead.
 */
final class OffWorkerSignalBinding extends TestBindingType
{
    static final String TYPE = "offworker";

    private static final long CLIENT_ID = 1L << 32 | 1;
    private static final long SERVER_ID = 1L << 32 | 2;

    private final int signals;
    private final long delayMillis;
    private final ExecutorService pool = Executors.newFixedThreadPool(4, task ->
    {
        final Thread thread = new Thread(task, "off-worker");
        thread.setDaemon(true);
        return thread;
    });

    /** A thousand signals at once. */
    OffWorkerSignalBinding()
    {
        this(1_000, 0L);
    }

    OffWorkerSignalBinding(int signals, long delayMillis)
    {
        super(TYPE, KindConfig.SERVER);
        this.signals = signals;
        this.delayMillis = delayMillis;
    }

    /** A test client binding "app" routed to this binding, "server". */
    static NamespaceConfig namespace()
    {
        final RouteConfig toServer = new RouteConfig(0, List.of(), null, "server", SERVER_ID, Map.of());
        final BindingConfig app = new BindingConfig(CLIENT_ID, "app", "test", KindConfig.CLIENT, null, null, List.of(toServer));
        final BindingConfig server = new BindingConfig(SERVER_ID, "server", TYPE, KindConfig.SERVER, null, null, List.of());
        return new NamespaceConfig("test", List.of(app, server), List.of(), List.of(), TelemetryConfig.EMPTY);
    }



    @Override
    public BindingContext supply(EngineContext context)
    {
        return new BindingContext()
        {
            @Override
            public BindingHandler attach(BindingConfig binding)
            {
                return (msgTypeId, buffer, index, length, sender) -> new SignalledStream(context, sender)::onMessage;
            }

            @Override
            public void detach(BindingConfig binding)
            {
            }
        };
    }

    private final class SignalledStream
    {
        private final EngineContext context;
        private final MessageConsumer sender;
        private final MutableDirectBuffer writeBuffer = new UnsafeBuffer(new byte[256]);
        private final BeginFW beginRO = new BeginFW();
        private final SignalFW signalRO = new SignalFW();

        private long originId;
        private long routedId;
        private long replyId;
        private Thread worker;
        private int received;
        private boolean strayThread;

        SignalledStream(EngineContext context, MessageConsumer sender)
        {
            this.context = context;
            this.sender = sender;
        }

        void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            if (msgTypeId == BeginFW.TYPE_ID)
            {
                final BeginFW begin = beginRO.wrap(buffer, index, index + length);
                originId = begin.originId();
                routedId = begin.routedId();
                replyId = begin.streamId() & ~1L;
                worker = Thread.currentThread();
                final BeginFW reply = new BeginFW.Builder().wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(replyId).sequence(0).acknowledge(0).maximum(0)
                    .build();
                sender.accept(BeginFW.TYPE_ID, reply.buffer(), reply.offset(), reply.sizeof());
                for (int i = 0; i < signals; i++)
                {
                    final int contextId = i;
                    pool.execute(() ->
                    {
                        sleep(delayMillis);
                        context.signalNowFromAnyThread(originId, routedId, replyId, 0L, 1, contextId);
                    });
                }
            }
            else if (msgTypeId == SignalFW.TYPE_ID)
            {
                signalRO.wrap(buffer, index, index + length);
                strayThread |= Thread.currentThread() != worker;
                if (++received == signals && !strayThread)
                {
                    final EndFW end = new EndFW.Builder().wrap(writeBuffer, 0, writeBuffer.capacity())
                        .originId(originId).routedId(routedId).streamId(replyId).sequence(0).acknowledge(0).maximum(0)
                        .build();
                    sender.accept(EndFW.TYPE_ID, end.buffer(), end.offset(), end.sizeof());
                }
            }
        }
    }

    private static void sleep(long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
