/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.ConsumerCallback;

/**
 * One SSE connection: {@code GET} with {@code Accept: text/event-stream} over HTTP/1.1, the response decoded and its
 * events parsed as they arrive, each event's data decoded from base64 and handed to the callback. Owned by one
 * selector thread of its {@link SseClient}: every method but {@link #close()} runs there.
 * <p>
 * A connection that drops (the server ended the response, reset the connection, or could not be reached) is opened
 * again after the server's {@code retry} (1 s without one), with {@code Last-Event-ID} when events came, when the
 * client reconnects; a response other than a 200 of {@code text/event-stream} is not retried (as an EventSource
 * fails the connection). Per connection the client keeps the parser's and decoder's arrays, a few hundred bytes.
 */
final class SseConnection implements BenchmarkConsumer, SseEventParser.Listener, HttpResponseDecoder.Handler
{
    private static final int MAX_LINE_BYTES = 16 << 20;
    private static final long DEFAULT_RETRY_MILLIS = 1_000;

    private final SseClient client;
    private final int thread;
    private final InetSocketAddress address;
    private final String host;
    private final String target;
    private final ConsumerCallback callback;
    private final CompletableFuture<BenchmarkConsumer> opened = new CompletableFuture<>();
    private final SseEventParser parser = new SseEventParser(this, MAX_LINE_BYTES);
    private final HttpResponseDecoder decoder = new HttpResponseDecoder(this);

    private SocketChannel channel;
    private SelectionKey key;
    private ByteBuffer request;
    private boolean streaming;
    private boolean failed;
    private volatile boolean closed;
    long dueNanos;

    SseConnection(SseClient client, int thread, InetSocketAddress address, String host, String target,
        ConsumerCallback callback)
    {
        this.client = client;
        this.thread = thread;
        this.address = address;
        this.host = host;
        this.target = target;
        this.callback = callback;
    }

    CompletableFuture<BenchmarkConsumer> opened()
    {
        return opened;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            client.execute(this, this::shutdown);
        }
    }

    /** The index of the selector thread that owns this connection. */
    int thread()
    {
        return thread;
    }

    /** Closes for good, on the connection's thread. */
    void shutdown()
    {
        closed = true;
        disconnect();
        client.forget(this);
        opened.completeExceptionally(new IllegalStateException(this + ": closed before its response came"));
    }

    boolean isClosed()
    {
        return closed;
    }

    /** Opens the connection (on its selector thread, when the client's connection rate lets it). */
    void connect(Selector selector)
    {
        if (closed)
        {
            return;
        }
        try
        {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            key = channel.register(selector, SelectionKey.OP_CONNECT, this);
            if (channel.connect(address))
            {
                onConnected();
            }
        }
        catch (IOException | RuntimeException ex)
        {
            onDropped(ex);
        }
    }

    /** The selector said this connection is ready. */
    void onReady(ByteBuffer readBuffer)
    {
        try
        {
            if (key.isConnectable())
            {
                if (channel.finishConnect())
                {
                    onConnected();
                }
            }
            else if (key.isWritable())
            {
                writeRequest();
            }
            else if (key.isReadable())
            {
                read(readBuffer);
            }
        }
        catch (IOException | RuntimeException ex)
        {
            onDropped(ex);
        }
    }

    private void onConnected() throws IOException
    {
        final String lastEventId = parser.lastEventId();
        final StringBuilder text = new StringBuilder(128)
            .append("GET ").append(target).append(" HTTP/1.1\r\n")
            .append("Host: ").append(host).append("\r\n")
            .append("Accept: text/event-stream\r\n")
            .append("Cache-Control: no-cache\r\n");
        if (lastEventId != null)
        {
            text.append("Last-Event-ID: ").append(lastEventId).append("\r\n");
        }
        request = ByteBuffer.wrap(text.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
        parser.reset();
        decoder.reset();
        writeRequest();
    }

    private void writeRequest() throws IOException
    {
        channel.write(request);
        if (request.hasRemaining())
        {
            key.interestOps(SelectionKey.OP_WRITE);
        }
        else
        {
            request = null;
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    private void read(ByteBuffer buffer) throws IOException
    {
        buffer.clear();
        final int read = channel.read(buffer);
        if (read < 0)
        {
            onDropped(null);
        }
        else if (read > 0)
        {
            decoder.decode(buffer.array(), buffer.arrayOffset(), read);
            if (decoder.ended())
            {
                onDropped(null);
            }
        }
    }

    @Override
    public void onHead(int status, String problem)
    {
        if (problem != null)
        {
            failed = true;
            throw new IllegalStateException("GET " + target + ": " + problem);
        }
        streaming = true;
        client.onStreaming();
        opened.complete(this);
    }

    @Override
    public void onBody(byte[] buffer, int offset, int length)
    {
        parser.parse(buffer, offset, length);
    }

    @Override
    public void onEnd()
    {
        // the response ended: onDropped follows in read
    }

    @Override
    public void onEvent(SseEventParser event)
    {
        // the one allocation per delivered event: the payload array the callback gets, as a Kafka consumer gives one
        final byte[] payload = Base64Payloads.decode(event.data(), 0, event.dataLength());
        client.onEvent();
        callback.messageReceived(payload, 0L);
    }

    private void onDropped(Exception cause)
    {
        final boolean wasStreaming = streaming;
        disconnect();
        if (closed)
        {
            return;
        }
        client.onFailure(this, cause, wasStreaming);
        if (failed || !client.reconnecting())
        {
            opened.completeExceptionally(new IllegalStateException("SSE connection to " + address + target
                + " failed" + (cause != null ? ": " + cause.getMessage() : ": closed by the server"), cause));
            shutdown();
            return;
        }
        final long retry = parser.retryMillis() >= 0 ? parser.retryMillis() : DEFAULT_RETRY_MILLIS;
        client.reconnect(this, retry * 1_000_000L);
    }

    private void disconnect()
    {
        if (streaming)
        {
            streaming = false;
            client.onNotStreaming();
        }
        if (key != null)
        {
            key.cancel();
            key = null;
        }
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (IOException ex)
            {
                // closing anyway
            }
            channel = null;
        }
        request = null;
    }

    @Override
    public String toString()
    {
        return "SSE " + address + target;
    }
}
