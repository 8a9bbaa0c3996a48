/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.config;

import io.zilla.engine.config.OptionsConfig;
import io.zilla.vaults.filesystem.store.StoreContents;

/**
 * A filesystem vault's options, with its stores already loaded: each is null when zilla.yaml does not name it.
 *
 * @param keys    private keys with their certificate chains
 * @param trust   trusted certificates
 * @param signers the CAs of accepted client certificates
 */
public record FileSystemOptionsConfig(StoreContents keys, StoreContents trust, StoreContents signers) implements OptionsConfig
{
}
