/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.store;

import java.security.cert.X509Certificate;

/**
 * A certificate read from a store.
 *
 * @param alias       its name in the store
 * @param certificate the certificate
 */
public record CertificateEntry(String alias, X509Certificate certificate)
{
}
