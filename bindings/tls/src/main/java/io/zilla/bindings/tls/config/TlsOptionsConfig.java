/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.config;

import java.util.List;

import io.zilla.engine.config.OptionsConfig;

/**
 * The {@code options} of a tls binding, as zilla.yaml gives them: nothing here is defaulted yet, so that the server
 * and client kinds can apply Zilla's defaults (trustcacerts true without trust, mutual required with trust) where
 * they use them. Kind proxy reads none of them.
 *
 * @param version      TLSv1.2 or TLSv1.3, or null for the JDK's choice
 * @param keys         vault aliases of the keys to present; empty when not given
 * @param trust        vault aliases of the certificates to trust; empty when not given
 * @param signers      vault aliases of the CA certificates whose signed client certificates a server accepts
 * @param trustcacerts whether to trust the JVM's CA certificates too, or null when not given
 * @param sni          server: the names it answers for; client: the name it asks for
 * @param alpn         the application protocols to offer or accept
 * @param mutual       whether a server asks for a client certificate, or null when not given
 */
public record TlsOptionsConfig(String version, List<String> keys, List<String> trust, List<String> signers,
    Boolean trustcacerts, List<String> sni, List<String> alpn, TlsMutual mutual) implements OptionsConfig
{
    public TlsOptionsConfig
    {
        keys = keys != null ? List.copyOf(keys) : List.of();
        trust = trust != null ? List.copyOf(trust) : List.of();
        signers = signers != null ? List.copyOf(signers) : List.of();
        sni = sni != null ? List.copyOf(sni) : List.of();
        alpn = alpn != null ? List.copyOf(alpn) : List.of();
    }
}
