/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.poller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.zilla.engine.binding.poller.PollerKey;

/**
 * A worker's selector. Ready channels run their handlers on the worker; a handler that throws closes only its
 * own channel (the failure goes to {@code onFault}).
 */
public final class Poller implements AutoCloseable
{
    private final Selector selector;
    private final Consumer<SelectionKey> onSelected = this::onSelected;
    private final FaultHandler onFault;
    private final BooleanSupplier congested;
    private int work;

    /**
     * @param congested whether the worker's ring is too full to take more frames now: ready channels then wait
     *                  (the selector reports them again) until the ring has been drained
     */
    public Poller(FaultHandler onFault, BooleanSupplier congested)
    {
        this.onFault = onFault;
        this.congested = congested;
        try
        {
            this.selector = Selector.open();
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    public PollerKey register(SelectableChannel channel)
    {
        try
        {
            channel.configureBlocking(false);
            final SelectorPollerKey key = new SelectorPollerKey(channel);
            key.key(channel.register(selector, 0, key));
            return key;
        }
        catch (ClosedChannelException ex)
        {
            throw new IllegalStateException("channel is closed", ex);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Runs the handlers of the channels ready now, waiting up to {@code timeoutMillis} (0: not at all). */
    public int poll(long timeoutMillis)
    {
        work = 0;
        try
        {
            if (timeoutMillis <= 0)
            {
                selector.selectNow(onSelected);
            }
            else
            {
                selector.select(onSelected, timeoutMillis);
            }
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return work;
    }

    /** Wakes a worker blocked in {@link #poll}; safe from any thread. */
    public void wakeup()
    {
        selector.wakeup();
    }

    @Override
    public void close()
    {
        try
        {
            selector.close();
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void onSelected(SelectionKey key)
    {
        if (congested.getAsBoolean())
        {
            // reading more now would write frames into a ring already half full; the key stays ready
            return;
        }
        final SelectorPollerKey pollerKey = (SelectorPollerKey) key.attachment();
        try
        {
            work += pollerKey.onReady(key.readyOps());
        }
        catch (Throwable ex)
        {
            pollerKey.cancel();
            onFault.onFault(pollerKey.channel(), ex);
        }
    }

    @FunctionalInterface
    public interface FaultHandler
    {
        void onFault(SelectableChannel channel, Throwable cause);
    }
}
