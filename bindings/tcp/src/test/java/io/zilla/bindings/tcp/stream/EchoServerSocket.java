/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain blocking Java echo server, the peer a tcp client connects to: a thread per connection copies what
 * arrives back, and half-closes after the peer does.
 */
final class EchoServerSocket implements AutoCloseable
{
    private final ServerSocket server;
    private final Thread acceptor;
    private final AtomicInteger accepted = new AtomicInteger();

    EchoServerSocket() throws IOException
    {
        this.server = new ServerSocket(0, 50, InetAddress.getByName(TcpTestConfigs.LOOPBACK));
        this.acceptor = new Thread(this::accept, "echo-server-socket");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port()
    {
        return server.getLocalPort();
    }

    int accepted()
    {
        return accepted.get();
    }

    @Override
    public void close() throws IOException
    {
        server.close();
    }

    private void accept()
    {
        while (!server.isClosed())
        {
            try
            {
                final Socket socket = server.accept();
                accepted.incrementAndGet();
                final Thread echo = new Thread(() -> echo(socket), "echo-server-socket-" + accepted.get());
                echo.setDaemon(true);
                echo.start();
            }
            catch (IOException ex)
            {
                // closed
            }
        }
    }

    private static void echo(Socket socket)
    {
        try (socket)
        {
            final InputStream in = socket.getInputStream();
            final OutputStream out = socket.getOutputStream();
            in.transferTo(out);
            socket.shutdownOutput();
            // wait for the other side to close too, so that the close is not a reset
            in.read();
        }
        catch (IOException ex)
        {
            // the test sees the failure from its side
        }
    }
}
