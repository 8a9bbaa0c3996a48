/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.config;

/**
 * A kafka proxy's SNI mode: every broker is advertised as {@code <name>:<port>}, one name per node id from the
 * {@code broker} pattern (its {@code {id}} is the node id, as in {@code broker-{id}.example.com}), and the client's
 * TLS server name (SNI), which a tls server in front puts on the stream's TlsBeginEx, says which broker a connection
 * stands for; {@code bootstrap} names the bootstrap servers.
 */
public record KafkaSniConfig(String bootstrap, String broker, int port)
{
    public static final String NODE_ID = "{id}";

    /** What {@link #nodeOf} answers for the bootstrap name, or for no name at all. */
    public static final int BOOTSTRAP = -1;

    /** What {@link #nodeOf} answers for a name that is neither the bootstrap name nor a broker's. */
    public static final int UNKNOWN = -2;

    // a node id has at most 10 decimal digits (a non-negative int)
    private static final int MAX_DIGITS = 10;

    public KafkaSniConfig
    {
        final int at = broker.indexOf(NODE_ID);
        if (at == -1 || broker.indexOf(NODE_ID, at + 1) != -1)
        {
            throw new IllegalArgumentException("a broker name pattern has one " + NODE_ID + ": " + broker);
        }
    }

    /** The name advertised for a node id: the pattern with {@code {id}} replaced. */
    public String brokerName(int nodeId)
    {
        return broker.replace(NODE_ID, Integer.toString(nodeId));
    }

    /**
     * The node id a server name stands for: the broker pattern's prefix and suffix (ignoring case, as DNS does) around
     * a node id written as {@link #brokerName} writes it (no sign, no leading zero); {@link #BOOTSTRAP} for the
     * bootstrap name or null; {@link #UNKNOWN} otherwise.
     */
    public int nodeOf(String name)
    {
        int nodeId = UNKNOWN;
        if (name == null || name.isEmpty() || name.equalsIgnoreCase(bootstrap))
        {
            nodeId = BOOTSTRAP;
        }
        else
        {
            final int at = broker.indexOf(NODE_ID);
            final int suffixLength = broker.length() - at - NODE_ID.length();
            final int digits = name.length() - at - suffixLength;
            if (digits > 0 && digits <= MAX_DIGITS
                && name.regionMatches(true, 0, broker, 0, at)
                && name.regionMatches(true, name.length() - suffixLength, broker, broker.length() - suffixLength, suffixLength)
                && (digits == 1 || name.charAt(at) != '0'))
            {
                long value = 0;
                boolean numeric = true;
                for (int i = at; i < at + digits && numeric; i++)
                {
                    final char c = name.charAt(i);
                    numeric = c >= '0' && c <= '9';
                    value = value * 10 + (c - '0');
                }
                if (numeric && value <= Integer.MAX_VALUE)
                {
                    nodeId = (int) value;
                }
            }
        }
        return nodeId;
    }
}
