/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

import picocli.CommandLine.IVersionProvider;

/**
 * The version of zilla: the Maven project version, filtered into version.properties at build time (so it is right
 * in tests that run from target/classes as well as in the jar).
 */
final class ZillaVersion implements IVersionProvider
{
    private static final String RESOURCE = "version.properties";

    /** The version, such as {@code 0.1.0-SNAPSHOT}. */
    static String version()
    {
        try (InputStream in = ZillaVersion.class.getResourceAsStream(RESOURCE))
        {
            String version = null;
            if (in != null)
            {
                final Properties properties = new Properties();
                properties.load(in);
                version = properties.getProperty("version");
            }
            if (version == null)
            {
                // a build that skipped the resource still has the jar manifest's Implementation-Version
                version = ZillaVersion.class.getPackage().getImplementationVersion();
            }
            return version != null ? version : "unknown";
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** What {@code zilla version} prints: {@code zilla 0.1.0-SNAPSHOT}. */
    static String line()
    {
        return "zilla " + version();
    }

    @Override
    public String[] getVersion()
    {
        return new String[] {line()};
    }
}
