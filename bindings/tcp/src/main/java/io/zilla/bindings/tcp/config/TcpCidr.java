/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * A block of addresses, {@code 10.0.0.0/8} or {@code fd00::/8}; an address alone is a block of one.
 *
 * @param network the block's address bytes (4 or 16)
 * @param prefix  how many leading bits of an address must equal the network's
 */
public record TcpCidr(byte[] network, int prefix)
{
    private static final Pattern IPV4 = Pattern.compile("^[0-9]{1,3}(\\.[0-9]{1,3}){3}$");

    public TcpCidr
    {
        network = network.clone();
    }

    /**
     * Parses a literal block: a name is refused rather than looked up, so that reading a config never waits on DNS.
     *
     * @throws IllegalArgumentException when the text is not an address with an optional prefix length
     */
    public static TcpCidr parse(String text)
    {
        final int slash = text.indexOf('/');
        final String address = slash == -1 ? text : text.substring(0, slash);
        if (!IPV4.matcher(address).matches() && address.indexOf(':') == -1)
        {
            throw new IllegalArgumentException("cidr '" + text + "' is not an IPv4 or IPv6 address block");
        }
        final byte[] network;
        try
        {
            // a literal: InetAddress parses it without a lookup
            network = InetAddress.getByName(address).getAddress();
        }
        catch (UnknownHostException ex)
        {
            throw new IllegalArgumentException("cidr '" + text + "' is not an IPv4 or IPv6 address block", ex);
        }
        final int bits = network.length * Byte.SIZE;
        int prefix = bits;
        if (slash != -1)
        {
            try
            {
                prefix = Integer.parseInt(text.substring(slash + 1));
            }
            catch (NumberFormatException ex)
            {
                throw new IllegalArgumentException("cidr '" + text + "' has a bad prefix length", ex);
            }
            if (prefix < 0 || prefix > bits)
            {
                throw new IllegalArgumentException("cidr '" + text + "' has a prefix length outside [0, " + bits + "]");
            }
        }
        return new TcpCidr(network, prefix);
    }

    /** Whether {@code address} (4 or 16 bytes) is in the block; an address of the other family never is. */
    public boolean matches(byte[] address)
    {
        if (address.length != network.length)
        {
            return false;
        }
        final int whole = prefix / Byte.SIZE;
        for (int i = 0; i < whole; i++)
        {
            if (address[i] != network[i])
            {
                return false;
            }
        }
        final int rest = prefix % Byte.SIZE;
        if (rest == 0)
        {
            return true;
        }
        final int mask = 0xff << (Byte.SIZE - rest) & 0xff;
        return (address[whole] & mask) == (network[whole] & mask);
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof TcpCidr that && prefix == that.prefix && Arrays.equals(network, that.network);
    }

    @Override
    public int hashCode()
    {
        return 31 * Arrays.hashCode(network) + prefix;
    }

    @Override
    public String toString()
    {
        try
        {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        }
        catch (UnknownHostException ex)
        {
            return Arrays.toString(network) + "/" + prefix;
        }
    }
}
