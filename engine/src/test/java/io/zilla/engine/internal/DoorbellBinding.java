/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.signal.Doorbell;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.test.TestBindingType;

/**
 * A server binding that, attached, takes a doorbell of its worker and counts the runs of its handler; the test rings it
 * from its own thread. The handler may be held (a latch) to ring it while it runs.
 */
final class DoorbellBinding extends TestBindingType
{
    static final String TYPE = "doorbell";

    final AtomicLong runs = new AtomicLong();
    final CountDownLatch attached = new CountDownLatch(1);
    volatile Doorbell doorbell;
    volatile Thread worker;
    volatile Thread handlerThread;
    volatile CountDownLatch hold;
    volatile CountDownLatch holding;

    DoorbellBinding()
    {
        super(TYPE, KindConfig.SERVER);
    }

    static NamespaceConfig namespace()
    {
        final BindingConfig server = new BindingConfig(1L << 32 | 1, "server", TYPE, KindConfig.SERVER, null, null,
            List.of());
        return new NamespaceConfig("test", List.of(server), List.of(), List.of(), TelemetryConfig.EMPTY);
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new BindingContext()
        {
            @Override
            public BindingHandler attach(BindingConfig binding)
            {
                worker = Thread.currentThread();
                doorbell = context.supplyDoorbell(DoorbellBinding.this::onRing);
                attached.countDown();
                return (msgTypeId, buffer, index, length, sender) -> null;
            }

            @Override
            public void detach(BindingConfig binding)
            {
                doorbell.close();
            }
        };
    }

    private void onRing()
    {
        handlerThread = Thread.currentThread();
        final CountDownLatch held = hold;
        if (held != null)
        {
            hold = null;
            holding.countDown();
            await(held);
        }
        runs.incrementAndGet();
    }

    private static void await(CountDownLatch latch)
    {
        try
        {
            latch.await(20, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
