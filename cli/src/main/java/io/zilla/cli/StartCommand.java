/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.internal.event.EngineEvent;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code zilla start -c zilla.yaml}: reads the file, starts the engine, and runs until SIGTERM or SIGINT. The
 * engine is closed by the main thread, never by the shutdown hook itself: the hook only asks for the stop, waits
 * for it, and ends the JVM with the status of that stop.
 */
@Command(
    name = "start",
    mixinStandardHelpOptions = true,
    versionProvider = ZillaVersion.class,
    description = "Starts zilla with the bindings of a zilla.yaml; runs until SIGTERM or SIGINT (Ctrl-C).")
final class StartCommand implements Callable<Integer>
{
    // the longest a stop may take before the shutdown hook gives up on it and exits anyway
    private static final long STOP_TIMEOUT_SECONDS = 30;

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
        description = "the zilla.yaml to run; zilla.yaml in the working directory by default, as Zilla's")
    Path config = Path.of("zilla.yaml");

    @Option(names = {"-w", "--workers"}, paramLabel = "N",
        description = "the number of workers (zilla.engine.workers); one per core by default")
    Integer workers;

    @Option(names = {"-P", "--property"}, paramLabel = "key=value",
        description = {"an engine property; repeat it for more, as in", "-P zilla.engine.directory=DIR"})
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = {"--health-port"}, paramLabel = "PORT",
        description = {"serve /health/live and /health/ready on PORT (zilla.engine.health.port),",
            "for Kubernetes probes; off by default"})
    Integer healthPort;

    @Option(names = {"-v", "--verbose"}, description = "print each binding started")
    boolean verbose;

    @Option(names = {"-e", "--exception-traces"},
        description = {"print exception traces: of a failed start, and of each event that reports one",
            "(a binding that failed on a stream, a failed channel), on stderr"})
    boolean exceptionTraces;

    private final ShutdownHooks hooks;

    StartCommand(ShutdownHooks hooks)
    {
        this.hooks = hooks;
    }

    @Override
    public Integer call() throws InterruptedException
    {
        return hooks.runUntilStopped(this::run, STOP_TIMEOUT_SECONDS,
            () -> System.err.println("zilla: the engine did not stop within " + STOP_TIMEOUT_SECONDS + " seconds"));
    }

    private int run(CountDownLatch stopRequested) throws InterruptedException
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();

        final String text;
        try
        {
            text = ConfigFiles.read(config);
        }
        catch (IOException ex)
        {
            err.println("zilla: cannot read " + config + ": " + ConfigFiles.describe(ex));
            return ExitStatus.FAILED;
        }

        final Engine engine;
        try
        {
            final Engine.Builder builder = Engine.builder()
                .configuration(configuration())
                .config(config.toString(), text)
                .watch(config);
            if (exceptionTraces)
            {
                builder.eventListener(event -> printFault(err, event));
            }
            engine = builder.build();
            engine.start();
        }
        catch (ConfigException ex)
        {
            ConfigFiles.printErrors(err, ex);
            return ExitStatus.FAILED;
        }
        catch (RuntimeException ex)
        {
            // a port in use, an engine directory held by another zilla or not writable, a bad property: one clear line
            err.println(startFailure(ex));
            if (exceptionTraces)
            {
                ex.printStackTrace(err);
            }
            err.flush();
            return ExitStatus.FAILED;
        }

        try
        {
            started(out, engine);
            stopRequested.await();
        }
        finally
        {
            engine.close();
        }
        out.println("stopped zilla");
        out.flush();
        return ExitStatus.OK;
    }

    private static void printFault(PrintWriter err, EngineEvent event)
    {
        if (event.isFault())
        {
            err.println(event.format());
            err.flush();
        }
    }

    private EngineConfiguration configuration()
    {
        final Properties values = new Properties();
        values.putAll(properties);
        if (exceptionTraces)
        {
            values.setProperty(EngineConfiguration.EXCEPTION_TRACES, "true");
        }
        if (workers != null)
        {
            values.setProperty(EngineConfiguration.WORKERS, workers.toString());
        }
        if (healthPort != null)
        {
            values.setProperty(EngineConfiguration.HEALTH_PORT, healthPort.toString());
        }
        return new EngineConfiguration(values);
    }

    private void started(PrintWriter out, Engine engine)
    {
        if (verbose)
        {
            for (BindingConfig binding : engine.config().bindings())
            {
                out.printf("started binding %s (%s %s)%n", binding.name(), binding.type(), binding.kind().yamlName());
            }
        }
        for (String exporter : engine.exporterDescriptions())
        {
            out.printf("metrics: %s%n", exporter);
        }
        engine.healthDescription().ifPresent(health -> out.printf("health: %s%n", health));
        final int count = engine.configuration().workers();
        final String names = engine.config().bindings().stream().map(BindingConfig::name).collect(Collectors.joining(", "));
        out.printf("started zilla with %d worker%s: %s%n", count, count == 1 ? "" : "s", names);
        out.flush();
    }

    static String startFailure(RuntimeException ex)
    {
        final String prefix = "zilla could not start";
        String message = ex.getMessage() != null ? ex.getMessage() : ex.getClass().getSimpleName();
        if (ex instanceof UncheckedIOException && ex.getCause() != null && ex.getCause().getMessage() != null
            && !message.contains(ex.getCause().getMessage()))
        {
            message += ": " + ex.getCause().getMessage();
        }
        return message.startsWith(prefix) ? message : prefix + ": " + message;
    }
}
