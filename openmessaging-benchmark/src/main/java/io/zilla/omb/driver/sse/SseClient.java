/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.zilla.omb.driver.ConsumerCallback;

/**
 * Many SSE connections on a few threads: each of {@code selectorThreads} threads owns one NIO {@link Selector} and
 * the connections dealt to it in turn, reads them into one buffer of its own and parses their events there (a thread
 * per connection would cost 10,000 threads at 10,000 connections). Connections, first ones and reconnections alike,
 * are opened at {@code connectionsPerSecond} at most over all threads: a burst of thousands of SYNs overflows the
 * server's accept backlog, and the SYNs it drops wait a second or more for TCP to send them again.
 * <p>
 * The counters: connections streaming now, failures (connections that could not be opened, were refused by the
 * server, or dropped), reconnections and events.
 */
final class SseClient implements AutoCloseable
{
    private static final int READ_BUFFER_BYTES = 64 << 10;

    private final boolean reconnect;
    private final long connectIntervalNanos;
    private final Consumer<String> log;
    private final SelectorThread[] threads;
    private final AtomicInteger nextThread = new AtomicInteger();
    private final AtomicInteger streaming = new AtomicInteger();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private final AtomicLong events = new AtomicLong();
    private final Object pacing = new Object();
    private long nextConnectNanos;

    SseClient(int selectorThreads, int connectionsPerSecond, boolean reconnect, Consumer<String> log)
    {
        this.reconnect = reconnect;
        this.connectIntervalNanos = TimeUnit.SECONDS.toNanos(1) / connectionsPerSecond;
        this.log = log;
        this.threads = new SelectorThread[selectorThreads];
        for (int i = 0; i < threads.length; i++)
        {
            threads[i] = new SelectorThread(i);
            threads[i].start();
        }
    }

    /** A new connection to {@code address}, requesting {@code target}; opened when the connection rate lets it. */
    SseConnection open(InetSocketAddress address, String host, String target, ConsumerCallback callback)
    {
        final int index = Math.floorMod(nextThread.getAndIncrement(), threads.length);
        final SseConnection connection = new SseConnection(this, index, address, host, target, callback);
        final SelectorThread thread = threads[index];
        thread.submit(() ->
        {
            thread.connections.add(connection);
            connection.dueNanos = System.nanoTime();
            thread.pending.add(connection);
        });
        return connection;
    }

    int streaming()
    {
        return streaming.get();
    }

    long failures()
    {
        return failures.get();
    }

    long reconnects()
    {
        return reconnects.get();
    }

    long events()
    {
        return events.get();
    }

    boolean reconnecting()
    {
        return reconnect;
    }

    @Override
    public void close()
    {
        for (SelectorThread thread : threads)
        {
            thread.halt();
        }
        for (SelectorThread thread : threads)
        {
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Runs {@code task} on the thread of {@code connection}. */
    void execute(SseConnection connection, Runnable task)
    {
        threads[connection.thread()].submit(task);
    }

    /** {@code connection} is closed for good: its thread forgets it (on that thread). */
    void forget(SseConnection connection)
    {
        threads[connection.thread()].connections.remove(connection);
    }

    void reconnect(SseConnection connection, long delayNanos)
    {
        reconnects.incrementAndGet();
        connection.dueNanos = System.nanoTime() + delayNanos;
        threads[connection.thread()].pending.add(connection);
    }

    void onFailure(SseConnection connection, Exception cause, boolean wasStreaming)
    {
        // the first few are told, so that a wrong url or a server gone shows; all are counted
        if (failures.incrementAndGet() <= 3)
        {
            log.accept(connection + ": " + (wasStreaming ? "dropped" : "failed") + (cause != null ? ": " + cause : ""));
        }
    }

    void onStreaming()
    {
        streaming.incrementAndGet();
    }

    void onNotStreaming()
    {
        streaming.decrementAndGet();
    }

    void onEvent()
    {
        events.incrementAndGet();
    }

    /** Whether a connection may be opened now, over all threads; if so, the slot is taken. */
    private long takeConnectSlot(long now)
    {
        synchronized (pacing)
        {
            if (now - nextConnectNanos >= 0)
            {
                // a slot missed while idle is not saved up: no burst after a quiet time
                nextConnectNanos = Math.max(nextConnectNanos, now - connectIntervalNanos) + connectIntervalNanos;
                return 0;
            }
            return nextConnectNanos - now;
        }
    }

    /** One selector and the connections it owns. */
    private final class SelectorThread extends Thread
    {
        private final Selector selector;
        private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        private final PriorityQueue<SseConnection> pending =
            new PriorityQueue<>((a, b) -> Long.compare(a.dueNanos, b.dueNanos));
        private final ByteBuffer readBuffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
        // the connections of this thread, touched on this thread only
        private final Set<SseConnection> connections = new HashSet<>();
        private volatile boolean running = true;

        SelectorThread(int index)
        {
            super("omb-sse-selector-" + index);
            setDaemon(true);
            try
            {
                this.selector = Selector.open();
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        void submit(Runnable task)
        {
            tasks.add(task);
            selector.wakeup();
        }

        void halt()
        {
            running = false;
            selector.wakeup();
        }

        @Override
        public void run()
        {
            try
            {
                while (running)
                {
                    Runnable task;
                    while ((task = tasks.poll()) != null)
                    {
                        task.run();
                    }
                    final long wait = connectDue();
                    selector.select(wait < 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
                    final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                    while (keys.hasNext())
                    {
                        final SelectionKey key = keys.next();
                        keys.remove();
                        if (key.isValid())
                        {
                            ((SseConnection) key.attachment()).onReady(readBuffer);
                        }
                    }
                }
            }
            catch (IOException | RuntimeException ex)
            {
                log.accept(getName() + " stopped: " + ex);
            }
            finally
            {
                tasks.clear();
                new ArrayList<>(connections).forEach(SseConnection::shutdown);
                connections.clear();
                try
                {
                    selector.close();
                }
                catch (IOException ex)
                {
                    // closing anyway
                }
            }
        }

        /**
         * Opens the pending connections that are due, as the connection rate lets them.
         *
         * @return the nanoseconds until the next may be opened, or -1 for none pending
         */
        private long connectDue()
        {
            while (!pending.isEmpty())
            {
                final SseConnection next = pending.peek();
                final long now = System.nanoTime();
                if (next.isClosed())
                {
                    pending.poll();
                    continue;
                }
                if (next.dueNanos - now > 0)
                {
                    return next.dueNanos - now;
                }
                final long wait = takeConnectSlot(now);
                if (wait > 0)
                {
                    return wait;
                }
                pending.poll();
                next.connect(selector);
            }
            return -1;
        }
    }
}
