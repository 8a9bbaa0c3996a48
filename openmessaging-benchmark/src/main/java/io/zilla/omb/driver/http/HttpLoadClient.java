/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The HTTP driver's client: {@code selectorThreads} threads, each with one NIO {@link Selector}, the connections and
 * the request sources (producers, fetch consumers) dealt to it. A source's connections all live on its thread, so
 * that its queue has one reader. The loop: run the tasks handed to the thread, let each source with queued requests
 * hand them to its connections that can take one (then each connection writes what it was given in one write), wait
 * in {@code select} until a socket is ready or a source is signalled, and read what came.
 * <p>
 * Signals are coalesced: a source signals its thread after queueing a request, and the thread's selector is woken
 * (a system call) only when the thread is about to block, or blocked, in {@code select}.
 */
final class HttpLoadClient implements AutoCloseable
{
    static final int READ_BUFFER_BYTES = 64 << 10;
    static final long RECONNECT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Consumer<String> log;
    private final SelectorThread[] threads;
    private final AtomicInteger nextThread = new AtomicInteger();

    HttpLoadClient(int selectorThreads, Consumer<String> log)
    {
        this.log = log;
        this.threads = new SelectorThread[selectorThreads];
        for (int i = 0; i < threads.length; i++)
        {
            threads[i] = new SelectorThread(i);
            threads[i].start();
        }
    }

    /** The thread the next source (and its connections) goes to, in turn. */
    SelectorThread nextThread()
    {
        return threads[Math.floorMod(nextThread.getAndIncrement(), threads.length)];
    }

    void log(String line)
    {
        log.accept(line);
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

    /** Requests for connections: a producer's queue, a fetch consumer's next long-poll. */
    interface Source
    {
        /** The next request, or null; called on the source's thread only. */
        HttpRequest poll();

        /** Whether {@link #poll} would give a request now. */
        boolean hasRequests();

        /** The connections that take this source's requests. */
        List<HttpConnection> connections();
    }

    /** One selector, its connections and sources. */
    final class SelectorThread extends Thread
    {
        // a heap buffer: the parsers read its array (the JDK reads through a cached direct buffer of its own)
        final ByteBuffer readBuffer = ByteBuffer.allocate(READ_BUFFER_BYTES);

        private final Selector selector;
        private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        private final List<Source> sources = new ArrayList<>();
        private final List<HttpConnection> reconnecting = new ArrayList<>();
        private final AtomicBoolean selecting = new AtomicBoolean();
        private volatile boolean running = true;

        SelectorThread(int index)
        {
            super("omb-http-selector-" + index);
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

        Selector selector()
        {
            return selector;
        }

        /** Runs {@code task} on this thread. */
        void execute(Runnable task)
        {
            tasks.add(task);
            signal();
        }

        /** There is work: wakes the selector if the thread is (about to be) blocked in it. */
        void signal()
        {
            if (selecting.get() && selecting.compareAndSet(true, false))
            {
                selector.wakeup();
            }
        }

        /** Adds a source and opens its connections (on this thread). */
        void add(Source source)
        {
            execute(() ->
            {
                sources.add(source);
                source.connections().forEach(HttpConnection::connect);
            });
        }

        /** Removes a source; its connections are closed and their requests failed (on this thread). */
        void remove(Source source, Throwable cause)
        {
            execute(() ->
            {
                sources.remove(source);
                for (HttpConnection connection : source.connections())
                {
                    reconnecting.remove(connection);
                    connection.shutdown(cause);
                }
            });
        }

        void reconnectLater(HttpConnection connection)
        {
            connection.reconnectAtNanos = System.nanoTime() + RECONNECT_NANOS;
            reconnecting.add(connection);
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
                    final long timeout = reconnectDue();
                    for (int i = 0; i < sources.size(); i++)
                    {
                        final Source source = sources.get(i);
                        if (source.hasRequests())
                        {
                            pump(source);
                        }
                    }
                    selecting.set(true);
                    if (!tasks.isEmpty() || anyTakeable())
                    {
                        selecting.set(false);
                        selector.selectNow();
                    }
                    else
                    {
                        selector.select(timeout);
                        selecting.set(false);
                    }
                    final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                    while (keys.hasNext())
                    {
                        final SelectionKey key = keys.next();
                        keys.remove();
                        if (key.isValid())
                        {
                            ((HttpConnection) key.attachment()).onReady(key);
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
                final IllegalStateException closed = new IllegalStateException("the HTTP client closed");
                for (Source source : sources)
                {
                    source.connections().forEach(connection -> connection.shutdown(closed));
                }
                sources.clear();
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

        /** The source's queued requests to those of its connections that can take one, then one write each. */
        private void pump(Source source)
        {
            final List<HttpConnection> connections = source.connections();
            for (int c = 0; c < connections.size() && source.hasRequests(); c++)
            {
                connections.get(c).pump(source);
            }
        }

        private boolean anyTakeable()
        {
            for (int i = 0; i < sources.size(); i++)
            {
                final Source source = sources.get(i);
                if (source.hasRequests())
                {
                    final List<HttpConnection> connections = source.connections();
                    for (int c = 0; c < connections.size(); c++)
                    {
                        if (connections.get(c).canTake())
                        {
                            return true;
                        }
                    }
                }
            }
            return false;
        }

        /** Reconnects those whose time came; returns the milliseconds to wait in select (0: until woken). */
        private long reconnectDue()
        {
            long wait = 0;
            final long now = System.nanoTime();
            for (Iterator<HttpConnection> i = reconnecting.iterator(); i.hasNext();)
            {
                final HttpConnection connection = i.next();
                final long due = connection.reconnectAtNanos - now;
                if (due <= 0)
                {
                    i.remove();
                    connection.connect();
                }
                else
                {
                    final long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(due));
                    wait = wait == 0 ? millis : Math.min(wait, millis);
                }
            }
            return wait;
        }
    }
}
