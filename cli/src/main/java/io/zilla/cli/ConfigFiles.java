/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import io.zilla.engine.FileErrors;
import io.zilla.engine.config.ConfigException;

/** Reading a zilla.yaml and reporting what is wrong with it, the same way for start and validate. */
final class ConfigFiles
{
    private ConfigFiles()
    {
    }

    static String read(Path file) throws IOException
    {
        return Files.readString(file);
    }

    /** Why a file could not be read, in a few words. */
    static String describe(IOException ex)
    {
        return FileErrors.describe(ex);
    }

    /** Every error, one a line, as {@code zilla.yaml:7:13 bindings.x.options.port: message}. */
    static void printErrors(PrintWriter err, ConfigException ex)
    {
        ex.errors().forEach(err::println);
        err.flush();
    }
}
