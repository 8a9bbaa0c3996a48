/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.store;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.zilla.engine.config.ConfigValueException;
import io.zilla.vaults.filesystem.config.StoreConfig;

/**
 * Reads a PKCS12 or JKS file with the JDK's KeyStore of that type. The JDK reads either format under either type
 * ({@code keystore.type.compat}), so a store's type names the loader, not a check of the file.
 */
final class KeyStoreReader
{
    private final StoreConfig config;

    KeyStoreReader(StoreConfig config)
    {
        this.config = config;
    }

    List<KeyEntry> keys()
    {
        final KeyStore store = load();
        final List<KeyEntry> keys = new ArrayList<>();
        try
        {
            for (String alias : Collections.list(store.aliases()))
            {
                if (store.isKeyEntry(alias))
                {
                    keys.add(new KeyEntry(alias, privateKey(store, alias), chain(store, alias)));
                }
            }
        }
        catch (GeneralSecurityException ex)
        {
            throw new ConfigValueException(config.section() + ".store", "cannot read " + describe() + ": " + ex.getMessage(), ex);
        }
        return keys;
    }

    List<CertificateEntry> certificates()
    {
        final KeyStore store = load();
        final List<CertificateEntry> certificates = new ArrayList<>();
        try
        {
            for (String alias : Collections.list(store.aliases()))
            {
                // a key entry's certificate is trusted too, as keytool -importcert would have it
                final Certificate certificate = store.getCertificate(alias);
                if (certificate instanceof X509Certificate x509)
                {
                    certificates.add(new CertificateEntry(alias, x509));
                }
            }
        }
        catch (GeneralSecurityException ex)
        {
            throw new ConfigValueException(config.section() + ".store", "cannot read " + describe() + ": " + ex.getMessage(), ex);
        }
        if (certificates.isEmpty() && config.password() == null)
        {
            // without a password the JDK skips the certificates that the store encrypts, as keytool's are
            throw new ConfigValueException(config.section(), describe() + " holds no certificate that can be read without a"
                + " password: give its password");
        }
        return certificates;
    }

    private KeyStore load()
    {
        try (InputStream input = Files.newInputStream(config.store()))
        {
            final KeyStore store = KeyStore.getInstance(config.type().keyStoreType());
            store.load(input, config.passwordChars());
            return store;
        }
        catch (IOException ex)
        {
            if (ex.getCause() instanceof UnrecoverableKeyException)
            {
                throw wrongPassword(ex);
            }
            // the JDK says no more than that the bytes are not what it expects (PKCS12's DER, JKS's entries), and a JKS
            // cut short only with an EOFException without a message
            final String reason = ex.getMessage() != null ? ex.getMessage() : ex instanceof EOFException
                ? "it ends before its last entry"
                : ex.getClass().getSimpleName();
            throw new ConfigValueException(config.section() + ".type", describe() + " is not a " + config.type().yamlName()
                + " store (" + reason + ")", ex);
        }
        catch (GeneralSecurityException ex)
        {
            throw new ConfigValueException(config.section() + ".store", "cannot read " + describe() + ": " + ex.getMessage(), ex);
        }
    }

    private PrivateKey privateKey(KeyStore store, String alias) throws GeneralSecurityException
    {
        try
        {
            // a null password would not open the key of a store that has none: PKCS12 then uses the empty one
            final char[] password = config.password() != null ? config.passwordChars() : new char[0];
            final Key key = store.getKey(alias, password);
            if (!(key instanceof PrivateKey))
            {
                throw new ConfigValueException(config.section() + ".store", describe() + ": entry '" + alias
                    + "' is not a private key");
            }
            return (PrivateKey) key;
        }
        catch (UnrecoverableKeyException ex)
        {
            if (config.password() == null)
            {
                throw new ConfigValueException(config.section(), describe() + " needs a password: its private key '" + alias
                    + "' is encrypted", ex);
            }
            throw new ConfigValueException(config.section() + ".password", "cannot decrypt the private key '" + alias + "' of "
                + describe() + ": wrong password", ex);
        }
    }

    private List<X509Certificate> chain(KeyStore store, String alias) throws GeneralSecurityException
    {
        final List<X509Certificate> chain = new ArrayList<>();
        final Certificate[] certificates = store.getCertificateChain(alias);
        for (Certificate certificate : certificates != null ? certificates : new Certificate[0])
        {
            chain.add((X509Certificate) certificate);
        }
        if (chain.isEmpty())
        {
            throw new ConfigValueException(config.section() + ".store", describe() + ": private key '" + alias
                + "' has no certificate");
        }
        return chain;
    }

    private ConfigValueException wrongPassword(IOException ex)
    {
        final String message = config.password() == null
            ? describe() + " needs a password"
            : "wrong password for " + describe();
        return new ConfigValueException(config.section() + (config.password() == null ? "" : ".password"), message, ex);
    }

    private String describe()
    {
        return "'" + config.store() + "'";
    }
}
