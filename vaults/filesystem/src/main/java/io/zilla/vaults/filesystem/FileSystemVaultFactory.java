/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.vault.Vault;
import io.zilla.engine.vault.VaultFactorySpi;

/** Registers the {@code filesystem} vault type with the engine. */
public final class FileSystemVaultFactory implements VaultFactorySpi
{
    @Override
    public String type()
    {
        return FileSystemVault.TYPE;
    }

    @Override
    public Vault create(EngineConfiguration configuration)
    {
        return new FileSystemVault();
    }
}
