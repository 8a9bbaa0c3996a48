/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import java.util.List;
import javax.net.ssl.SSLEngine;

/** Makes the engines of a tls client's connections. Safe to share between workers. */
public interface TlsClientContext
{
    /**
     * A client mode engine for one connection.
     *
     * @param serverName           the name sent as SNI and checked against the server's certificate, or null for neither
     * @param port                 the server's port, with serverName the key under which a session is kept for resumption
     * @param applicationProtocols the ALPN protocols to offer, in order of preference; empty for no ALPN
     */
    SSLEngine newEngine(String serverName, int port, List<String> applicationProtocols);
}
