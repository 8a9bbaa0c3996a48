/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import io.zilla.specs.flyweight.plugin.idl.Ast;
import io.zilla.specs.flyweight.plugin.idl.IdlParser;

/**
 * Finds and parses IDL files: a module's own, below a source directory, and those its dependencies publish
 * under {@value #PUBLISHED} in their jars or class folders, so that one spec can refer to another's types.
 */
public final class IdlSources
{
    /** Where a spec module's jar carries its IDL files. */
    public static final String PUBLISHED = "META-INF/zilla/idl/";

    private IdlSources()
    {
    }

    /** Parses every {@code .idl} file below {@code directory}, in name order; none when it does not exist. */
    public static List<Ast.File> parseDirectory(Path directory) throws IOException
    {
        final List<Ast.File> files = new ArrayList<>();
        if (Files.isDirectory(directory))
        {
            try (Stream<Path> paths = Files.walk(directory))
            {
                for (Path path : paths.filter(p -> p.toString().endsWith(".idl")).sorted().toList())
                {
                    files.add(IdlParser.parse(directory.relativize(path).toString(), Files.readString(path, UTF_8)));
                }
            }
        }
        return files;
    }

    /** Parses the IDL files published by each classpath element (a jar or a class folder). */
    public static List<Ast.File> parseClasspath(List<Path> elements) throws IOException
    {
        final List<Ast.File> files = new ArrayList<>();
        for (Path element : elements)
        {
            if (Files.isDirectory(element))
            {
                for (Ast.File file : parseDirectory(element.resolve(PUBLISHED)))
                {
                    files.add(new Ast.File(element.getFileName() + "!" + file.name(), file.scopes()));
                }
            }
            else if (Files.isRegularFile(element) && element.toString().endsWith(".jar"))
            {
                files.addAll(parseJar(element));
            }
        }
        return files;
    }

    private static List<Ast.File> parseJar(Path jar) throws IOException
    {
        final List<Ast.File> files = new ArrayList<>();
        try (JarFile archive = new JarFile(jar.toFile()))
        {
            final Enumeration<JarEntry> entries = archive.entries();
            while (entries.hasMoreElements())
            {
                final JarEntry entry = entries.nextElement();
                if (entry.getName().startsWith(PUBLISHED) && entry.getName().endsWith(".idl"))
                {
                    try (InputStream input = archive.getInputStream(entry))
                    {
                        final String name = jar.getFileName() + "!" + entry.getName();
                        files.add(IdlParser.parse(name, new String(input.readAllBytes(), UTF_8)));
                    }
                }
            }
        }
        return files;
    }
}
