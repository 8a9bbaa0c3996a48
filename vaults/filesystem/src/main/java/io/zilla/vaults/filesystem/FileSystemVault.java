/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem;

import java.net.URL;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.engine.config.ComponentConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.engine.vault.Vault;
import io.zilla.engine.vault.VaultHandler;
import io.zilla.vaults.filesystem.config.FileSystemOptionsConfig;
import io.zilla.vaults.filesystem.config.StoreConfig;
import io.zilla.vaults.filesystem.config.StoreType;
import io.zilla.vaults.filesystem.store.StoreLoader;

/**
 * The filesystem vault: {@code keys}, {@code trust} and {@code signers}, each a PKCS12, JKS or PEM store on disk, loaded
 * into memory while zilla.yaml is read (docs/vaults/filesystem.md).
 */
public final class FileSystemVault implements Vault
{
    public static final String TYPE = "filesystem";

    @Override
    public String type()
    {
        return TYPE;
    }

    @Override
    public URL schema()
    {
        return FileSystemVault.class.getResource("schema/filesystem.schema.json");
    }

    @Override
    public OptionsConfig options(JsonNode options, Path directory)
    {
        final StoreConfig keys = store("keys", options.get("keys"), directory);
        final StoreConfig trust = store("trust", options.get("trust"), directory);
        final StoreConfig signers = store("signers", options.get("signers"), directory);
        return new FileSystemOptionsConfig(
            keys != null ? StoreLoader.keys(keys) : null,
            trust != null ? StoreLoader.certificates(trust) : null,
            signers != null ? StoreLoader.certificates(signers) : null);
    }

    @Override
    public VaultHandler attach(ComponentConfig vault)
    {
        final FileSystemOptionsConfig options = vault.options() instanceof FileSystemOptionsConfig bound
            ? bound
            : new FileSystemOptionsConfig(null, null, null);
        return new FileSystemVaultHandler(vault.name(), options);
    }

    private static StoreConfig store(String section, JsonNode store, Path directory)
    {
        if (store == null)
        {
            return null;
        }
        final JsonNode password = store.get("password");
        return new StoreConfig(section, directory.resolve(store.path("store").textValue()).normalize(),
            StoreType.of(store.path("type").textValue()), password != null ? password.textValue() : null);
    }
}
