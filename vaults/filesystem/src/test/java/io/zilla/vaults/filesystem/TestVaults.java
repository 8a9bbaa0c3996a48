/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem;

import java.nio.file.Path;
import java.util.Map;

import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.vault.VaultHandler;

/** Reads a zilla.yaml written next to the test's stores, as the engine would, and attaches its first vault. */
final class TestVaults
{
    private TestVaults()
    {
    }

    static ConfigReader reader()
    {
        return new ConfigReader(Map.of(), Map.of(FileSystemVault.TYPE, new FileSystemVault()),
            name -> "PASSWORD".equals(name) ? TestStores.PASSWORD : "WRONG_PASSWORD".equals(name) ? "not-the-password" : null);
    }

    static NamespaceConfig read(Path directory, String yaml)
    {
        return reader().read(directory.resolve("zilla.yaml").toString(), yaml, 1);
    }

    /** A zilla.yaml of the namespace with one filesystem vault and its options: the first option on line 6. */
    static String filesystem(String namespace, String vault, String options)
    {
        return """
            name: %s
            vaults:
              %s:
                type: filesystem
                options:
            """.formatted(namespace, vault) + options.indent(6);
    }

    static VaultHandler attach(Path directory, String yaml)
    {
        return new FileSystemVault().attach(read(directory, yaml).vaults().get(0));
    }
}
