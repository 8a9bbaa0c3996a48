/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ZillaCommandTest
{
    @Test
    void shouldPrintUsageWithEveryCommandWhenRunAlone()
    {
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run());

        assertTrue(zilla.out().startsWith("Usage: zilla"), zilla.out());
        for (String command : new String[] {"start", "validate", "metrics", "version", "demo", "help"})
        {
            assertTrue(zilla.out().contains("\n  " + command + " "), command + " missing from: " + zilla.out());
        }
        assertEquals("", zilla.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"start", "validate", "metrics", "version", "demo"})
    void shouldPrintHelpOfEveryCommand(String command)
    {
        for (String help : new String[] {"--help", "-h"})
        {
            final Zilla zilla = new Zilla();

            assertEquals(0, zilla.run(command, help));

            assertTrue(zilla.out().startsWith("Usage: zilla " + command), zilla.out());
            assertTrue(zilla.out().contains("--help"), zilla.out());
        }
    }

    @Test
    void shouldPrintHelpOfCommandThroughHelpCommand()
    {
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("help", "metrics"));

        assertTrue(zilla.out().startsWith("Usage: zilla metrics"), zilla.out());
    }

    @Test
    void shouldRejectUnknownCommandWithUsageStatus()
    {
        final Zilla zilla = new Zilla();

        assertEquals(2, zilla.run("stop"));

        assertTrue(zilla.err().contains("Unmatched argument at index 0: 'stop'"), zilla.err());
    }

    @Test
    void shouldRejectUnknownOptionWithUsageStatus()
    {
        final Zilla zilla = new Zilla();

        assertEquals(2, zilla.run("metrics", "--bogus"));

        assertTrue(zilla.err().contains("Unknown option: '--bogus'"), zilla.err());
        assertTrue(zilla.err().contains("Usage: zilla metrics"), zilla.err());
    }
}
