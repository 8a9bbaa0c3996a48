/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A relay in front of a real broker that answers some connections itself, with bytes a test crafted: a connection
 * whose first request has the client id {@code crafted-<name>} gets the response given for that name, with the request's
 * correlation id written at its bytes 4 to 7. Every other connection is relayed to the broker byte for byte, so the
 * proxy's own clients (kafka-clients, the proxy's broker lookup) keep working through it, unless {@link #craft} was
 * given the lookup's client id {@code zilla-proxy}.
 */
public final class CraftedBroker extends LoopbackServer
{
    private static final String CRAFTED = "crafted-";

    private final String brokerHost;
    private final int brokerPort;
    private final Map<String, byte[]> responses = new ConcurrentHashMap<>();
    private final AtomicInteger answered = new AtomicInteger();

    public CraftedBroker(String brokerBootstrap) throws IOException
    {
        super("crafted-broker");
        final int colon = brokerBootstrap.lastIndexOf(':');
        this.brokerHost = brokerBootstrap.substring(0, colon);
        this.brokerPort = Integer.parseInt(brokerBootstrap.substring(colon + 1));
        start();
    }

    /** Answers the first request of client id {@code crafted-<name>} (or {@code clientId} zilla-proxy) with these bytes. */
    public void craft(String name, byte[] response)
    {
        responses.put(name.equals("zilla-proxy") ? name : CRAFTED + name, response);
    }

    /** How many connections got a crafted response. */
    public int answered()
    {
        return answered.get();
    }

    @Override
    protected void onAccepted(Socket client)
    {
        final Thread connection = new Thread(() -> serve(client), "crafted-broker-connection");
        connection.setDaemon(true);
        connection.start();
    }

    private void serve(Socket client)
    {
        try
        {
            final DataInputStream in = new DataInputStream(client.getInputStream());
            final int size = in.readInt();
            final byte[] request = new byte[size];
            in.readFully(request);
            final ByteBuffer header = ByteBuffer.wrap(request);
            final int correlationId = header.getInt(4);
            final byte[] clientId = new byte[Math.max(header.getShort(8), 0)];
            header.position(10).get(clientId);
            final byte[] crafted = responses.get(new String(clientId, UTF_8));
            if (crafted != null)
            {
                final byte[] response = crafted.clone();
                if (response.length >= 2 * Integer.BYTES)
                {
                    ByteBuffer.wrap(response).putInt(Integer.BYTES, correlationId);
                }
                client.getOutputStream().write(response);
                client.getOutputStream().flush();
                answered.incrementAndGet();
                // hold the connection open: whatever closes it is the proxy
                while (in.read() != -1)
                {
                    // discard
                }
            }
            else
            {
                relay(client, size, request);
            }
        }
        catch (IOException ex)
        {
            // either side closed
        }
        finally
        {
            closeQuietly(client);
        }
    }

    private void relay(Socket client, int size, byte[] request) throws IOException
    {
        try (Socket broker = track(new Socket(brokerHost, brokerPort)))
        {
            final OutputStream toBroker = broker.getOutputStream();
            toBroker.write(ByteBuffer.allocate(Integer.BYTES).putInt(size).array());
            toBroker.write(request);
            toBroker.flush();
            final Thread back = new Thread(() -> pump(broker, client), "crafted-broker-back");
            back.setDaemon(true);
            back.start();
            pump(client, broker);
        }
    }

    private static void pump(Socket from, Socket to)
    {
        final byte[] bytes = new byte[16 * 1024];
        try
        {
            final InputStream in = from.getInputStream();
            final OutputStream out = to.getOutputStream();
            for (int read = in.read(bytes); read != -1; read = in.read(bytes))
            {
                out.write(bytes, 0, read);
                out.flush();
            }
        }
        catch (IOException ex)
        {
            // either side closed
        }
        finally
        {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket)
    {
        try
        {
            socket.close();
        }
        catch (IOException ex)
        {
            // closed already
        }
    }
}
