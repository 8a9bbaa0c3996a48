/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.config;

import java.util.Arrays;
import java.util.Objects;

import io.zilla.engine.config.OptionsConfig;

/**
 * The {@code options} of a tcp binding.
 *
 * @param host      server: the address to listen on; client: the host to connect to when the stream does not say
 * @param ports     server: the ports to listen on; client: the first is the port to connect to when the stream does
 *                  not say; sorted, or null
 * @param backlog   server: the accept queue of each listening socket, 0 for the system's maximum (net.core.somaxconn)
 * @param nodelay   TCP_NODELAY on every connection
 * @param keepalive SO_KEEPALIVE on every connection
 * @param timeout   client: milliseconds to wait for a connection, 0 for the engine's default
 */
public record TcpOptionsConfig(String host, int[] ports, int backlog, boolean nodelay, boolean keepalive, long timeout)
    implements OptionsConfig
{
    public static final boolean DEFAULT_NODELAY = true;
    public static final boolean DEFAULT_KEEPALIVE = false;

    /** A client without options: every stream must name its destination. */
    public static final TcpOptionsConfig DEFAULTS = new TcpOptionsConfig(null, null, 0, DEFAULT_NODELAY,
        DEFAULT_KEEPALIVE, 0L);

    public TcpOptionsConfig
    {
        ports = ports != null ? ports.clone() : null;
        if (backlog < 0 || timeout < 0)
        {
            throw new IllegalArgumentException("backlog and timeout must not be negative");
        }
    }

    /** The first port, or 0 when there is none. */
    public int port()
    {
        return ports != null && ports.length > 0 ? ports[0] : 0;
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof TcpOptionsConfig that && Objects.equals(host, that.host) && Arrays.equals(ports, that.ports)
            && backlog == that.backlog && nodelay == that.nodelay && keepalive == that.keepalive && timeout == that.timeout;
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(host, Arrays.hashCode(ports), backlog, nodelay, keepalive, timeout);
    }

    @Override
    public String toString()
    {
        return "TcpOptionsConfig[host=" + host + ", ports=" + Arrays.toString(ports) + ", backlog=" + backlog
            + ", nodelay=" + nodelay + ", keepalive=" + keepalive + ", timeout=" + timeout + "]";
    }
}
