/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import java.security.GeneralSecurityException;
import javax.net.ssl.SSLEngine;

/**
 * Makes the SSLEngines of tls bindings: the JDK's own provider, or OpenSSL/BoringSSL through netty-tcnative when it
 * is on the class path. The binding streams drive any of them the same way (wrap, unwrap, delegated tasks), so a
 * provider only decides how an engine is made.
 *
 * <p>Contexts are made when a binding attaches and shared by its workers, never per connection: a context holds the
 * session cache and the session ticket keys, so a session resumes on whichever worker the client lands.
 */
public interface TlsEngineProvider
{
    /** How the log and the docs name this provider: {@code jdk} or {@code openssl}. */
    String name();

    /** The server side of connections with one set of keys (a binding has one context per key alias it serves). */
    TlsServerContext newServerContext(TlsServerSettings settings) throws GeneralSecurityException;

    /** The client side of connections of one tls client binding. */
    TlsClientContext newClientContext(TlsClientSettings settings) throws GeneralSecurityException;

    /**
     * Whether an engine whose handshake just finished resumed a session, as the handshake counters tell it. By default
     * its session is older than the handshake, as the JDK's creation times (milliseconds) show.
     *
     * @param handshakeStart when the binding began the handshake, {@link System#currentTimeMillis()}
     */
    default boolean resumed(SSLEngine engine, long handshakeStart)
    {
        return engine.getSession().getCreationTime() < handshakeStart;
    }

    /**
     * Frees what an engine holds outside the Java heap, once its connection is closed (ended, aborted or reset,
     * whichever way): OpenSSL's engines hold native memory until then, or until the garbage collector finalizes them.
     * The binding calls it once per engine it was given, and uses the engine no more. The JDK's engines hold nothing
     * of the kind: by default it does nothing.
     */
    default void release(SSLEngine engine)
    {
    }
}
