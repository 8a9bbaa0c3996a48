/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateCommandTest
{
    @TempDir
    Path temp;

    @Test
    void shouldReportValidConfig()
    {
        final Path config = ConfigResources.copy(ConfigResources.ECHO, temp);
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("validate", "-c", config.toString()));

        assertEquals(config + " is valid\n", zilla.out());
        assertEquals("", zilla.err());
    }

    @Test
    void shouldReportTcpEchoExampleValid()
    {
        // tests run in the module directory: the example is the file the README starts
        final Path example = Path.of("..", "examples", "tcp.echo", "zilla.yaml");
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("validate", "-c", example.toString()), zilla.err());

        assertEquals(example + " is valid\n", zilla.out());
    }

    @Test
    void shouldPrintEveryErrorOfInvalidConfig()
    {
        final Path config = ConfigResources.copy(ConfigResources.INVALID, temp);
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("validate", "--config", config.toString()));

        final List<String> errors = zilla.err().lines().toList();
        assertTrue(errors.size() >= 2, zilla.err());
        errors.forEach(error -> assertTrue(error.matches(Pattern.quote(config.toString()) + ":\\d+:\\d+ .+"), error));
        assertTrue(zilla.err().contains("bindings.north_echo_server.kind"), zilla.err());
        assertTrue(zilla.err().contains("bindings.south_echo_server.exit"), zilla.err());
        assertEquals("", zilla.out());
    }

    @Test
    void shouldReportAVaultStoreThatCannotBeLoaded() throws Exception
    {
        final Path config = temp.resolve("zilla.yaml");
        Files.writeString(config, """
            name: example
            vaults:
              server:
                type: filesystem
                options:
                  keys:
                    store: tls/localhost.p12
            """);
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("validate", "-c", config.toString()));

        assertEquals(config + ":7:16 vaults.server.options.keys.store: '" + temp.resolve("tls/localhost.p12")
            + "' does not exist\n", zilla.err());
    }

    @Test
    void shouldFailForMissingFile()
    {
        final Path config = temp.resolve("missing.yaml");
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("validate", "-c", config.toString()));

        assertEquals("zilla: cannot read " + config + ": no such file\n", zilla.err());
    }

    @Test
    void shouldRequireConfig()
    {
        final Zilla zilla = new Zilla();

        assertEquals(2, zilla.run("validate"));

        assertTrue(zilla.err().startsWith("Missing required option: '--config=FILE'"), zilla.err());
    }
}
