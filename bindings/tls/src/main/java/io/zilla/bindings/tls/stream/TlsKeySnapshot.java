/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509KeyManager;

/**
 * The keys of one server context, read out of the vault's key manager once, when the binding attaches.
 * <p>
 * The vault's PKIX key manager names a key by a new alias on every handshake ({@code <counter>.<store>.<alias>}) and
 * reads it out of its store again under that alias: with a PKCS12 store, every handshake decrypted the private key
 * (PBKDF2, measured at about 5 ms of CPU per handshake on either provider, see docs/benchmarks.md "tls"), and no
 * cache keyed by alias (netty's OpenSslCachingX509KeyManagerFactory) ever hit. A server context serves one key alias
 * (TlsServerKeys), so nothing is lost by SunX509's simpler choice: it holds the keys it was given and names them as
 * their store does.
 */
final class TlsKeySnapshot
{
    private static final List<String> KEY_TYPES = List.of("EC", "RSA", "RSASSA-PSS", "EdDSA", "Ed25519", "Ed448", "DSA");

    private TlsKeySnapshot()
    {
    }

    /** The same keys and chains behind a SunX509 key manager; {@code keys} itself when it holds none it can read. */
    static KeyManagerFactory of(KeyManagerFactory keys) throws GeneralSecurityException
    {
        if (keys == null)
        {
            return null;
        }
        final KeyStore store = KeyStore.getInstance("PKCS12");
        try
        {
            store.load(null, null);
        }
        catch (IOException ex)
        {
            throw new KeyStoreException(ex);
        }
        // the store lives in memory only, as long as it takes SunX509 to read it back
        final char[] password = new char[16];
        final SecureRandom random = new SecureRandom();
        for (int i = 0; i < password.length; i++)
        {
            password[i] = (char) ('a' + random.nextInt(26));
        }
        for (KeyManager manager : keys.getKeyManagers())
        {
            if (manager instanceof X509KeyManager x509)
            {
                for (String type : KEY_TYPES)
                {
                    final String[] aliases = x509.getServerAliases(type, null);
                    for (String alias : aliases != null ? aliases : new String[0])
                    {
                        final String name = storeAlias(alias);
                        final PrivateKey key = x509.getPrivateKey(alias);
                        final X509Certificate[] chain = x509.getCertificateChain(alias);
                        if (!store.containsAlias(name) && key != null && chain != null && chain.length > 0)
                        {
                            store.setKeyEntry(name, key, password, chain);
                        }
                    }
                }
            }
        }
        if (store.size() == 0)
        {
            return keys;
        }
        final KeyManagerFactory snapshot = KeyManagerFactory.getInstance("SunX509");
        snapshot.init(store, password);
        return snapshot;
    }

    // PKIX's aliases are <counter>.<builder index>.<alias in the store>
    private static String storeAlias(String alias)
    {
        final int first = alias.indexOf('.');
        final int second = first != -1 ? alias.indexOf('.', first + 1) : -1;
        return second != -1 && alias.substring(0, first).chars().allMatch(Character::isDigit) ? alias.substring(second + 1)
            : alias;
    }
}
