/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.vault;

import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The keys and certificates of one vault, in the form an {@link javax.net.ssl.SSLContext} takes. Each call builds
 * new factories: call it when a binding attaches, never per stream. An empty list of aliases means every entry;
 * an alias the vault does not hold is refused with {@link IllegalArgumentException} naming it.
 */
public interface VaultHandler
{
    /**
     * The private keys, each with its certificate chain, that identify this side of a TLS handshake.
     *
     * @return null when the vault holds no keys
     */
    KeyManagerFactory keys(List<String> aliases);

    /**
     * The certificates trusted to identify the peer (the CAs a client trusts for a server).
     *
     * @return null when the vault holds no trusted certificates
     */
    TrustManagerFactory trust(List<String> aliases);

    /**
     * The CAs whose signed client certificates a server accepts for mutual TLS; their subjects are the issuers a
     * server names when it asks a client for its certificate.
     *
     * @return null when the vault holds no signers
     */
    TrustManagerFactory signers(List<String> aliases);

    /**
     * The alias of each private key, in the store's order, to the DNS names its certificate is for (the subject's
     * CN, then each subjectAltName of type DNS, without duplicates): a TLS server chooses a key by SNI with it.
     */
    Map<String, List<String>> keyNames();
}
