/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;

import org.junit.jupiter.api.Test;

class TcpConditionConfigTest
{
    @Test
    void shouldMatchIpv4Blocks() throws Exception
    {
        final TcpCidr cidr = TcpCidr.parse("10.16.0.0/12");
        assertTrue(cidr.matches(address("10.16.0.1")));
        assertTrue(cidr.matches(address("10.31.255.255")));
        assertFalse(cidr.matches(address("10.32.0.0")));
        assertFalse(cidr.matches(address("10.15.255.255")));
        assertFalse(cidr.matches(address("::1")));
        assertTrue(TcpCidr.parse("0.0.0.0/0").matches(address("192.0.2.1")));
        assertTrue(TcpCidr.parse("192.0.2.1").matches(address("192.0.2.1")));
        assertFalse(TcpCidr.parse("192.0.2.1/32").matches(address("192.0.2.2")));
    }

    @Test
    void shouldMatchIpv6Blocks() throws Exception
    {
        final TcpCidr cidr = TcpCidr.parse("fd00::/8");
        assertTrue(cidr.matches(address("fd12:3456::1")));
        assertFalse(cidr.matches(address("fe80::1")));
        assertFalse(cidr.matches(address("10.0.0.1")));
        assertEquals("fd00:0:0:0:0:0:0:0/8", cidr.toString());
    }

    @Test
    void shouldRefuseWhatIsNotABlock()
    {
        assertThrows(IllegalArgumentException.class, () -> TcpCidr.parse("example.com/8"));
        assertThrows(IllegalArgumentException.class, () -> TcpCidr.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> TcpCidr.parse("::/129"));
        assertThrows(IllegalArgumentException.class, () -> TcpCidr.parse("10.0.0.0/x"));
        assertThrows(IllegalArgumentException.class, () -> TcpCidr.parse("beef"));
    }

    @Test
    void shouldMatchAuthoritiesWithWildcardLabels()
    {
        final TcpConditionConfig condition = new TcpConditionConfig(null, "*.Example.com", null);
        assertTrue(condition.matchesAuthority("broker-1.example.com"));
        assertTrue(condition.matchesAuthority("BROKER.EXAMPLE.COM"));
        assertFalse(condition.matchesAuthority("a.b.example.com"));
        assertFalse(condition.matchesAuthority("example.com"));
        assertFalse(condition.matchesAuthority(null));
        assertTrue(new TcpConditionConfig(null, "broker-*.example.com", null).matchesAuthority("broker-7.example.com"));
        assertTrue(new TcpConditionConfig(null, "127.0.0.1", null).matchesAuthority("127.0.0.1"));
    }

    @Test
    void shouldMatchEveryPropertyItNames() throws Exception
    {
        final TcpConditionConfig condition = new TcpConditionConfig(TcpCidr.parse("127.0.0.0/8"), null, new int[] {80, 443});
        assertTrue(condition.matches(address("127.0.0.1"), "localhost", 443));
        assertFalse(condition.matches(address("127.0.0.1"), "localhost", 8080));
        assertFalse(condition.matches(address("10.0.0.1"), "localhost", 443));
        assertFalse(condition.matches(null, "localhost", 443));

        final TcpConditionConfig any = new TcpConditionConfig(null, null, null);
        assertTrue(any.matches(null, null, 1));
    }

    private static byte[] address(String literal) throws Exception
    {
        return InetAddress.getByName(literal).getAddress();
    }
}
