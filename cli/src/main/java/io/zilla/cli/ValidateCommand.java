/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;

import io.zilla.engine.Engine;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code zilla validate -c zilla.yaml}: checks the file as start would, against the schemas of the binding types
 * installed on the class path, without starting anything.
 */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    versionProvider = ZillaVersion.class,
    description = "Checks a zilla.yaml without starting it: prints every error, or that it is valid.")
final class ValidateCommand implements Callable<Integer>
{
    // start reads its config as namespace 1; the id only matters to a running engine
    private static final int NAMESPACE_ID = 1;

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "the zilla.yaml to check")
    Path config;

    private final UnaryOperator<String> environment;

    ValidateCommand()
    {
        this(System::getenv);
    }

    /** Where {@code ${{env.NAME}}} looks: the process environment, or a test's own. */
    ValidateCommand(UnaryOperator<String> environment)
    {
        this.environment = environment;
    }

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try
        {
            final Engine.Builder types = Engine.builder();
            final ConfigReader reader = new ConfigReader(types.bindingTypes(), types.vaultTypes(), environment);
            reader.read(config.toString(), ConfigFiles.read(config), NAMESPACE_ID);
        }
        catch (IOException ex)
        {
            err.println("zilla: cannot read " + config + ": " + ConfigFiles.describe(ex));
            return ExitStatus.FAILED;
        }
        catch (ConfigException ex)
        {
            ConfigFiles.printErrors(err, ex);
            return ExitStatus.FAILED;
        }
        out.println(config + " is valid");
        return ExitStatus.OK;
    }
}
