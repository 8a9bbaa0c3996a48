/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.Arrays;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Parses the {@code port} of the options and of a route's {@code when}: an integer, a range {@code "8000-8010"}
 * (both ends included), or a list of those. The result is sorted and without duplicates, so that a condition can
 * match a port with a binary search. Shared by the binding types whose options and routes name ports (tcp, tls).
 */
public final class PortRanges
{
    public static final String MESSAGE = "must be an integer, a range \"8000-8010\" or a list";

    /** The most ports one binding may name: a typo such as "1-65535" on a server must not open 65,536 sockets. */
    public static final int MAX_PORTS = 1024;

    private static final int MAX_PORT = 65535;

    private PortRanges()
    {
    }

    /**
     * @return the ports, sorted and distinct, or null when {@code node} is null or missing
     * @throws IllegalArgumentException when the value is not a port, a range or a list of those
     */
    public static int[] parse(JsonNode node)
    {
        if (node == null || node.isMissingNode() || node.isNull())
        {
            return null;
        }
        final Builder ports = new Builder();
        if (node.isArray())
        {
            if (node.isEmpty())
            {
                throw new IllegalArgumentException(MESSAGE);
            }
            for (JsonNode item : node)
            {
                add(ports, item);
            }
        }
        else
        {
            add(ports, node);
        }
        return ports.build();
    }

    /** Parses one port or range, such as {@code 8080} or {@code 8000-8010}. */
    public static int[] parse(String text)
    {
        final Builder ports = new Builder();
        addText(ports, text);
        return ports.build();
    }

    private static void add(Builder ports, JsonNode item)
    {
        if (item.isIntegralNumber() && item.canConvertToInt())
        {
            ports.add(check(item.intValue()), check(item.intValue()));
        }
        else if (item.isTextual())
        {
            addText(ports, item.textValue());
        }
        else
        {
            throw new IllegalArgumentException(MESSAGE);
        }
    }

    private static void addText(Builder ports, String text)
    {
        final String value = text.trim();
        final int dash = value.indexOf('-', 1);
        try
        {
            if (dash == -1)
            {
                final int port = check(Integer.parseInt(value));
                ports.add(port, port);
            }
            else
            {
                final int low = check(Integer.parseInt(value.substring(0, dash).trim()));
                final int high = check(Integer.parseInt(value.substring(dash + 1).trim()));
                if (low > high)
                {
                    throw new IllegalArgumentException(MESSAGE + ": " + low + " is above " + high);
                }
                ports.add(low, high);
            }
        }
        catch (NumberFormatException ex)
        {
            throw new IllegalArgumentException(MESSAGE, ex);
        }
    }

    private static int check(int port)
    {
        if (port < 0 || port > MAX_PORT)
        {
            throw new IllegalArgumentException(MESSAGE + ": " + port + " is not in [0, 65535]");
        }
        return port;
    }

    private static final class Builder
    {
        private int[] ports = new int[8];
        private int count;

        void add(int low, int high)
        {
            for (int port = low; port <= high; port++)
            {
                if (count == MAX_PORTS)
                {
                    throw new IllegalArgumentException(MESSAGE + ": more than " + MAX_PORTS + " ports");
                }
                if (count == ports.length)
                {
                    ports = Arrays.copyOf(ports, count * 2);
                }
                ports[count++] = port;
            }
        }

        int[] build()
        {
            final int[] sorted = Arrays.copyOf(ports, count);
            Arrays.sort(sorted);
            int distinct = 0;
            for (int i = 0; i < sorted.length; i++)
            {
                if (distinct == 0 || sorted[distinct - 1] != sorted[i])
                {
                    sorted[distinct++] = sorted[i];
                }
            }
            return Arrays.copyOf(sorted, distinct);
        }
    }
}
