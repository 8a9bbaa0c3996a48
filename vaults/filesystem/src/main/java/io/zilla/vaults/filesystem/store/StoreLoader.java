/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.store;

import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.util.List;

import io.zilla.engine.config.ConfigValueException;
import io.zilla.vaults.filesystem.config.StoreConfig;
import io.zilla.vaults.filesystem.config.StoreType;

/**
 * Loads one store of a filesystem vault into memory. Every failure is a {@link ConfigValueException} at the option
 * at fault ({@code keys.store}, {@code keys.type}, {@code keys.password}), whose message names the file and never the
 * password.
 */
public final class StoreLoader
{
    private StoreLoader()
    {
    }

    /** The private keys and their chains: at least one. */
    public static StoreContents keys(StoreConfig config)
    {
        requireExists(config);
        final List<KeyEntry> keys = config.type() == StoreType.PEM
            ? new PemReader(config).keys()
            : new KeyStoreReader(config).keys();
        if (keys.isEmpty())
        {
            throw new ConfigValueException(config.section() + ".store", "'" + config.store() + "' holds no private key");
        }
        try
        {
            return StoreContents.ofKeys(config.section(), keys);
        }
        catch (GeneralSecurityException ex)
        {
            throw new ConfigValueException(config.section() + ".store", "cannot keep the keys of '" + config.store() + "': "
                + ex.getMessage(), ex);
        }
    }

    /** The certificates: at least one. */
    public static StoreContents certificates(StoreConfig config)
    {
        requireExists(config);
        final List<CertificateEntry> certificates = config.type() == StoreType.PEM
            ? new PemReader(config).certificates()
            : new KeyStoreReader(config).certificates();
        if (certificates.isEmpty())
        {
            throw new ConfigValueException(config.section() + ".store", "'" + config.store() + "' holds no certificate");
        }
        try
        {
            return StoreContents.ofCertificates(config.section(), certificates);
        }
        catch (GeneralSecurityException ex)
        {
            throw new ConfigValueException(config.section() + ".store", "cannot keep the certificates of '" + config.store()
                + "': " + ex.getMessage(), ex);
        }
    }

    private static void requireExists(StoreConfig config)
    {
        if (!Files.exists(config.store()))
        {
            throw new ConfigValueException(config.section() + ".store", "'" + config.store() + "' does not exist");
        }
        if (!Files.isReadable(config.store()))
        {
            throw new ConfigValueException(config.section() + ".store", "'" + config.store() + "' is not readable");
        }
        if (config.type() != StoreType.PEM && Files.isDirectory(config.store()))
        {
            throw new ConfigValueException(config.section() + ".store", "'" + config.store()
                + "' is a directory: a " + config.type().yamlName() + " store is a file");
        }
    }
}
