/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Many concurrent connections to an echo, from one NIO thread: each sends {@code bytesEach} bytes in chunks of
 * random size, half-closes, and checks every byte that comes back and the end of stream after the last. Each
 * connection sends its own slice of a random pattern, so that bytes of one arriving on another would be caught.
 */
final class EchoLoad
{
    private static final int MAX_CHUNK = 64 * 1024;
    private static final int SLICES = 64 * 1024;

    private final byte[] pattern;
    private final int bytesEach;
    private final ByteBuffer readBuffer = ByteBuffer.allocate(MAX_CHUNK);

    private EchoLoad(int bytesEach, long seed)
    {
        this.bytesEach = bytesEach;
        this.pattern = new byte[bytesEach + SLICES];
        new SplittableRandom(seed).nextBytes(pattern);
    }

    /**
     * @return a summary, such as how long it took
     * @throws AssertionError when a byte differs, a connection fails, or the deadline passes
     */
    static String run(InetSocketAddress address, int connections, int bytesEach, long seed, long timeoutMillis)
        throws IOException
    {
        return new EchoLoad(bytesEach, seed).run(address, connections, seed, timeoutMillis);
    }

    private String run(InetSocketAddress address, int connections, long seed, long timeoutMillis) throws IOException
    {
        final long started = System.nanoTime();
        final long deadline = started + timeoutMillis * 1_000_000L;
        final SplittableRandom random = new SplittableRandom(seed);
        int done = 0;
        try (Selector selector = Selector.open())
        {
            final Connection[] all = new Connection[connections];
            for (int i = 0; i < connections; i++)
            {
                final SocketChannel channel = SocketChannel.open();
                channel.configureBlocking(false);
                final Connection connection = new Connection(i, channel, random.split(), (int) ((i * 7919L) % SLICES));
                all[i] = connection;
                if (channel.connect(address))
                {
                    channel.register(selector, SelectionKey.OP_READ | SelectionKey.OP_WRITE, connection);
                }
                else
                {
                    channel.register(selector, SelectionKey.OP_CONNECT, connection);
                }
            }
            try
            {
                while (done < connections)
                {
                    if (System.nanoTime() > deadline)
                    {
                        throw new AssertionError(String.format("%d of %d connections done after %d ms; first pending: %s",
                            done, connections, timeoutMillis, firstPending(all)));
                    }
                    selector.select(100);
                    for (SelectionKey key : selector.selectedKeys())
                    {
                        final Connection connection = (Connection) key.attachment();
                        if (connection.onReady(key))
                        {
                            done++;
                        }
                    }
                    selector.selectedKeys().clear();
                }
            }
            finally
            {
                for (Connection connection : all)
                {
                    connection.channel.close();
                }
            }
        }
        final long millis = (System.nanoTime() - started) / 1_000_000L;
        return String.format("%d connections echoed %d bytes each in %d ms", connections, bytesEach, millis);
    }

    private static String firstPending(Connection[] all)
    {
        for (Connection connection : all)
        {
            if (!connection.done)
            {
                return connection.toString();
            }
        }
        return "none";
    }

    private final class Connection
    {
        private final int index;
        private final SocketChannel channel;
        private final SplittableRandom random;
        private final int offset;
        private int sent;
        private int received;
        private boolean outputShut;
        private boolean done;

        Connection(int index, SocketChannel channel, SplittableRandom random, int offset)
        {
            this.index = index;
            this.channel = channel;
            this.random = random;
            this.offset = offset;
        }

        /** Returns true when this connection just finished. */
        boolean onReady(SelectionKey key)
        {
            try
            {
                if (key.isConnectable())
                {
                    channel.finishConnect();
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return false;
                }
                if (key.isWritable())
                {
                    onWritable(key);
                }
                if (key.isReadable())
                {
                    return onReadable(key);
                }
                return false;
            }
            catch (IOException ex)
            {
                throw new AssertionError(this + " failed: " + ex, ex);
            }
        }

        private void onWritable(SelectionKey key) throws IOException
        {
            if (sent < bytesEach)
            {
                final int chunk = Math.min(1 + random.nextInt(MAX_CHUNK), bytesEach - sent);
                sent += channel.write(ByteBuffer.wrap(pattern, offset + sent, chunk));
            }
            if (sent == bytesEach && !outputShut)
            {
                // half-close: the echo must still send back everything, then end its side
                channel.shutdownOutput();
                outputShut = true;
                key.interestOps(SelectionKey.OP_READ);
            }
        }

        private boolean onReadable(SelectionKey key) throws IOException
        {
            readBuffer.clear();
            final int read = channel.read(readBuffer);
            if (read == -1)
            {
                if (received != bytesEach)
                {
                    throw new AssertionError(this + ": end of stream after " + received + " bytes");
                }
                key.cancel();
                channel.close();
                done = true;
                return true;
            }
            if (received + read > bytesEach)
            {
                throw new AssertionError(this + ": more bytes than were sent");
            }
            final int mismatch = Arrays.mismatch(readBuffer.array(), 0, read, pattern, offset + received,
                offset + received + read);
            if (mismatch != -1)
            {
                throw new AssertionError(this + ": byte " + (received + mismatch) + " differs");
            }
            received += read;
            return false;
        }

        @Override
        public String toString()
        {
            return "connection " + index + " (sent " + sent + ", received " + received + ", output shut " + outputShut + ")";
        }
    }
}
