/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import javax.net.ssl.SSLEngine;

/** Makes the engines of a tls server's connections that present one set of keys. Safe to share between workers. */
public interface TlsServerContext
{
    /**
     * A server mode engine for one connection.
     *
     * @param applicationProtocol the ALPN protocol the server selects for this connection (the binding chose it from
     *                            the ClientHello it read before the engine exists), or null to answer without ALPN
     */
    SSLEngine newEngine(String applicationProtocol);
}
