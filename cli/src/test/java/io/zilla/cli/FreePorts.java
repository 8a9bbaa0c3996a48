/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;

/**
 * Free ports for the tests, below the ephemeral range (see the engine's): one, or a run of consecutive ones (the demo's
 * bootstrap and node ports).
 */
final class FreePorts
{
    private static final int ATTEMPTS = 100;

    private FreePorts()
    {
    }

    static int freePort() throws IOException
    {
        // the engine's, so that no port is given twice in a JVM
        return io.zilla.engine.test.FreePorts.next();
    }

    /** The first of {@code count} consecutive ports that are free on 127.0.0.1 now. */
    static int freePorts(int count) throws IOException
    {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++)
        {
            final int first = freePort();
            if (first + count - 1 <= 65535 && allFree(first, count))
            {
                return first;
            }
        }
        throw new IOException("no " + count + " consecutive free ports after " + ATTEMPTS + " attempts");
    }

    private static boolean allFree(int first, int count)
    {
        for (int port = first; port < first + count; port++)
        {
            if (!io.zilla.engine.test.FreePorts.isFree(port))
            {
                return false;
            }
        }
        return true;
    }
}
