/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.poller;

import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;

import io.zilla.engine.binding.poller.PollerKey;

/** A channel's registration: interest ops and one handler per op. */
final class SelectorPollerKey implements PollerKey
{
    private static final PollerHandler NONE = key -> 0;

    private final SelectableChannel channel;
    private SelectionKey key;
    private PollerHandler onRead = NONE;
    private PollerHandler onWrite = NONE;
    private PollerHandler onConnect = NONE;
    private PollerHandler onAccept = NONE;
    private int interest;

    SelectorPollerKey(SelectableChannel channel)
    {
        this.channel = channel;
    }

    void key(SelectionKey key)
    {
        this.key = key;
    }

    @Override
    public SelectableChannel channel()
    {
        return channel;
    }

    @Override
    public void handler(int op, PollerHandler handler)
    {
        switch (op)
        {
            case SelectionKey.OP_READ -> onRead = handler;
            case SelectionKey.OP_WRITE -> onWrite = handler;
            case SelectionKey.OP_CONNECT -> onConnect = handler;
            case SelectionKey.OP_ACCEPT -> onAccept = handler;
            default -> throw new IllegalArgumentException("one operation at a time, not " + op);
        }
    }

    @Override
    public void register(int ops)
    {
        interest(interest | ops);
    }

    @Override
    public void clear(int ops)
    {
        interest(interest & ~ops);
    }

    @Override
    public boolean isRegistered(int ops)
    {
        return (interest & ops) != 0;
    }

    @Override
    public void cancel()
    {
        interest = 0;
        key.cancel();
    }

    int onReady(int readyOps)
    {
        int work = 0;
        // only the ops still of interest: an earlier handler in this round may have cleared or cancelled them
        if ((readyOps & SelectionKey.OP_ACCEPT & interest) != 0)
        {
            work += onAccept.onReady(this);
        }
        if ((readyOps & SelectionKey.OP_CONNECT & interest) != 0)
        {
            work += onConnect.onReady(this);
        }
        if ((readyOps & SelectionKey.OP_READ & interest) != 0)
        {
            work += onRead.onReady(this);
        }
        if ((readyOps & SelectionKey.OP_WRITE & interest) != 0)
        {
            work += onWrite.onReady(this);
        }
        return work;
    }

    private void interest(int ops)
    {
        if (ops != interest && key.isValid())
        {
            try
            {
                key.interestOps(ops);
                interest = ops;
            }
            catch (CancelledKeyException ex)
            {
                interest = 0;
            }
        }
    }
}
