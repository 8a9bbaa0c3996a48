/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

import io.zilla.bindings.tls.config.TlsMutual;

/**
 * What a server context is made of.
 *
 * @param keys         the private key (and its chain) to present
 * @param signers      the CAs whose signed client certificates are accepted, or null when the server asks for none
 * @param mutual       whether the server asks for a client certificate, and whether it must get one
 * @param protocols    the TLS versions to speak (a subset of TLSv1.3, TLSv1.2)
 * @param cipherSuites the cipher suites to allow, in the provider's names, or empty for the provider's modern default
 */
public record TlsServerSettings(KeyManagerFactory keys, TrustManagerFactory signers, TlsMutual mutual,
    List<String> protocols, List<String> cipherSuites)
{
}
