/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;

/** What tests that speak raw bytes to the proxy need of a socket. */
public final class RawSockets
{
    private RawSockets()
    {
    }

    /**
     * The next byte, or -1 once the connection is closed, whether by a FIN or a reset (a proxy that closes a connection
     * with bytes unread resets it); a read that times out still throws.
     */
    public static int readOrClosed(InputStream in) throws IOException
    {
        try
        {
            return in.read();
        }
        catch (SocketTimeoutException ex)
        {
            throw ex;
        }
        catch (IOException ex)
        {
            return -1;
        }
    }
}
