/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/** The benches' command lines: {@code --name value} or {@code --name=value}, by name. */
final class BenchArgs
{
    private BenchArgs()
    {
    }

    static Map<String, String> parse(String... args)
    {
        final Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            if (!arg.startsWith("--"))
            {
                throw new IllegalArgumentException("expected --name value, not " + arg + " in " + Arrays.asList(args));
            }
            final int equals = arg.indexOf('=');
            if (equals > 0)
            {
                options.put(arg.substring(2, equals), arg.substring(equals + 1));
            }
            else if (i + 1 < args.length)
            {
                options.put(arg.substring(2), args[++i]);
            }
            else
            {
                throw new IllegalArgumentException(arg + " needs a value");
            }
        }
        return options;
    }
}
