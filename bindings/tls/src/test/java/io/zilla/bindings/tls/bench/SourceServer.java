/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The plain TCP server behind zilla's tls server in the bulk workload: for each connection it reads the request up
 * to its blank line, writes the same header as {@code s_server -WWW} and then {@code size} bytes, and closes.
 */
final class SourceServer implements AutoCloseable
{
    static final String THREAD_PREFIX = "tls-bench-source";

    private final ServerSocket server;
    private final long size;

    SourceServer(long size) throws IOException
    {
        this.size = size;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final Thread acceptor = new Thread(this::accept, THREAD_PREFIX);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port()
    {
        return server.getLocalPort();
    }

    private void accept()
    {
        while (!server.isClosed())
        {
            try
            {
                final Socket socket = server.accept();
                final Thread writer = new Thread(() -> serve(socket), THREAD_PREFIX + "-" + socket.getPort());
                writer.setDaemon(true);
                writer.start();
            }
            catch (IOException ex)
            {
                // closed
            }
        }
    }

    private void serve(Socket socket)
    {
        try (socket)
        {
            socket.setSendBufferSize(4 * 1024 * 1024);
            final InputStream in = socket.getInputStream();
            // the whole request is read before the answer: a close with unread bytes would reset the connection
            for (int matched = 0, b = in.read(); matched < 4 && b != -1; b = matched < 4 ? in.read() : -1)
            {
                matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
            }
            final OutputStream out = socket.getOutputStream();
            out.write(TlsBenchClient.RESPONSE_HEADER.getBytes(StandardCharsets.US_ASCII));
            final byte[] chunk = new byte[256 * 1024];
            for (long written = 0; written < size; written += chunk.length)
            {
                out.write(chunk, 0, (int) Math.min(chunk.length, size - written));
            }
            out.flush();
            socket.shutdownOutput();
            in.read();
        }
        catch (IOException ex)
        {
            // the client went away: its count tells
        }
    }

    @Override
    public void close() throws IOException
    {
        server.close();
    }
}
