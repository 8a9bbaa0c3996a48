/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.zilla.engine.config.TestVault.FileOptions;
import org.junit.jupiter.api.Test;

/** Vaults in zilla.yaml: their type checked, their options validated by the type's schema and bound by the type. */
class VaultConfigTest
{
    private final ConfigReader reader = new ConfigReader(TestBindings.installed(new TestBindings.Echo()),
        Map.of("secrets", new TestVault("secrets")), name -> name.equals("STORE") ? "server.p12" : null);

    @Test
    void shouldBindOptionsWithPathsFromTheDirectoryOfTheFile()
    {
        final Path location = Path.of("config", "zilla.yaml").toAbsolutePath();

        final NamespaceConfig namespace = reader.read(location.toString(), """
            name: example
            vaults:
              server:
                type: secrets
                options:
                  file: ${{env.STORE}}
            """, 1);

        assertEquals(List.of(new ComponentConfig("server", "secrets", new FileOptions(location.resolveSibling("server.p12")))),
            namespace.vaults());
    }

    @Test
    void shouldResolveAgainstTheWorkingDirectoryWhenTheLocationHasNone()
    {
        final NamespaceConfig namespace = reader.read("zilla.yaml", """
            name: example
            vaults:
              server:
                type: secrets
                options:
                  file: server.p12
            """, 1);

        assertEquals(new FileOptions(Path.of("server.p12").toAbsolutePath()), namespace.vaults().get(0).options());
    }

    @Test
    void shouldReportARefusedOptionAtItsPlace()
    {
        assertErrors("""
            name: example
            vaults:
              server:
                type: secrets
                options:
                  file: missing
            """,
            "zilla.yaml:6:13 vaults.server.options.file: '" + Path.of("missing").toAbsolutePath() + "' does not exist");
    }

    @Test
    void shouldReportAnUnknownVaultType()
    {
        assertErrors("""
            name: example
            vaults:
              server:
                type: secret
            """,
            "zilla.yaml:4:11 vaults.server.type: unknown vault type 'secret' (installed: secrets)");
    }

    @Test
    void shouldCheckOptionsWithTheTypesSchema()
    {
        assertErrors("""
            name: example
            vaults:
              server:
                type: secrets
                options:
                  file: server.p12
                  type: jks
                  store: server.p12
            """,
            "zilla.yaml:7:13 vaults.server.options.type: must be one of: pkcs12, pem",
            "zilla.yaml:8:7 vaults.server.options: unknown property 'store'");
    }

    @Test
    void shouldReportAVaultWhenNoVaultTypeIsInstalled()
    {
        final ConfigReader withoutVaults = new ConfigReader(TestBindings.installed(new TestBindings.Echo()), name -> null);

        final ConfigException ex = assertThrows(ConfigException.class, () -> withoutVaults.read("zilla.yaml", """
            name: example
            vaults:
              server:
                type: secrets
            """, 1));

        assertEquals(List.of("zilla.yaml:4:11 vaults.server.type: unknown vault type 'secrets' (installed: none)"),
            ex.errors().stream().map(ConfigError::toString).toList());
    }

    private void assertErrors(String text, String... expected)
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", text, 1));

        assertEquals(List.of(expected), ex.errors().stream().map(ConfigError::toString).toList());
    }
}
