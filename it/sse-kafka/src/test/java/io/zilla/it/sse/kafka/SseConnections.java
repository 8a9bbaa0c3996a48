/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Many EventSource-like connections with one selector thread. Each connection sends {@code GET path} over HTTP/1.1,
 * reads the chunked text/event-stream response and counts its events' data lines. In-process for a few (the
 * allocation test), or as a child JVM ({@link #main}) for 10,000: one process may hold about 20,000 descriptors here,
 * and zilla holds one per connection too.
 */
public final class SseConnections implements Runnable, AutoCloseable
{
    // connects at most this many per millisecond: a burst of 10,000 SYNs overflows the listener's backlog
    private static final int CONNECTS_PER_MS = 2;
    // how often the counts are summed up
    private static final long SUM_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final int port;
    private final byte[] request;
    private final int count;
    private final List<Connection> connections;
    private final Thread thread;
    private volatile boolean closed;
    private volatile int heads;
    private volatile int minEvents;
    private volatile int maxEvents;
    private volatile IOException failure;
    private volatile int resets;

    SseConnections(int port, String path, int count)
    {
        this.port = port;
        this.request = ("GET " + path + " HTTP/1.1\r\nHost: localhost:" + port
            + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        this.count = count;
        this.connections = new ArrayList<>(count);
        this.thread = new Thread(this, "sse-connections");
        thread.setDaemon(true);
    }

    SseConnections start()
    {
        thread.start();
        return this;
    }

    /** The connections whose response head arrived. */
    int heads()
    {
        return heads;
    }

    /** The fewest data lines any connection counted (0 until every connection is open). */
    int minEvents()
    {
        return minEvents;
    }

    int maxEvents()
    {
        return maxEvents;
    }

    /** What stopped the selector thread, or null. */
    IOException failure()
    {
        return failure;
    }

    @Override
    public String toString()
    {
        return String.format("%d of %d open, %d reset, events %d to %d%s", heads, count, resets, minEvents, maxEvents,
            failure != null ? ", failed: " + failure : "");
    }

    /** Waits until every connection counted at least {@code events}; false at the deadline or on a failure. */
    boolean await(int events, long deadlineNanos) throws InterruptedException
    {
        while (minEvents < events && failure == null && System.nanoTime() < deadlineNanos)
        {
            Thread.sleep(5);
        }
        return minEvents >= events;
    }

    /** Waits until every connection has its response head. */
    boolean awaitOpen(long deadlineNanos) throws InterruptedException
    {
        while (heads < count && failure == null && System.nanoTime() < deadlineNanos)
        {
            Thread.sleep(5);
        }
        return heads == count;
    }

    @Override
    public void close() throws InterruptedException
    {
        closed = true;
        thread.join(10_000);
    }

    @Override
    public void run()
    {
        try (Selector selector = Selector.open())
        {
            final ByteBuffer read = ByteBuffer.allocateDirect(64 * 1024);
            long sumAt = System.nanoTime();
            while (!closed)
            {
                for (int n = 0; n < CONNECTS_PER_MS && connections.size() < count; n++)
                {
                    final SocketChannel channel = SocketChannel.open();
                    channel.configureBlocking(false);
                    channel.setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
                    channel.connect(new InetSocketAddress("127.0.0.1", port));
                    final Connection connection = new Connection(channel, request);
                    channel.register(selector, SelectionKey.OP_CONNECT, connection);
                    connections.add(connection);
                }
                selector.select(1);
                for (SelectionKey key : selector.selectedKeys())
                {
                    final Connection connection = (Connection) key.attachment();
                    try
                    {
                        connection.onReady(key, read);
                    }
                    catch (IOException ex)
                    {
                        // this connection only: it counts no more events, and the others go on
                        key.cancel();
                        connection.channel.close();
                        resets++;
                    }
                }
                selector.selectedKeys().clear();
                if (System.nanoTime() - sumAt > SUM_NANOS)
                {
                    sumAt = System.nanoTime();
                    sum();
                }
            }
            for (Connection connection : connections)
            {
                connection.channel.close();
            }
        }
        catch (IOException ex)
        {
            failure = ex;
        }
    }

    private void sum()
    {
        int opened = 0;
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (Connection connection : connections)
        {
            opened += connection.parser.inBody() ? 1 : 0;
            min = Math.min(min, connection.parser.events());
            max = Math.max(max, connection.parser.events());
        }
        heads = opened;
        maxEvents = max;
        minEvents = opened == count ? min : 0;
    }

    /**
     * As a child JVM: prints {@code open N} once every response head arrived, then {@code done MIN MAX} once every
     * connection counted at least {@code expected} events, or {@code timeout MIN HEADS}. With {@code expected} -1 the
     * connections stay open, idle, until standard input ends.
     * <p>
     * Arguments: port path connections expected seconds.
     */
    public static void main(String[] args) throws InterruptedException, IOException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[4]));
        final int expected = Integer.parseInt(args[3]);
        try (SseConnections connections = new SseConnections(Integer.parseInt(args[0]), args[1],
            Integer.parseInt(args[2])).start())
        {
            if (connections.awaitOpen(deadline))
            {
                System.out.println("open " + connections.heads());
                System.out.flush();
                if (expected < 0)
                {
                    while (System.in.read() >= 0)
                    {
                        // idle until the parent closes our input
                    }
                    return;
                }
                if (connections.await(expected, deadline))
                {
                    System.out.println("done " + connections.minEvents() + " " + connections.maxEvents());
                    System.out.flush();
                    return;
                }
            }
            System.out.println("timeout " + connections.minEvents() + " " + connections.heads()
                + (connections.failure != null ? " " + connections.failure : ""));
            System.out.flush();
        }
    }

    private static final class Connection
    {
        private final SocketChannel channel;
        private final ByteBuffer request;
        private final ChunkedEvents parser = new ChunkedEvents();

        Connection(SocketChannel channel, byte[] request)
        {
            this.channel = channel;
            this.request = ByteBuffer.wrap(request);
        }

        void onReady(SelectionKey key, ByteBuffer read) throws IOException
        {
            if (key.isConnectable() && channel.finishConnect())
            {
                channel.write(request);
                key.interestOps(SelectionKey.OP_READ);
            }
            else if (key.isReadable())
            {
                read.clear();
                if (channel.read(read) < 0)
                {
                    key.cancel();
                    channel.close();
                    return;
                }
                read.flip();
                while (read.hasRemaining())
                {
                    parser.onByte(read.get());
                }
            }
        }
    }

    /**
     * The response of one connection byte by byte: the head up to its blank line, then HTTP/1.1 chunks (size line,
     * bytes, CRLF), whose bytes are the event stream, where it counts lines that start with {@code data}.
     */
    static final class ChunkedEvents
    {
        private static final int HEAD = 0;
        private static final int SIZE = 1;
        private static final int SIZE_END = 2;
        private static final int BYTES = 3;
        private static final int BYTES_END = 4;
        private static final byte[] DATA = "data".getBytes(StandardCharsets.US_ASCII);

        private int state = HEAD;
        private int headEnd;
        private int remaining;
        private boolean lineStart = true;
        private int matched = -1;
        private int events;

        boolean inBody()
        {
            return state != HEAD;
        }

        int events()
        {
            return events;
        }

        void onByte(byte b)
        {
            switch (state)
            {
                case HEAD ->
                {
                    // \r\n\r\n ends the head
                    headEnd = b == '\r' || b == '\n' ? headEnd + 1 : 0;
                    if (headEnd == 4)
                    {
                        state = SIZE;
                    }
                }
                case SIZE ->
                {
                    if (b == '\r')
                    {
                        state = SIZE_END;
                    }
                    else if (b != ';')
                    {
                        remaining = remaining * 16 + Character.digit(b, 16);
                    }
                }
                case SIZE_END -> state = remaining > 0 ? BYTES : SIZE;
                case BYTES ->
                {
                    onEventByte(b);
                    if (--remaining == 0)
                    {
                        state = BYTES_END;
                    }
                }
                default ->
                {
                    // the CRLF after a chunk's bytes
                    if (b == '\n')
                    {
                        state = SIZE;
                    }
                }
            }
        }

        private void onEventByte(byte b)
        {
            if (b == '\n' || b == '\r')
            {
                lineStart = true;
                matched = -1;
                return;
            }
            if (lineStart)
            {
                lineStart = false;
                matched = 0;
            }
            if (matched >= 0 && matched < DATA.length)
            {
                matched = DATA[matched] == b ? matched + 1 : -1;
                if (matched == DATA.length)
                {
                    events++;
                }
            }
        }
    }
}
