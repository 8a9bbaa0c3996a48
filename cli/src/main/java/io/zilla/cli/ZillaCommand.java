/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code zilla} itself: alone, it prints the usage with the list of commands. */
@Command(
    name = "zilla",
    mixinStandardHelpOptions = true,
    versionProvider = ZillaVersion.class,
    description = "zilla: a multi-protocol Kafka proxy that runs the bindings of a zilla.yaml.",
    commandListHeading = "%nCommands:%n")
final class ZillaCommand implements Runnable
{
    @Spec
    CommandSpec spec;

    @Override
    public void run()
    {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
