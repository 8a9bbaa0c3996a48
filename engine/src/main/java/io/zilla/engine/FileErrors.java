/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** Why a file could not be used, in a few words, for messages that already name the file. */
public final class FileErrors
{
    private FileErrors()
    {
    }

    /**
     * {@code no such file}, {@code permission denied}, {@code No space left on device}...: the exceptions of
     * java.nio.file carry the file's name as their message, which the caller's message says already.
     */
    public static String describe(IOException ex)
    {
        final String description;
        if (ex instanceof NoSuchFileException)
        {
            description = "no such file";
        }
        else if (ex instanceof AccessDeniedException)
        {
            description = "permission denied";
        }
        else if (ex instanceof FileAlreadyExistsException)
        {
            description = "it already exists";
        }
        else if (ex instanceof MalformedInputException)
        {
            description = "not UTF-8 text";
        }
        else if (ex instanceof FileSystemException fileSystem && fileSystem.getReason() != null)
        {
            description = fileSystem.getReason();
        }
        else
        {
            description = ex.getMessage() != null ? ex.getMessage() : ex.getClass().getSimpleName();
        }
        return description;
    }
}
