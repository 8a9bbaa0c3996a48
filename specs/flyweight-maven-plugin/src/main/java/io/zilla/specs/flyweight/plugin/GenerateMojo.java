/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.model.Resource;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Generates Java flyweights from {@code src/main/idl} into {@code target/generated-sources/flyweight}, and
 * publishes the IDL files in the jar so that other specs can refer to their types.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES,
    requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public final class GenerateMojo extends AbstractGenerateMojo
{
    @Parameter(defaultValue = "${project.basedir}/src/main/idl", required = true)
    private File sourceDirectory;

    @Parameter(defaultValue = "${project.build.directory}/generated-sources/flyweight", required = true)
    private File outputDirectory;

    @Override
    protected File sourceDirectory()
    {
        return sourceDirectory;
    }

    @Override
    protected File outputDirectory()
    {
        return outputDirectory;
    }

    @Override
    protected List<String> classpath() throws MojoExecutionException
    {
        try
        {
            return project.getCompileClasspathElements();
        }
        catch (DependencyResolutionRequiredException ex)
        {
            throw new MojoExecutionException("Cannot resolve the compile classpath", ex);
        }
    }

    @Override
    protected String ownOutput()
    {
        return project.getBuild().getOutputDirectory();
    }

    @Override
    protected void register(Path generated)
    {
        project.addCompileSourceRoot(generated.toString());
        final Resource idl = new Resource();
        idl.setDirectory(sourceDirectory.getPath());
        idl.setTargetPath(IdlSources.PUBLISHED);
        idl.addInclude("**/*.idl");
        project.addResource(idl);
    }
}
