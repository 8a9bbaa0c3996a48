/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.filesystem.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

import io.zilla.engine.config.OptionsConfig;

/**
 * A filesystem server's options.
 *
 * @param location       the directory served, absolute and normalized (a relative {@code location} resolved against
 *                       the zilla.yaml's directory); it need not exist when the config is read: a missing directory
 *                       serves nothing (404), and serves its files once it is made
 * @param followSymlinks {@code symlinks: follow}: symbolic links are followed wherever they lead; {@code ignore}
 *                       (the default): a path with a symbolic link in it is not found
 */
public record FilesystemOptionsConfig(Path location, boolean followSymlinks) implements OptionsConfig
{
    /** Binds {@code location} as zilla.yaml gives it, relative to {@code directory} when it is not absolute. */
    public static FilesystemOptionsConfig of(Path directory, String location, boolean followSymlinks)
    {
        if (location.indexOf('\0') >= 0)
        {
            throw new IllegalArgumentException("'" + location.replace("\0", "\\0") + "' is not a directory name");
        }
        // Zilla's own form is a directory name with a trailing slash (web/) or a file: URI
        final String name = location.startsWith("file:") ? fileUri(location) : location;
        try
        {
            return new FilesystemOptionsConfig(directory.resolve(name).toAbsolutePath().normalize(), followSymlinks);
        }
        catch (InvalidPathException ex)
        {
            throw new IllegalArgumentException("'" + location + "' is not a directory name: " + ex.getReason());
        }
    }

    private static String fileUri(String location)
    {
        try
        {
            final URI uri = new URI(location);
            if (uri.isOpaque())
            {
                // file:web/, relative
                return uri.getSchemeSpecificPart();
            }
            if (uri.getAuthority() != null && !uri.getAuthority().isEmpty())
            {
                throw new IllegalArgumentException("'" + location + "': only a local file: URI such as file:/srv/web/ "
                    + "or file:web/ is served");
            }
            return uri.getPath();
        }
        catch (URISyntaxException ex)
        {
            throw new IllegalArgumentException("'" + location + "' is not a file: URI: " + ex.getReason());
        }
    }
}
