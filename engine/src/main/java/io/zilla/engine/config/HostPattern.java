/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

/**
 * Matches a host name against a route's {@code authority}, where {@code *} stands for any run of characters but a
 * dot (one label or part of one: {@code *.example.com}, {@code broker-*.example.com}). Case-insensitive: the pattern
 * is expected in lower case (a condition lowers it once when it is built). Shared by the binding types whose routes
 * name an authority (tcp, tls).
 */
public final class HostPattern
{
    private HostPattern()
    {
    }

    /**
     * @param pattern the authority, in lower case
     * @param host    the host name to test
     * @return whether {@code host} matches {@code pattern}
     */
    public static boolean matches(String pattern, String host)
    {
        return matches(pattern, 0, host, 0);
    }

    // a host name is short: plain backtracking, with '*' stopping at dots
    private static boolean matches(String pattern, int p, String host, int h)
    {
        while (p < pattern.length())
        {
            final char c = pattern.charAt(p);
            if (c == '*')
            {
                for (int end = h; ; end++)
                {
                    if (matches(pattern, p + 1, host, end))
                    {
                        return true;
                    }
                    if (end == host.length() || host.charAt(end) == '.')
                    {
                        return false;
                    }
                }
            }
            if (h == host.length() || Character.toLowerCase(host.charAt(h)) != c)
            {
                return false;
            }
            p++;
            h++;
        }
        return h == host.length();
    }
}
