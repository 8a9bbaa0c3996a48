/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

import io.zilla.bindings.tls.config.TlsOptionsConfig;
import io.zilla.bindings.tls.engine.TlsClientContext;
import io.zilla.bindings.tls.engine.TlsClientSettings;
import io.zilla.bindings.tls.engine.TlsEngineProvider;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.vault.VaultHandler;

/**
 * The client context of one tls client binding, with the server name and protocols it asks for. Immutable, shared
 * by the binding's workers.
 *
 * @param context    makes each connection's engine
 * @param serverName {@code options.sni}'s first name, or null
 * @param alpn       {@code options.alpn}
 */
record TlsClientContexts(TlsClientContext context, String serverName, List<String> alpn)
{
    /**
     * Makes the context of a tls client binding, when it attaches: trust is the vault's {@code trust} entries, and
     * the JVM's CA certificates when {@code trustcacerts} (by default, when no {@code trust} is given), the keys are
     * {@code options.keys} (for servers that ask for a client certificate).
     */
    static TlsClientContexts of(TlsEngineProvider provider, BindingConfig binding, VaultHandler vault)
        throws GeneralSecurityException
    {
        final TlsOptionsConfig options = binding.options() instanceof TlsOptionsConfig tls ? tls
            : new TlsOptionsConfig(null, null, null, null, null, null, null, null);
        if (vault == null && (!options.trust().isEmpty() || !options.keys().isEmpty()))
        {
            throw new IllegalArgumentException("bindings." + binding.name() + ": trust and keys need a vault");
        }
        final TrustManagerFactory vaultTrust = options.trust().isEmpty() ? null : vault.trust(options.trust());
        final boolean trustcacerts = options.trustcacerts() != null ? options.trustcacerts() : options.trust().isEmpty();
        final KeyManagerFactory keys = options.keys().isEmpty() ? null : vault.keys(options.keys());
        final List<String> protocols = options.version() != null ? List.of(options.version()) : List.of();
        final TlsClientContext context = provider.newClientContext(
            new TlsClientSettings(keys, trust(vaultTrust, trustcacerts), protocols, List.of()));
        return new TlsClientContexts(context, options.sni().isEmpty() ? null : options.sni().get(0), options.alpn());
    }

    // the vault's certificates, with the JVM's CA certificates added when asked
    private static TrustManagerFactory trust(TrustManagerFactory vaultTrust, boolean trustcacerts)
        throws GeneralSecurityException
    {
        final TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        if (vaultTrust == null && trustcacerts)
        {
            factory.init((KeyStore) null);
        }
        else
        {
            final KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            try
            {
                store.load(null, null);
            }
            catch (IOException ex)
            {
                throw new GeneralSecurityException(ex);
            }
            int index = 0;
            if (trustcacerts)
            {
                final TrustManagerFactory jvm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                jvm.init((KeyStore) null);
                index = add(store, jvm, index);
            }
            if (vaultTrust != null)
            {
                add(store, vaultTrust, index);
            }
            factory.init(store);
        }
        return factory;
    }

    private static int add(KeyStore store, TrustManagerFactory factory, int index) throws GeneralSecurityException
    {
        int next = index;
        for (TrustManager manager : factory.getTrustManagers())
        {
            if (manager instanceof X509TrustManager x509)
            {
                for (X509Certificate certificate : x509.getAcceptedIssuers())
                {
                    store.setCertificateEntry("trusted-" + next++, certificate);
                }
            }
        }
        return next;
    }
}
