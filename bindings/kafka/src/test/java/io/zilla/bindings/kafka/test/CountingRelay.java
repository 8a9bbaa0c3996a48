/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain TCP relay on a loopback port in front of a real broker that counts the connections it accepted: put as a
 * proxy's bootstrap server, it tells a test which connections went to the bootstrap server and which did not.
 */
public final class CountingRelay extends LoopbackServer
{
    private final int targetPort;
    private final AtomicInteger accepted = new AtomicInteger();

    public CountingRelay(int targetPort) throws IOException
    {
        super("counting-relay");
        this.targetPort = targetPort;
        start();
    }

    /** How many connections the relay accepted so far. */
    public int connections()
    {
        return accepted.get();
    }

    @Override
    protected void onAccepted(Socket client) throws IOException
    {
        accepted.incrementAndGet();
        final Socket broker = track(new Socket(KafkaProxyFixture.LOOPBACK, targetPort));
        pipe(client, broker);
        pipe(broker, client);
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
