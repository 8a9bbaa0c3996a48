/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.bench;

import static java.nio.channels.SelectionKey.OP_ACCEPT;
import static java.nio.channels.SelectionKey.OP_READ;
import static java.nio.channels.SelectionKey.OP_WRITE;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The physical baseline of the echo benchmark: the least a Java NIO echo server does. Each of its threads owns a
 * selector and a listening socket on the same port ({@code SO_REUSEPORT}, as zilla's workers do), reads what a
 * connection sends into one direct buffer and writes it straight back. What the socket does not take at once is
 * kept for that connection, which stops reading ({@code OP_READ} off) until it is written: nothing is buffered
 * beyond one read, so TCP pushes back on a client that outruns its own reading.
 */
public final class PlainNioEchoServer implements AutoCloseable
{
    /** The names of the server's threads start with this, so that the benchmark can find them. */
    public static final String THREAD_PREFIX = "plain-echo-";

    private static final int BUFFER_CAPACITY = 64 * 1024;

    private final List<Loop> loops = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    /** Listens on {@code address} with {@code threads} threads; {@link #start()} starts serving. */
    public PlainNioEchoServer(InetSocketAddress address, int threads) throws IOException
    {
        try
        {
            for (int i = 0; i < threads; i++)
            {
                loops.add(new Loop(address, threads > 1));
            }
        }
        catch (IOException | RuntimeException ex)
        {
            loops.forEach(Loop::closeQuietly);
            throw ex;
        }
    }

    public void start()
    {
        for (int i = 0; i < loops.size(); i++)
        {
            final Thread thread = new Thread(loops.get(i), THREAD_PREFIX + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    @Override
    public void close() throws InterruptedException
    {
        running = false;
        loops.forEach(loop -> loop.selector.wakeup());
        for (Thread thread : threads)
        {
            thread.join();
        }
        loops.forEach(Loop::closeQuietly);
    }

    /** One thread's selector, listener and read buffer. */
    private final class Loop implements Runnable
    {
        private final Selector selector;
        private final ServerSocketChannel listener;
        private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(BUFFER_CAPACITY);
        private final Consumer<SelectionKey> onSelected = this::onSelected;

        Loop(InetSocketAddress address, boolean reusePort) throws IOException
        {
            selector = Selector.open();
            listener = ServerSocketChannel.open();
            if (reusePort)
            {
                listener.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            }
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(address, 1024);
            listener.configureBlocking(false);
            listener.register(selector, OP_ACCEPT);
        }

        @Override
        public void run()
        {
            try
            {
                while (running)
                {
                    selector.select(onSelected);
                }
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        private void onSelected(SelectionKey key)
        {
            if (key.isAcceptable())
            {
                onAcceptable();
                return;
            }
            final Connection connection = (Connection) key.attachment();
            try
            {
                final int ready = key.readyOps();
                if ((ready & OP_WRITE) != 0)
                {
                    connection.onWritable();
                }
                else if ((ready & OP_READ) != 0)
                {
                    connection.onReadable(readBuffer);
                }
            }
            catch (IOException ex)
            {
                connection.close();
            }
        }

        private void onAcceptable()
        {
            try
            {
                SocketChannel channel;
                while ((channel = listener.accept()) != null)
                {
                    channel.configureBlocking(false);
                    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    final Connection connection = new Connection(channel);
                    connection.key = channel.register(selector, OP_READ, connection);
                }
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        void closeQuietly()
        {
            try
            {
                for (SelectionKey key : selector.keys())
                {
                    key.channel().close();
                }
                selector.close();
                listener.close();
            }
            catch (IOException ex)
            {
                // the benchmark is over either way
            }
        }
    }

    /** One accepted connection; {@code pending} holds what the socket did not take, read again only once it has. */
    private static final class Connection
    {
        private final SocketChannel channel;
        private SelectionKey key;
        private ByteBuffer pending;

        Connection(SocketChannel channel)
        {
            this.channel = channel;
        }

        void onReadable(ByteBuffer buffer) throws IOException
        {
            buffer.clear();
            final int read = channel.read(buffer);
            if (read < 0)
            {
                close();
                return;
            }
            buffer.flip();
            channel.write(buffer);
            if (buffer.hasRemaining())
            {
                if (pending == null)
                {
                    pending = ByteBuffer.allocateDirect(BUFFER_CAPACITY);
                }
                pending.clear();
                pending.put(buffer).flip();
                key.interestOps(OP_WRITE);
            }
        }

        void onWritable() throws IOException
        {
            channel.write(pending);
            if (!pending.hasRemaining())
            {
                key.interestOps(OP_READ);
            }
        }

        void close()
        {
            key.cancel();
            try
            {
                channel.close();
            }
            catch (IOException ex)
            {
                // gone already
            }
        }
    }
}
