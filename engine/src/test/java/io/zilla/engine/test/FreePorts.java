/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Free loopback ports for tests, never the same one twice in a JVM. The kernel's port for a socket bound to port 0 is
 * free when it is closed, and the next such socket may get it again: two ports asked for one after the other (a
 * server's and its upstream's) were at times the same, and a zilla then listened on its own upstream's port, which it
 * refuses as a loop, or two listeners of one engine shared a port.
 */
public final class FreePorts
{
    private static final Set<Integer> GIVEN = new HashSet<>();

    private FreePorts()
    {
    }

    /** A port that is free on 127.0.0.1 now and that no caller in this JVM got before. */
    public static synchronized int next()
    {
        while (true)
        {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
            {
                final int port = socket.getLocalPort();
                if (GIVEN.add(port))
                {
                    return port;
                }
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException("no free port on 127.0.0.1", ex);
            }
        }
    }
}
