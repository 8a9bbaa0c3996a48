/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import picocli.CommandLine;

/** The entry point of {@code bin/zilla}: runs one command and exits with its status. */
public final class ZillaMain
{
    private ZillaMain()
    {
    }

    public static void main(String[] args)
    {
        System.exit(commandLine(ShutdownHooks.JVM).execute(args));
    }

    /**
     * The {@code zilla} command with every subcommand. Tests run it in-process with their own out and err writers
     * and their own {@link ShutdownHooks}, so that they can stop a started engine as SIGTERM would.
     */
    static CommandLine commandLine(ShutdownHooks hooks)
    {
        return new CommandLine(new ZillaCommand())
            .addSubcommand(new StartCommand(hooks))
            .addSubcommand(new ValidateCommand())
            .addSubcommand(new MetricsCommand())
            .addSubcommand(new VersionCommand())
            .addSubcommand(new CommandLine.HelpCommand());
    }
}
