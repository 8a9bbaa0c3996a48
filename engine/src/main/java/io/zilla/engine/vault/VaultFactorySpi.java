/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.vault;

import io.zilla.engine.EngineConfiguration;

/**
 * A vault type, found with {@link java.util.ServiceLoader}: each vault module lists its implementation in
 * {@code META-INF/services/io.zilla.engine.vault.VaultFactorySpi}.
 */
public interface VaultFactorySpi
{
    /** The {@code type} that zilla.yaml names under {@code vaults}, such as {@code filesystem}. */
    String type();

    /** Called once per engine. */
    Vault create(EngineConfiguration configuration);
}
