/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.zilla.specs.flyweight.plugin.generator.FlyweightGenerator;
import io.zilla.specs.flyweight.plugin.generator.JavaFile;
import io.zilla.specs.flyweight.plugin.idl.Ast;
import io.zilla.specs.flyweight.plugin.idl.IdlException;
import io.zilla.specs.flyweight.plugin.model.IdlErrors;
import io.zilla.specs.flyweight.plugin.model.Model;
import io.zilla.specs.flyweight.plugin.model.Resolver;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/** Parses a module's IDL files with those of its dependencies, and writes the flyweights of its own types. */
abstract class AbstractGenerateMojo extends AbstractMojo
{
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    protected MavenProject project;

    /** The Java package that a top-level scope {@code s} generates into is {@code <packagePrefix>.s.types}. */
    @Parameter(property = "flyweight.packagePrefix", defaultValue = Resolver.DEFAULT_PACKAGE_PREFIX)
    protected String packagePrefix;

    @Parameter(property = "flyweight.skip", defaultValue = "false")
    protected boolean skip;

    protected abstract File sourceDirectory();

    protected abstract File outputDirectory();

    /** The classpath whose published IDL files this module's may refer to, minus the module's own output. */
    protected abstract List<String> classpath() throws MojoExecutionException;

    protected abstract String ownOutput();

    /** Registers the generated sources (and, for main sources, the IDL files to publish) with the build. */
    protected abstract void register(Path generated);

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException
    {
        if (skip)
        {
            getLog().info("Skipping flyweight generation");
            return;
        }
        final Path sources = sourceDirectory().toPath();
        final Path output = outputDirectory().toPath();
        try
        {
            final List<Ast.File> own = IdlSources.parseDirectory(sources);
            if (own.isEmpty())
            {
                getLog().info("No IDL files in " + sources);
                return;
            }
            final List<Path> elements = classpath().stream()
                .filter(element -> !element.equals(ownOutput()))
                .map(Path::of)
                .toList();
            final Model model = Resolver.resolve(own, IdlSources.parseClasspath(elements), packagePrefix);
            final List<JavaFile> files = FlyweightGenerator.generate(model);
            write(output, files);
            register(output);
            getLog().info("Generated " + files.size() + " flyweights from " + own.size() + " IDL files into " + output);
        }
        catch (IdlException ex)
        {
            throw new MojoFailureException(ex.getMessage(), ex);
        }
        catch (IdlErrors ex)
        {
            throw new MojoFailureException(ex.getMessage(), ex);
        }
        catch (IOException ex)
        {
            throw new MojoExecutionException("Cannot generate flyweights: " + ex.getMessage(), ex);
        }
    }

    private static void write(Path output, List<JavaFile> files) throws IOException
    {
        // start clean, so that a type removed from the IDL leaves no stale class behind
        if (Files.exists(output))
        {
            try (Stream<Path> paths = Files.walk(output))
            {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.delete(path);
                }
            }
        }
        for (JavaFile file : files)
        {
            final Path path = output.resolve(file.path());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.content(), UTF_8);
        }
    }
}
