/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain TCP relay on a loopback port in front of a real broker that counts the connections it accepted: put as a
 * proxy's bootstrap server, it tells a test which connections went to the bootstrap server and which did not.
 */
public final class CountingRelay implements AutoCloseable
{
    private final ServerSocket server;
    private final int targetPort;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    public CountingRelay(int targetPort) throws IOException
    {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getByName(KafkaProxyFixture.LOOPBACK));
        this.acceptor = new Thread(this::accept, "counting-relay");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** {@code 127.0.0.1:<port>} of the relay. */
    public String address()
    {
        return KafkaProxyFixture.LOOPBACK + ":" + server.getLocalPort();
    }

    /** How many connections the relay accepted so far. */
    public int connections()
    {
        return accepted.get();
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

    private void accept()
    {
        try
        {
            while (!server.isClosed())
            {
                final Socket client = server.accept();
                accepted.incrementAndGet();
                final Socket broker = new Socket(KafkaProxyFixture.LOOPBACK, targetPort);
                sockets.add(client);
                sockets.add(broker);
                pipe(client, broker);
                pipe(broker, client);
            }
        }
        catch (IOException ex)
        {
            // closed
        }
    }

    private static void pipe(Socket from, Socket to) throws IOException
    {
        final InputStream in = from.getInputStream();
        final OutputStream out = to.getOutputStream();
        final Thread thread = new Thread(() ->
        {
            try
            {
                in.transferTo(out);
                to.shutdownOutput();
            }
            catch (IOException ex)
            {
                // either side closed
            }
        }, "counting-relay-pipe");
        thread.setDaemon(true);
        thread.start();
    }
}
