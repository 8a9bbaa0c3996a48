/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.HostPattern;

/**
 * One {@code when} entry of a tcp route. Every property it names must match; an entry that names none matches
 * every connection.
 * <ul>
 * <li>server: {@code cidr} is tested against the peer's address, {@code authority} against the local address the
 * connection was accepted on, {@code port} against the local port;</li>
 * <li>client: all three are tested against the destination the stream asks for.</li>
 * </ul>
 *
 * @param cidr      the block the address must be in, or null
 * @param authority a host name or address, where {@code *} stands for any run of characters but a dot; or null
 * @param ports     the ports, sorted, or null
 */
public record TcpConditionConfig(TcpCidr cidr, String authority, int[] ports) implements ConditionConfig
{
    public TcpConditionConfig
    {
        authority = authority != null ? authority.toLowerCase(Locale.ROOT) : null;
        ports = ports != null ? ports.clone() : null;
    }

    /**
     * @param address   the address bytes to test {@code cidr} against, or null when unknown (an unresolved name)
     * @param authority the host name or address literal to test {@code authority} against, or null
     * @param port      the port
     */
    public boolean matches(byte[] address, String authority, int port)
    {
        return matchesCidr(address) && matchesAuthority(authority) && matchesPort(port);
    }

    public boolean matchesCidr(byte[] address)
    {
        return cidr == null || address != null && cidr.matches(address);
    }

    public boolean matchesAuthority(String host)
    {
        return authority == null || host != null && HostPattern.matches(authority, host);
    }

    public boolean matchesPort(int port)
    {
        return ports == null || Arrays.binarySearch(ports, port) >= 0;
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof TcpConditionConfig that && Objects.equals(cidr, that.cidr)
            && Objects.equals(authority, that.authority) && Arrays.equals(ports, that.ports);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(cidr, authority, Arrays.hashCode(ports));
    }

    @Override
    public String toString()
    {
        return "TcpConditionConfig[cidr=" + cidr + ", authority=" + authority + ", ports=" + Arrays.toString(ports) + "]";
    }
}
