/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports for tests, never the same one twice in a JVM, and never from the kernel's ephemeral range.
 * <p>
 * A port the kernel gives for a bind to port 0 comes from the ephemeral range, the same range that outgoing connections
 * take their local ports from: between the test choosing such a port and zilla binding it, a connection of another
 * process (an embedded broker connecting to itself, a client of a parallel test) took it as its local port, and zilla
 * could not listen (CI, ZillaDemoIT: "port 34997 is in use"). Ports below the ephemeral range are only ever taken by a
 * bind that asks for them, so a port found free here stays free until the test uses it. A port two asks in a row could
 * both get (a server's and its upstream's) is given once only.
 */
public final class FreePorts
{
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int DEFAULT_EPHEMERAL_LOW = 32768;
    private static final int LOWEST = 10000;
    private static final int ATTEMPTS = 1000;

    private static final Set<Integer> GIVEN = new HashSet<>();

    private FreePorts()
    {
    }

    /** A port that is free on every address now, below the ephemeral range, that no caller in this JVM got before. */
    public static synchronized int next()
    {
        final int high = ephemeralLow();
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++)
        {
            final int port = random.nextInt(LOWEST, high);
            if (!GIVEN.contains(port) && isFree(port))
            {
                GIVEN.add(port);
                return port;
            }
        }
        final String range = LOWEST + "-" + (high - 1);
        throw new UncheckedIOException(new IOException("no free port in " + range + " after " + ATTEMPTS + " attempts"));
    }

    /** Whether nothing listens on {@code port} on any address (zilla's tcp servers bind the wildcard address). */
    public static boolean isFree(int port)
    {
        try (ServerSocket socket = new ServerSocket())
        {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
            return true;
        }
        catch (IOException ex)
        {
            return false;
        }
    }

    private static int ephemeralLow()
    {
        try
        {
            final String[] range = Files.readString(EPHEMERAL_RANGE).trim().split("\\s+");
            final int low = Integer.parseInt(range[0]);
            return low > LOWEST + 1000 ? low : DEFAULT_EPHEMERAL_LOW;
        }
        catch (IOException | RuntimeException ex)
        {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }
}
