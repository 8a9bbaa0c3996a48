/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.ServerSocketChannel;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The addresses that this engine's tcp servers listen on, shared by its workers. Every worker listens on a server's
 * ports with {@code SO_REUSEPORT}, so that the kernel spreads connections over them; but the kernel lets any process
 * of the same user join such a group, and a second zilla on the same port would start silently and take half the
 * connections. So the first worker to listen on an address first binds it without {@code SO_REUSEPORT}, which fails
 * when anything else has it; the other workers then join. Tcp clients ask here whether a destination is one of these
 * listeners: a zilla that connects to itself can loop until it has no file descriptors left.
 * <p>
 * Workers change it when bindings attach or detach, under a lock; clients read it once per connection, without one:
 * each change publishes a new snapshot of what is listened on.
 */
public final class TcpListeners
{
    private final Map<InetSocketAddress, Integer> listening = new HashMap<>();
    private volatile Snapshot snapshot = new Snapshot(Set.of(), Set.of());

    /**
     * Opens and binds a listener on {@code address} for one worker; the first worker to listen on it checks that no
     * other process has it.
     *
     * @throws PortInUseException when another process listens on the address
     * @throws IOException when the socket cannot be opened or bound for another reason
     */
    public synchronized ServerSocketChannel listen(InetSocketAddress address, int backlog, boolean reusePort)
        throws IOException
    {
        if (reusePort && address.getPort() != 0 && !listening.containsKey(address))
        {
            checkFree(address);
        }
        final ServerSocketChannel listener = ServerSocketChannel.open();
        try
        {
            if (reusePort)
            {
                listener.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            }
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(address, backlog);
        }
        catch (BindException ex)
        {
            closeQuietly(listener);
            throw new PortInUseException(address, ex);
        }
        catch (IOException | RuntimeException ex)
        {
            closeQuietly(listener);
            throw ex;
        }
        if (listening.merge(address, 1, Integer::sum) == 1)
        {
            final Set<InetAddress> local = address.getAddress().isAnyLocalAddress() ? localAddresses() : snapshot.local;
            snapshot = new Snapshot(Set.copyOf(listening.keySet()), local);
        }
        return listener;
    }

    /** A worker closed its listener on {@code address}. */
    public synchronized void closed(InetSocketAddress address)
    {
        if (listening.computeIfPresent(address, (key, count) -> count > 1 ? count - 1 : null) == null)
        {
            snapshot = new Snapshot(Set.copyOf(listening.keySet()), snapshot.local);
        }
    }

    /** Whether connecting to {@code address}:{@code port} would reach one of this engine's listeners; takes no lock. */
    public boolean isListening(InetAddress address, int port)
    {
        final Snapshot current = snapshot;
        for (InetSocketAddress listener : current.listening)
        {
            if (listener.getPort() == port && reaches(listener.getAddress(), address, current.local))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a connection to {@code destination} reaches a listener on {@code listener} (the port aside).
     *
     * @param localAddresses this host's addresses, which a listener on the wildcard address takes connections to
     */
    public static boolean reaches(InetAddress listener, InetAddress destination, Set<InetAddress> localAddresses)
    {
        // connecting to the wildcard address reaches this host too
        return listener.equals(destination)
            || listener.isAnyLocalAddress() && (destination.isAnyLocalAddress() || destination.isLoopbackAddress()
                || localAddresses.contains(destination))
            || destination.isAnyLocalAddress() && listener.isLoopbackAddress();
    }

    /** Binds {@code address} alone, without joining a reuse-port group: that fails while anyone else listens there. */
    private static void checkFree(InetSocketAddress address) throws IOException
    {
        try (ServerSocketChannel probe = ServerSocketChannel.open())
        {
            // SO_REUSEADDR as the listener has it: connections of an earlier zilla still in TIME_WAIT do not count
            probe.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            probe.bind(address, 1);
        }
        catch (BindException ex)
        {
            throw new PortInUseException(address, ex);
        }
    }

    /** An address literal, or localhost, as an address; null for a name that needs a lookup. */
    public static InetAddress literal(String host)
    {
        try
        {
            return "localhost".equalsIgnoreCase(host) ? InetAddress.getLoopbackAddress()
                : TcpResolver.isLiteral(host) ? InetAddress.getByName(host) : null;
        }
        catch (UnknownHostException ex)
        {
            return null;
        }
    }

    /** This host's addresses, of every network interface. */
    public static Set<InetAddress> localAddresses()
    {
        final Set<InetAddress> addresses = new HashSet<>();
        try
        {
            NetworkInterface.networkInterfaces().forEach(network -> network.inetAddresses().forEach(addresses::add));
        }
        catch (SocketException ex)
        {
            // no interfaces to list: loopback and the wildcard address are still recognised
        }
        return Set.copyOf(addresses);
    }

    private static void closeQuietly(ServerSocketChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (IOException ex)
        {
            // failed to listen already: nothing more to do
        }
    }

    /** What is listened on, and this host's addresses (read when a listener on the wildcard address was added). */
    private record Snapshot(Set<InetSocketAddress> listening, Set<InetAddress> local)
    {
    }

    /** Another process listens on the address. */
    public static final class PortInUseException extends IOException
    {
        private static final long serialVersionUID = 1L;

        PortInUseException(InetSocketAddress address, BindException cause)
        {
            super("port " + address.getPort() + " is in use (" + address.getAddress().getHostAddress() + ":" + address.getPort()
                + ": " + cause.getMessage() + ")", cause);
        }
    }
}
