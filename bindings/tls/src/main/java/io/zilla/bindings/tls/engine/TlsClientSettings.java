/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * What a client context is made of.
 *
 * @param keys         the private key (and its chain) to present when a server asks for one, or null for none
 * @param trust        the certificates trusted to identify servers (the vault's trust, with the JVM's CA
 *                     certificates added when {@code trustcacerts} says so)
 * @param protocols    the TLS versions to speak (a subset of TLSv1.3, TLSv1.2)
 * @param cipherSuites the cipher suites to allow, in the provider's names, or empty for the provider's modern default
 */
public record TlsClientSettings(KeyManagerFactory keys, TrustManagerFactory trust, List<String> protocols,
    List<String> cipherSuites)
{
}
