/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VersionCommandTest
{
    // the Maven project version, filtered into version.properties
    private static final String VERSION_LINE = "zilla \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R";

    @Test
    void shouldPrintVersion()
    {
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("version"));

        assertTrue(zilla.out().matches(VERSION_LINE), zilla.out());
        assertEquals("", zilla.err());
    }

    @Test
    void shouldPrintSameVersionForVersionOptionOfEveryCommand()
    {
        final Zilla version = new Zilla();
        version.run("version");

        for (String[] args : new String[][] {{"--version"}, {"-V"}, {"start", "--version"}, {"metrics", "-V"}})
        {
            final Zilla zilla = new Zilla();

            assertEquals(0, zilla.run(args));

            assertEquals(version.out(), zilla.out());
        }
    }

    @Test
    void shouldRejectArguments()
    {
        final Zilla zilla = new Zilla();

        assertEquals(2, zilla.run("version", "extra"));

        assertTrue(zilla.err().contains("Unmatched argument"), zilla.err());
    }
}
