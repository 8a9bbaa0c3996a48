/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import io.zilla.specs.flyweight.plugin.generator.FlyweightGenerator;
import io.zilla.specs.flyweight.plugin.generator.JavaFile;
import io.zilla.specs.flyweight.plugin.idl.Ast;
import io.zilla.specs.flyweight.plugin.idl.IdlException;
import io.zilla.specs.flyweight.plugin.idl.Position;
import io.zilla.specs.flyweight.plugin.model.FieldModel;
import io.zilla.specs.flyweight.plugin.model.Model;
import io.zilla.specs.flyweight.plugin.model.Resolver;
import io.zilla.specs.flyweight.plugin.model.StructModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdlSourcesTest
{
    private static final String CORE = """
        scope core
        {
            option byteorder native;

            scope stream
            {
                struct Extension
                {
                    int32 typeId;
                }
            }
        }
        """;

    private static final String KAFKA = """
        scope kafka
        {
            struct KafkaBeginEx extends core::stream::Extension [0x01]
            {
                string16 topic;
                core::stream::Extension inner;
            }
        }
        """;

    @TempDir
    Path temp;

    @Test
    void shouldParseIdlFilesBelowDirectoryInNameOrder() throws IOException
    {
        final Path sources = temp.resolve("idl");
        write(sources.resolve("b.idl"), "scope b\n{\n}\n");
        write(sources.resolve("a.idl"), "scope a\n{\n}\n");
        write(sources.resolve("sub").resolve("c.idl"), "scope c\n{\n}\n");
        write(sources.resolve("notes.txt"), "not IDL: scope {");

        final List<Ast.File> files = IdlSources.parseDirectory(sources);

        assertEquals(List.of("a.idl", "b.idl", Path.of("sub", "c.idl").toString()), files.stream().map(Ast.File::name).toList());
        assertEquals(List.of("a", "b", "c"), files.stream().map(file -> file.scopes().get(0).name()).toList());
    }

    @Test
    void shouldParseNothingWhenDirectoryIsMissing() throws IOException
    {
        assertTrue(IdlSources.parseDirectory(temp.resolve("missing")).isEmpty());
    }

    @Test
    void shouldNameFileRelativeToDirectoryInSyntaxErrors() throws IOException
    {
        final Path sources = temp.resolve("idl");
        write(sources.resolve("sub").resolve("bad.idl"), "scope s\n{\n    struct\n}\n");

        final IdlException ex = assertThrows(IdlException.class, () -> IdlSources.parseDirectory(sources));

        final String name = Path.of("sub", "bad.idl").toString();
        assertEquals(name + ":4:1: expected a struct name but found '}'", ex.getMessage());
        assertEquals(new Position(name, 4, 1), ex.position());
    }

    @Test
    void shouldParseIdlPublishedInJar() throws IOException
    {
        final Path jar = jar("core.jar", Map.of(
            "META-INF/zilla/idl/core.idl", CORE,
            "META-INF/zilla/idl/nested/more.idl", "scope more\n{\n}\n",
            "META-INF/zilla/idl/readme.txt", "not IDL",
            "META-INF/other/ignored.idl", "not parsed: scope {",
            "io/zilla/specs/core/types/stream/ExtensionFW.class", "not a class"));

        final List<Ast.File> files = IdlSources.parseClasspath(List.of(jar));

        assertEquals(List.of("core.jar!META-INF/zilla/idl/core.idl", "core.jar!META-INF/zilla/idl/nested/more.idl"),
            files.stream().map(Ast.File::name).sorted().toList());
        final Ast.File core = files.stream().filter(file -> file.name().endsWith("core.idl")).findFirst().orElseThrow();
        assertEquals("core", core.scopes().get(0).name());
        assertEquals("stream", core.scopes().get(0).scopes().get(0).name());
    }

    @Test
    void shouldNameJarEntryInSyntaxErrors() throws IOException
    {
        final Path jar = jar("broken.jar", Map.of("META-INF/zilla/idl/bad.idl", "scope s\n{\n    enum E { }\n}\n"));

        final IdlException ex = assertThrows(IdlException.class, () -> IdlSources.parseClasspath(List.of(jar)));

        assertEquals(new Position("broken.jar!META-INF/zilla/idl/bad.idl", 3, 14), ex.position());
        assertTrue(ex.getMessage().startsWith("broken.jar!META-INF/zilla/idl/bad.idl:3:14: "), ex.getMessage());
    }

    @Test
    void shouldParseIdlPublishedInClassFolder() throws IOException
    {
        final Path classes = temp.resolve("classes");
        write(classes.resolve("META-INF/zilla/idl/core.idl"), CORE);
        write(classes.resolve("io/zilla/Other.class"), "not a class");

        final List<Ast.File> files = IdlSources.parseClasspath(List.of(classes));

        assertEquals(1, files.size());
        assertEquals("classes!core.idl", files.get(0).name());
        assertEquals("core", files.get(0).scopes().get(0).name());
    }

    @Test
    void shouldSkipClasspathElementsWithoutIdl() throws IOException
    {
        final Path noIdl = temp.resolve("plain-classes");
        Files.createDirectories(noIdl.resolve("io/zilla"));
        final Path pom = temp.resolve("dependency.pom");
        write(pom, "<project/>");
        final Path plainJar = jar("plain.jar", Map.of("io/zilla/A.class", "not a class"));

        final List<Ast.File> files = IdlSources.parseClasspath(List.of(noIdl, pom, plainJar, temp.resolve("missing.jar")));

        assertTrue(files.isEmpty());
    }

    @Test
    void shouldResolveOwnIdlAgainstTypeOfDependencyJar() throws IOException
    {
        final Path sources = temp.resolve("src/main/idl");
        write(sources.resolve("kafka.idl"), KAFKA);
        final Path jar = jar("specs-core.jar", Map.of("META-INF/zilla/idl/core.idl", CORE));

        final Model model = Resolver.resolve(IdlSources.parseDirectory(sources), IdlSources.parseClasspath(List.of(jar)),
            Resolver.DEFAULT_PACKAGE_PREFIX);

        final StructModel extension = assertInstanceOf(StructModel.class, model.find("core::stream::Extension"));
        final StructModel beginEx = assertInstanceOf(StructModel.class, model.find("kafka::KafkaBeginEx"));
        assertSame(extension, beginEx.supertype());
        assertSame(extension, beginEx.fields().get(2).type());
        assertTrue(beginEx.fields().get(0).nativeOrder(), "the inherited field keeps core's native order");
        assertFalse(beginEx.fields().get(1).nativeOrder());
        assertFalse(extension.isGenerated());
        assertEquals(List.of(beginEx), model.generated());

        final List<JavaFile> generated = FlyweightGenerator.generate(model);
        assertEquals(List.of("io/zilla/specs/kafka/types/KafkaBeginExFW.java"), generated.stream().map(JavaFile::path).toList());
        assertTrue(generated.get(0).content().contains("io.zilla.specs.core.types.stream.ExtensionFW"),
            generated.get(0).content());
    }

    @Test
    void shouldResolveOwnIdlAgainstTypeOfDependencyClassFolder() throws IOException
    {
        final Path sources = temp.resolve("src/main/idl");
        write(sources.resolve("kafka.idl"), KAFKA);
        final Path classes = temp.resolve("core/target/classes");
        write(classes.resolve("META-INF/zilla/idl/core.idl"), CORE);

        final Model model = Resolver.resolve(IdlSources.parseDirectory(sources), IdlSources.parseClasspath(List.of(classes)),
            Resolver.DEFAULT_PACKAGE_PREFIX);

        assertSame(model.find("core::stream::Extension"), ((StructModel) model.find("kafka::KafkaBeginEx")).supertype());
        assertEquals(1, model.generated().size());
    }

    @Test
    void shouldResolveTheCoreSpec() throws IOException
    {
        final Model model = Resolver.resolve(IdlSources.parseDirectory(Path.of("..", "core", "src", "main", "idl")), List.of(),
            Resolver.DEFAULT_PACKAGE_PREFIX);

        final StructModel reset = assertInstanceOf(StructModel.class, model.find("core::stream::Reset"));
        assertEquals(0x40000001L, reset.typeId());
        assertEquals("io.zilla.specs.core.types.stream", reset.scope().packageName());
        assertTrue(reset.scope().nativeOrder());
        assertSame(model.find("core::stream::Frame"), reset.supertype());
        assertEquals("originId", reset.fields().get(0).name());
        assertEquals("extension", reset.fields().get(reset.fields().size() - 1).name());
        final StructModel data = assertInstanceOf(StructModel.class, model.find("core::stream::Data"));
        final FieldModel payload = data.fields().stream().filter(field -> field.name().equals("payload"))
            .findFirst().orElseThrow();
        assertEquals("length", payload.sizeField().name());
    }

    private Path jar(String name, Map<String, String> entries) throws IOException
    {
        final Path jar = temp.resolve(name);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)))
        {
            for (Map.Entry<String, String> entry : entries.entrySet())
            {
                out.putNextEntry(new JarEntry(entry.getKey()));
                out.write(entry.getValue().getBytes(UTF_8));
                out.closeEntry();
            }
        }
        return jar;
    }

    private static void write(Path path, String text) throws IOException
    {
        Files.createDirectories(path.getParent());
        try (OutputStream out = Files.newOutputStream(path))
        {
            out.write(text.getBytes(UTF_8));
        }
    }
}
