/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.HostPattern;

/**
 * One {@code when} entry of a tls route. Every property it names must match; an entry that names none matches
 * every connection. For kind proxy:
 * <ul>
 * <li>{@code authority}: the server name (SNI) of the ClientHello; a ClientHello without one matches no authority;</li>
 * <li>{@code alpn}: one of the protocols the ClientHello offers;</li>
 * <li>{@code port}: the port the connection came in on, from the tcp server's Begin extension.</li>
 * </ul>
 *
 * @param authority a host name, where {@code *} stands for any run of characters but a dot; or null
 * @param alpn      an application protocol name, or null
 * @param ports     the ports, sorted, or null
 */
public record TlsConditionConfig(String authority, String alpn, int[] ports) implements ConditionConfig
{
    public TlsConditionConfig
    {
        authority = authority != null ? authority.toLowerCase(Locale.ROOT) : null;
        ports = ports != null ? ports.clone() : null;
    }

    /**
     * @param serverName the SNI host name, or null when the client sent none
     * @param protocols  the ALPN protocols the client offers, empty when none
     * @param port       the port the connection came in on, 0 when unknown
     */
    public boolean matches(String serverName, List<String> protocols, int port)
    {
        return matchesAuthority(serverName) && matchesAlpn(protocols) && matchesPort(port);
    }

    public boolean matchesAuthority(String serverName)
    {
        return authority == null || serverName != null && HostPattern.matches(authority, serverName);
    }

    public boolean matchesAlpn(List<String> protocols)
    {
        return alpn == null || protocols.contains(alpn);
    }

    public boolean matchesPort(int port)
    {
        return ports == null || Arrays.binarySearch(ports, port) >= 0;
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof TlsConditionConfig that && Objects.equals(authority, that.authority)
            && Objects.equals(alpn, that.alpn) && Arrays.equals(ports, that.ports);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(authority, alpn, Arrays.hashCode(ports));
    }

    @Override
    public String toString()
    {
        return "TlsConditionConfig[authority=" + authority + ", alpn=" + alpn + ", ports=" + Arrays.toString(ports) + "]";
    }
}
