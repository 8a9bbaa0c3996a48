/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One connection of the client, on one selector thread: connects (again, a second after a failure), takes requests
 * from its source while it can ({@link #canTake}), writes what it took in one write, and reads the responses. A
 * failure (refused, reset, a response it cannot parse) fails the requests in flight on it, never the others; the
 * requests still queued wait for the reconnection.
 */
abstract class HttpConnection
{
    final HttpLoadClient.SelectorThread thread;
    final HttpTarget target;
    long reconnectAtNanos;

    SocketChannel channel;
    SelectionKey key;
    boolean connected;
    boolean shutdown;
    ByteBuffer writeBuffer;

    HttpConnection(HttpLoadClient.SelectorThread thread, HttpTarget target, int writeBufferBytes)
    {
        this.thread = thread;
        this.target = target;
        this.writeBuffer = ByteBuffer.allocateDirect(writeBufferBytes);
    }

    /** Whether a request taken now would be written at once. */
    abstract boolean canTake();

    /** Encodes {@code request} into the write buffer (growing it when it must). */
    abstract void take(HttpRequest request);

    /** The bytes {@link #channel} read, in {@code thread.readBuffer} from 0 to its limit. */
    abstract void onRead(ByteBuffer buffer) throws IOException;

    /** The connection is up: what the protocol sends first. */
    abstract void onConnected() throws IOException;

    /** Fails the requests in flight on this connection and forgets them. */
    abstract void failInFlight(Throwable cause);

    /** The requests in flight (written, or being written, and not answered). */
    abstract int inFlight();

    /** Takes the source's requests while this connection can, then writes them. */
    final void pump(HttpLoadClient.Source source)
    {
        boolean took = false;
        HttpRequest request;
        while (canTake() && (request = source.poll()) != null)
        {
            take(request);
            took = true;
        }
        if (took)
        {
            flush();
        }
    }

    final void connect()
    {
        if (shutdown)
        {
            return;
        }
        try
        {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            writeBuffer.clear();
            key = channel.register(thread.selector(), 0, this);
            if (channel.connect(target.address))
            {
                connected();
            }
            else
            {
                key.interestOps(SelectionKey.OP_CONNECT);
            }
        }
        catch (IOException ex)
        {
            fail(ex);
        }
    }

    final void onReady(SelectionKey key)
    {
        try
        {
            if (key.isConnectable())
            {
                channel.finishConnect();
                connected();
                return;
            }
            if (key.isWritable())
            {
                flush();
            }
            if (key.isValid() && key.isReadable())
            {
                final ByteBuffer buffer = thread.readBuffer;
                buffer.clear();
                final int read = channel.read(buffer);
                if (read < 0)
                {
                    onEndOfStream();
                    return;
                }
                buffer.flip();
                onRead(buffer);
            }
        }
        catch (IOException | RuntimeException ex)
        {
            fail(ex);
        }
    }

    /** The server closed the connection: what was in flight failed. */
    void onEndOfStream()
    {
        fail(new IOException("connection closed by the server with " + inFlight() + " request(s) in flight"));
    }

    /** Writes what is in the write buffer; what the socket did not take waits for OP_WRITE. */
    final void flush()
    {
        if (!connected || channel == null)
        {
            return;
        }
        try
        {
            writeBuffer.flip();
            while (writeBuffer.hasRemaining())
            {
                if (channel.write(writeBuffer) == 0)
                {
                    break;
                }
            }
            final boolean pending = writeBuffer.hasRemaining();
            writeBuffer.compact();
            key.interestOps(pending ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }
        catch (IOException ex)
        {
            fail(ex);
        }
    }

    /** Whether the write buffer still holds bytes the socket has not taken. */
    final boolean writePending()
    {
        return writeBuffer.position() > 0;
    }

    /** Makes room for {@code bytes} more in the write buffer. */
    final void reserve(int bytes)
    {
        if (writeBuffer.remaining() < bytes)
        {
            final ByteBuffer grown = ByteBuffer.allocateDirect(Math.max(writeBuffer.capacity() * 2,
                writeBuffer.position() + bytes));
            writeBuffer.flip();
            grown.put(writeBuffer);
            writeBuffer = grown;
        }
    }

    /** The connection failed: its requests in flight fail, it is closed and opened again in a second. */
    final void fail(Throwable cause)
    {
        close();
        failInFlight(cause);
        if (!shutdown)
        {
            thread.reconnectLater(this);
        }
    }

    /** For good: closed, its requests in flight failed with {@code cause}. */
    final void shutdown(Throwable cause)
    {
        shutdown = true;
        close();
        failInFlight(cause);
    }

    private void connected() throws IOException
    {
        connected = true;
        key.interestOps(SelectionKey.OP_READ);
        onConnected();
    }

    void close()
    {
        connected = false;
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
        writeBuffer.clear();
    }
}
