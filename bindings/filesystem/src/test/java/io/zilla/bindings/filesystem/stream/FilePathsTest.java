/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.filesystem.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a requested path may lead inside a location, over a real directory with links in and out. */
class FilePathsTest
{
    @TempDir
    Path root;

    private Path web;

    @BeforeEach
    void files() throws IOException
    {
        root = root.toRealPath();
        web = Files.createDirectories(root.resolve("web"));
        Files.writeString(web.resolve("index.html"), "index");
        Files.createDirectories(web.resolve("a/b"));
        Files.writeString(web.resolve("a/b/c.txt"), "c");
        Files.writeString(root.resolve("secret.txt"), "secret");
        Files.createSymbolicLink(web.resolve("out.txt"), root.resolve("secret.txt"));
        Files.createSymbolicLink(web.resolve("in.html"), web.resolve("index.html"));
        Files.createSymbolicLink(web.resolve("up"), root);
    }

    @Test
    void shouldResolveFilesInside()
    {
        assertEquals(web.resolve("index.html"), FilePaths.resolve(web, "index.html", false));
        assertEquals(web.resolve("a/b/c.txt"), FilePaths.resolve(web, "a/b/c.txt", false));
        assertEquals(web.resolve("a/b/c.txt"), FilePaths.resolve(web, "a/./b//c.txt", false));
        assertEquals(web.resolve("a"), FilePaths.resolve(web, "a", false));
    }

    @Test
    void shouldRefuseEscapes()
    {
        for (String path : new String[] {"", "/etc/passwd", "..", "../secret.txt", "a/../../secret.txt", "a/..", "a/b/../..",
            "index.html\0.txt", "\0", "..\\secret.txt", "missing.html", ".", "./", "out.txt", "up/secret.txt", "in.html"})
        {
            assertNull(FilePaths.resolve(web, path, false), path);
        }
    }

    @Test
    void shouldFollowLinksWhenTold()
    {
        assertEquals(root.resolve("secret.txt"), FilePaths.resolve(web, "out.txt", true));
        assertEquals(root.resolve("secret.txt"), FilePaths.resolve(web, "up/secret.txt", true));
        assertEquals(web.resolve("index.html"), FilePaths.resolve(web, "in.html", true));
        assertNull(FilePaths.resolve(web, "../secret.txt", true));
        assertNull(FilePaths.resolve(web, "/etc/passwd", true));
    }

    @Test
    void shouldTypeByExtension()
    {
        assertEquals("text/html; charset=utf-8", ContentTypes.of("a/index.HTML"));
        assertEquals("application/wasm", ContentTypes.of("app.wasm"));
        assertEquals("image/svg+xml", ContentTypes.of("logo.svg"));
        assertEquals("application/json", ContentTypes.of("app.js.map"));
        assertEquals(ContentTypes.DEFAULT, ContentTypes.of(".profile"));
        assertEquals(ContentTypes.DEFAULT, ContentTypes.of("dir.d/README"));
        assertEquals(ContentTypes.DEFAULT, ContentTypes.of("file."));
    }
}
