/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The test zilla.yaml files, copied out of the class path to where a command can read them by name. */
final class ConfigResources
{
    /** Echo only: valid with the bindings on the class path, and starts without a network. */
    static final String ECHO = "echo.yaml";

    /** Two mistakes a schema cannot catch: a kind the type does not have, an exit to no binding. */
    static final String INVALID = "invalid.yaml";

    private ConfigResources()
    {
    }

    static Path copy(String resource, Path directory)
    {
        final Path file = directory.resolve(resource);
        try (InputStream in = ConfigResources.class.getResourceAsStream(resource))
        {
            if (in == null)
            {
                throw new IllegalArgumentException("no resource " + resource);
            }
            Files.copy(in, file);
            return file;
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
