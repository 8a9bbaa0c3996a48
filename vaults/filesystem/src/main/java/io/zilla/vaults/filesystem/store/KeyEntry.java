/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.store;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A private key read from a store, with its certificate chain (its own certificate first).
 *
 * @param alias its name in the store
 * @param key   the private key
 * @param chain its certificate, then the CAs that issued it, if the store has them
 */
public record KeyEntry(String alias, PrivateKey key, List<X509Certificate> chain)
{
    public KeyEntry
    {
        chain = List.copyOf(chain);
    }

    @Override
    public String toString()
    {
        return "key " + alias + " for " + chain.get(0).getSubjectX500Principal();
    }
}
