/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP server on a free loopback port that a test puts beside the proxy (a relay in front of the broker, a broker that
 * answers with crafted bytes): a thread of its own accepts, each accepted connection goes to {@link #onAccepted}, and
 * closing it closes every socket it accepted or opened.
 */
public abstract class LoopbackServer implements AutoCloseable
{
    private final ServerSocket server;
    private final String name;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    protected LoopbackServer(String name) throws IOException
    {
        this.name = name;
        this.server = new ServerSocket(0, 50, InetAddress.getByName(KafkaProxyFixture.LOOPBACK));
    }

    /** {@code 127.0.0.1:<port>} of the server, as a proxy's bootstrap server. */
    public final String address()
    {
        return KafkaProxyFixture.LOOPBACK + ":" + server.getLocalPort();
    }

    @Override
    public void close() throws IOException
    {
        server.close();
        for (Socket socket : sockets)
        {
            socket.close();
        }
    }

    /** Starts accepting: a subclass calls it last in its constructor, once its own fields are set. */
    protected final void start()
    {
        final Thread acceptor = new Thread(this::accept, name);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A socket to close with the server (one the subclass opened toward the broker, say). */
    protected final Socket track(Socket socket)
    {
        sockets.add(socket);
        return socket;
    }

    /** A connection accepted, on the acceptor's thread: hand it to a thread of its own for anything that blocks. */
    protected abstract void onAccepted(Socket client) throws IOException;

    private void accept()
    {
        try
        {
            while (!server.isClosed())
            {
                onAccepted(track(server.accept()));
            }
        }
        catch (IOException ex)
        {
            // closed
        }
    }
}
