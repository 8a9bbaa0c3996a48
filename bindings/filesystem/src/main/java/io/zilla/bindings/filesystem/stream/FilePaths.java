/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.filesystem.stream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Where a requested path leads inside a location, or nowhere. Every check runs before the file is opened, on the
 * reader thread (they touch the disk). A path is refused (null: the stream is answered as not found) when:
 * <ul>
 * <li>it is empty, holds a NUL or a backslash, or is absolute;</li>
 * <li>any of its segments is {@code ..} (even one that would stay inside: there is no honest use for it);</li>
 * <li>it names nothing, or something that its real path puts outside the location (a symbolic link out);</li>
 * <li>with symbolic links ignored, any component below the location is a symbolic link.</li>
 * </ul>
 * The path is taken as it comes: a mapping decoded it (percent-decoding once), so a {@code %2e%2e} that reaches here
 * is a file named so, not a parent.
 */
public final class FilePaths
{
    private FilePaths()
    {
    }

    /**
     * @param location       the location's real path (absolute, symbolic links resolved)
     * @param path           the requested path, relative to the location
     * @param followSymlinks whether symbolic links are followed wherever they lead
     * @return the file to open (a real path when following links), or null when the path is refused
     */
    public static Path resolve(Path location, String path, boolean followSymlinks)
    {
        if (!acceptable(path))
        {
            return null;
        }
        final Path relative;
        try
        {
            relative = Path.of(path);
        }
        catch (InvalidPathException ex)
        {
            return null;
        }
        final Path candidate = location.resolve(relative).normalize();
        if (relative.isAbsolute() || !candidate.startsWith(location) || candidate.equals(location))
        {
            return null;
        }
        try
        {
            if (followSymlinks)
            {
                return candidate.toRealPath();
            }
            for (Path component = candidate; !component.equals(location); component = component.getParent())
            {
                if (Files.isSymbolicLink(component))
                {
                    return null;
                }
            }
            // no link below the location: its real path is itself, unless the tree changed meanwhile
            final Path real = candidate.toRealPath();
            return real.equals(candidate) ? candidate : null;
        }
        catch (IOException | SecurityException ex)
        {
            return null;
        }
    }

    /** The checks that need no disk: what a path may hold at all. */
    static boolean acceptable(String path)
    {
        if (path == null || path.isEmpty() || path.charAt(0) == '/' || path.indexOf('\0') >= 0 || path.indexOf('\\') >= 0)
        {
            return false;
        }
        int start = 0;
        while (start <= path.length())
        {
            int end = path.indexOf('/', start);
            if (end < 0)
            {
                end = path.length();
            }
            if (end - start == 2 && path.charAt(start) == '.' && path.charAt(start + 1) == '.')
            {
                return false;
            }
            start = end + 1;
        }
        return true;
    }
}
