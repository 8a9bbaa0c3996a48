/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code zilla version}: the same line as {@code zilla --version}. */
@Command(
    name = "version",
    mixinStandardHelpOptions = true,
    versionProvider = ZillaVersion.class,
    description = "Prints the version of zilla.")
final class VersionCommand implements Runnable
{
    @Spec
    CommandSpec spec;

    @Override
    public void run()
    {
        spec.commandLine().getOut().println(ZillaVersion.line());
        spec.commandLine().getOut().flush();
    }
}
