/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import picocli.CommandLine;

/** The entry point of {@code bin/zilla}: runs one command and exits with its status. */
public final class ZillaMain
{
    private static final String SLF4J_PROVIDER = "slf4j.provider";
    private static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";

    private ZillaMain()
    {
    }

    public static void main(String[] args)
    {
        chooseLogging();
        System.exit(commandLine(ShutdownHooks.JVM).execute(args));
    }

    /**
     * lib/ holds two slf4j backends: slf4j-simple for this JVM (warnings to stderr, see simplelogger.properties) and
     * log4j2 for the Kafka broker that {@code zilla demo} runs in a child JVM (EmbeddedKafka leaves slf4j-simple off
     * the child's class path). Naming the provider spares the user slf4j's "multiple providers" warning.
     */
    static void chooseLogging()
    {
        if (System.getProperty(SLF4J_PROVIDER) == null)
        {
            System.setProperty(SLF4J_PROVIDER, "org.slf4j.simple.SimpleServiceProvider");
            // slf4j would otherwise report, at its INFO level, that it loads the provider it was told to load
            System.setProperty(SLF4J_VERBOSITY, System.getProperty(SLF4J_VERBOSITY, "WARN"));
        }
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
            .addSubcommand(new DemoCommand(hooks))
            .addSubcommand(new CommandLine.HelpCommand());
    }
}
