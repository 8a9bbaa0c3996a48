/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.store;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What one store of a vault holds once loaded: an in-memory KeyStore of key entries (keys) or certificate entries
 * (trust, signers). The user's password is not kept: the keys are protected in memory by a random password of their
 * own, so that a key's password in the file (which may differ from the store's) no longer matters.
 */
public final class StoreContents
{
    private final String section;
    private final KeyStore entries;
    private final char[] entryPassword;
    private final List<String> aliases;

    private StoreContents(String section, KeyStore entries, char[] entryPassword, List<String> aliases)
    {
        this.section = section;
        this.entries = entries;
        this.entryPassword = entryPassword;
        this.aliases = List.copyOf(aliases);
    }

    static StoreContents ofKeys(String section, List<KeyEntry> keys) throws GeneralSecurityException
    {
        final char[] password = randomPassword();
        final KeyStore store = emptyStore();
        final List<String> aliases = new ArrayList<>();
        for (KeyEntry key : keys)
        {
            store.setKeyEntry(key.alias(), key.key(), password, key.chain().toArray(new X509Certificate[0]));
            aliases.add(key.alias());
        }
        return new StoreContents(section, store, password, aliases);
    }

    static StoreContents ofCertificates(String section, List<CertificateEntry> certificates) throws GeneralSecurityException
    {
        final KeyStore store = emptyStore();
        final List<String> aliases = new ArrayList<>();
        for (CertificateEntry certificate : certificates)
        {
            store.setCertificateEntry(certificate.alias(), certificate.certificate());
            aliases.add(certificate.alias());
        }
        return new StoreContents(section, store, null, aliases);
    }

    /** {@code keys}, {@code trust} or {@code signers}. */
    public String section()
    {
        return section;
    }

    /** The aliases, in the store's order. */
    public List<String> aliases()
    {
        return aliases;
    }

    /** The password of every key entry of {@link #select}'s stores. */
    public char[] entryPassword()
    {
        return entryPassword != null ? entryPassword.clone() : null;
    }

    /** The certificate of an alias: a key's own certificate, or a trusted certificate. */
    public X509Certificate certificate(String alias)
    {
        try
        {
            return (X509Certificate) entries.getCertificate(alias);
        }
        catch (GeneralSecurityException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * A KeyStore with only the entries named, or all of them when none is named.
     *
     * @throws IllegalArgumentException naming the first alias that this store does not hold
     */
    public KeyStore select(String vault, List<String> selected)
    {
        if (selected.isEmpty())
        {
            return entries;
        }
        try
        {
            final KeyStore subset = emptyStore();
            for (String alias : selected)
            {
                if (!aliases.contains(alias))
                {
                    throw new IllegalArgumentException("vault '" + vault + "' has no " + section + " entry '" + alias
                        + "' (" + section + ": " + String.join(", ", aliases) + ")");
                }
                subset.setEntry(alias, entries.getEntry(alias, protection()), protection());
            }
            return subset;
        }
        catch (GeneralSecurityException ex)
        {
            throw new IllegalStateException("cannot copy the entries of an in-memory store", ex);
        }
    }

    private KeyStore.ProtectionParameter protection()
    {
        return entryPassword != null ? new KeyStore.PasswordProtection(entryPassword) : null;
    }

    private static KeyStore emptyStore() throws GeneralSecurityException
    {
        try
        {
            final KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            return store;
        }
        catch (IOException ex)
        {
            throw new GeneralSecurityException("cannot create an empty PKCS12 store", ex);
        }
    }

    private static char[] randomPassword()
    {
        final byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        return Base64.getEncoder().encodeToString(random).toCharArray();
    }

    @Override
    public String toString()
    {
        return section + " " + aliases;
    }
}
