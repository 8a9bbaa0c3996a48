/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.poller.PollerKey;

/**
 * Resolves host names for one worker without blocking it: an address literal is parsed in place; a name is looked
 * up on a resolver thread, whose answer comes back through a queue and a pipe that the worker's selector watches,
 * so that the callback runs on the worker like any other poller event.
 */
final class TcpResolver implements AutoCloseable
{
    private static final Pattern IPV4 = Pattern.compile("^[0-9]{1,3}(\\.[0-9]{1,3}){3}$");

    private final EngineContext context;
    private final Supplier<ExecutorService> executor;
    private final Queue<Resolution> resolved = new ConcurrentLinkedQueue<>();
    private final ByteBuffer drainBuffer = ByteBuffer.allocate(64);

    // read by the resolver threads to wake the worker: volatile, as the worker opens and closes it
    private volatile Pipe pipe;
    private PollerKey pipeKey;

    TcpResolver(EngineContext context, Supplier<ExecutorService> executor)
    {
        this.context = context;
        this.executor = executor;
    }

    @FunctionalInterface
    interface ResolveHandler
    {
        /** On the worker: {@code address} is null when the lookup failed, and {@code failure} says why. */
        void onResolved(InetAddress address, String failure);
    }

    /** Whether {@code host} is an IPv4 or IPv6 literal, which needs no lookup. */
    static boolean isLiteral(String host)
    {
        return IPV4.matcher(host).matches() || host.indexOf(':') != -1;
    }

    /**
     * Resolves {@code host}; a literal is answered before this returns, a name later.
     *
     * @throws IOException when the worker's wake-up pipe cannot be opened
     */
    void resolve(String host, ResolveHandler handler) throws IOException
    {
        if (isLiteral(host))
        {
            try
            {
                handler.onResolved(InetAddress.getByName(host), null);
            }
            catch (UnknownHostException ex)
            {
                handler.onResolved(null, "bad address " + host);
            }
            return;
        }
        if (pipe == null)
        {
            openPipe();
        }
        try
        {
            executor.get().execute(() -> lookup(host, handler));
        }
        catch (RejectedExecutionException ex)
        {
            handler.onResolved(null, "cannot resolve " + host + ": resolver stopped");
        }
    }

    @Override
    public void close()
    {
        if (pipe != null)
        {
            pipeKey.cancel();
            closeQuietly(pipe.source());
            closeQuietly(pipe.sink());
            pipe = null;
        }
        resolved.clear();
    }

    private void openPipe() throws IOException
    {
        final Pipe opened = Pipe.open();
        opened.source().configureBlocking(false);
        opened.sink().configureBlocking(false);
        pipe = opened;
        pipeKey = context.supplyPollerKey(opened.source());
        pipeKey.handler(SelectionKey.OP_READ, this::onWakeup);
        pipeKey.register(SelectionKey.OP_READ);
    }

    // on a resolver thread
    private void lookup(String host, ResolveHandler handler)
    {
        InetAddress address = null;
        String failure = null;
        try
        {
            address = InetAddress.getByName(host);
        }
        catch (UnknownHostException ex)
        {
            failure = "cannot resolve " + host;
        }
        catch (RuntimeException ex)
        {
            failure = "cannot resolve " + host + ": " + ex;
        }
        resolved.add(new Resolution(handler, address, failure));
        final Pipe current = pipe;
        if (current != null)
        {
            try
            {
                // a full pipe is fine: a wake-up is pending already and it drains the whole queue
                current.sink().write(ByteBuffer.wrap(new byte[] {1}));
            }
            catch (IOException ex)
            {
                // the worker closed the pipe: it is stopping and no longer waits for the answer
            }
        }
    }

    private int onWakeup(PollerKey key)
    {
        try
        {
            while (pipe.source().read(drainBuffer.clear()) > 0)
            {
                // wake-ups carry no data: draining them re-arms the selector
            }
        }
        catch (IOException ex)
        {
            // fall through to deliver what has arrived
        }
        int work = 0;
        for (Resolution resolution = resolved.poll(); resolution != null; resolution = resolved.poll())
        {
            resolution.handler.onResolved(resolution.address, resolution.failure);
            work++;
        }
        return work;
    }

    private static void closeQuietly(Channel channel)
    {
        try
        {
            channel.close();
        }
        catch (IOException ex)
        {
            // closing: nothing more to do
        }
    }

    private record Resolution(ResolveHandler handler, InetAddress address, String failure)
    {
    }
}
