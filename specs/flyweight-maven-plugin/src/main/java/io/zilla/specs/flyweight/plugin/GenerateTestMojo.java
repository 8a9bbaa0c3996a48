/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/** Generates Java flyweights from {@code src/test/idl} into {@code target/generated-test-sources/flyweight}. */
@Mojo(name = "generate-test", defaultPhase = LifecyclePhase.GENERATE_TEST_SOURCES,
    requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
public final class GenerateTestMojo extends AbstractGenerateMojo
{
    @Parameter(defaultValue = "${project.basedir}/src/test/idl", required = true)
    private File sourceDirectory;

    @Parameter(defaultValue = "${project.build.directory}/generated-test-sources/flyweight", required = true)
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
            return project.getTestClasspathElements();
        }
        catch (DependencyResolutionRequiredException ex)
        {
            throw new MojoExecutionException("Cannot resolve the test classpath", ex);
        }
    }

    @Override
    protected String ownOutput()
    {
        return project.getBuild().getTestOutputDirectory();
    }

    @Override
    protected void register(Path generated)
    {
        project.addTestCompileSourceRoot(generated.toString());
    }
}
