/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.bench;

import static java.nio.channels.SelectionKey.OP_READ;
import static java.nio.channels.SelectionKey.OP_WRITE;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.HdrHistogram.Histogram;

/**
 * The load of the echo benchmark: {@code connections} connections, each a closed loop that sends one message,
 * waits until the whole echo of it is back, records the round trip and sends the next. The connections are spread
 * over {@code threads} NIO threads. Every message starts with its connection's sequence number, checked when its
 * echo is complete, so that a lost, repeated or misplaced byte shows as an error rather than as speed.
 * <p>
 * Use: {@link #connect()}, {@link #start()}, warm up, {@link #beginMeasuring()}, {@link #endMeasuring()},
 * {@link #stop()}, then {@link #result()}. Round trips count only when they complete between the two measuring
 * calls. The loop allocates nothing per message, so the client adds no garbage to the process it shares with a
 * server under test.
 */
public final class EchoLoadClient
{
    /** The names of the client's threads start with this. */
    public static final String THREAD_PREFIX = "echo-client-";

    /** Round trips longer than this are recorded as this. */
    private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final InetSocketAddress address;
    private final int connections;
    private final int messageSize;
    private final List<Loop> loops = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    private volatile boolean running;
    private volatile boolean measuring;
    private long measureStarted;
    private long measureEnded;

    public EchoLoadClient(InetSocketAddress address, int connections, int messageSize, int threads)
    {
        if (messageSize < Long.BYTES)
        {
            throw new IllegalArgumentException("messages carry an 8-byte sequence number: size must be 8 or more");
        }
        this.address = address;
        this.connections = connections;
        this.messageSize = messageSize;
        for (int i = 0; i < threads; i++)
        {
            loops.add(new Loop());
        }
    }

    /** Opens every connection (blocking), round-robin over the threads. */
    public void connect() throws IOException
    {
        for (int i = 0; i < connections; i++)
        {
            final SocketChannel channel = SocketChannel.open(address);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            loops.get(i % loops.size()).add(new Connection(channel, i));
        }
    }

    /** Sends the first message on every connection and starts the threads. */
    public void start()
    {
        running = true;
        for (int i = 0; i < loops.size(); i++)
        {
            final Thread thread = new Thread(loops.get(i), THREAD_PREFIX + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    public void beginMeasuring()
    {
        measureStarted = System.nanoTime();
        measuring = true;
    }

    public void endMeasuring()
    {
        measuring = false;
        measureEnded = System.nanoTime();
    }

    /** Stops the threads and closes the connections. */
    public void stop() throws InterruptedException
    {
        running = false;
        loops.forEach(loop -> loop.selector.wakeup());
        for (Thread thread : threads)
        {
            thread.join();
        }
        loops.forEach(Loop::close);
    }

    /** What was measured, over every thread. */
    public Result result()
    {
        final Histogram histogram = new Histogram(HIGHEST_NANOS, 3);
        long messages = 0;
        long errors = 0;
        for (Loop loop : loops)
        {
            histogram.add(loop.histogram);
            messages += loop.messages;
            errors += loop.errors;
        }
        return new Result(messages, measureEnded - measureStarted, histogram, errors, messageSize);
    }

    /**
     * @param messages the round trips completed while measuring
     * @param nanos    how long the measuring lasted
     * @param rtt      their round-trip times, in nanoseconds
     * @param errors   echoes that came back wrong, and connections that failed
     */
    public record Result(long messages, long nanos, Histogram rtt, long errors, int messageSize)
    {
        public double messagesPerSecond()
        {
            return messages * 1e9 / nanos;
        }

        public double mebibytesPerSecond()
        {
            return messagesPerSecond() * messageSize / (1024.0 * 1024.0);
        }

        /** A percentile of the round-trip time, in microseconds. */
        public double rttMicros(double percentile)
        {
            return rtt.getValueAtPercentile(percentile) / 1e3;
        }

        public double maxRttMicros()
        {
            return rtt.getMaxValue() / 1e3;
        }
    }

    /** One client thread: a selector over its share of the connections. */
    private final class Loop implements Runnable
    {
        private final Selector selector;
        private final List<Connection> connections = new ArrayList<>();
        private final Histogram histogram = new Histogram(HIGHEST_NANOS, 3);
        private final Consumer<SelectionKey> onSelected = this::onSelected;
        private long messages;
        private long errors;

        Loop()
        {
            try
            {
                selector = Selector.open();
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        void add(Connection connection) throws IOException
        {
            connection.loop = this;
            connection.key = connection.channel.register(selector, OP_READ, connection);
            connections.add(connection);
        }

        @Override
        public void run()
        {
            try
            {
                for (Connection connection : connections)
                {
                    connection.send();
                }
                while (running)
                {
                    selector.select(onSelected, 100);
                }
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        private void onSelected(SelectionKey key)
        {
            final Connection connection = (Connection) key.attachment();
            try
            {
                final int ready = key.readyOps();
                if ((ready & OP_WRITE) != 0)
                {
                    connection.onWritable();
                }
                if ((ready & OP_READ) != 0)
                {
                    connection.onReadable();
                }
            }
            catch (IOException ex)
            {
                errors++;
                connection.close();
            }
        }

        void onEchoed(long nanos, boolean valid)
        {
            if (!valid)
            {
                errors++;
            }
            else if (measuring)
            {
                histogram.recordValue(Math.min(nanos, HIGHEST_NANOS));
                messages++;
            }
        }

        void close()
        {
            connections.forEach(Connection::close);
            try
            {
                selector.close();
            }
            catch (IOException ex)
            {
                // the run is over either way
            }
        }
    }

    /** One closed loop: at most one message in flight. */
    private final class Connection
    {
        private final SocketChannel channel;
        private final ByteBuffer send;
        private final ByteBuffer receive;
        private Loop loop;
        private SelectionKey key;
        private long sequence;
        private long sentAt;

        Connection(SocketChannel channel, int index)
        {
            this.channel = channel;
            this.send = ByteBuffer.allocateDirect(messageSize).order(ByteOrder.BIG_ENDIAN);
            this.receive = ByteBuffer.allocateDirect(messageSize).order(ByteOrder.BIG_ENDIAN);
            for (int i = 0; i < messageSize; i++)
            {
                send.put(i, (byte) (index + i));
            }
            this.sequence = (long) index << 40;
        }

        void send() throws IOException
        {
            sequence++;
            send.clear();
            send.putLong(0, sequence);
            sentAt = System.nanoTime();
            channel.write(send);
            if (send.hasRemaining())
            {
                key.interestOps(OP_READ | OP_WRITE);
            }
        }

        void onWritable() throws IOException
        {
            channel.write(send);
            if (!send.hasRemaining())
            {
                key.interestOps(OP_READ);
            }
        }

        void onReadable() throws IOException
        {
            final int read = channel.read(receive);
            if (read < 0)
            {
                throw new IOException("closed by the server");
            }
            if (receive.hasRemaining())
            {
                return;
            }
            final long nanos = System.nanoTime() - sentAt;
            final boolean valid = receive.getLong(0) == sequence && receive.get(messageSize - 1) == send.get(messageSize - 1);
            receive.clear();
            loop.onEchoed(nanos, valid);
            if (running)
            {
                send();
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
