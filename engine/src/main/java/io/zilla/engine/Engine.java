/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;
import io.zilla.engine.config.ComponentConfig;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.exporter.ExporterContext;
import io.zilla.engine.exporter.ExporterFactorySpi;
import io.zilla.engine.exporter.ExporterHandler;
import io.zilla.engine.internal.ConfigWatcher;
import io.zilla.engine.internal.EngineDirectory;
import io.zilla.engine.internal.Worker;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.internal.event.EventLog;
import io.zilla.engine.internal.health.HealthServer;
import io.zilla.engine.internal.health.Liveness;
import io.zilla.engine.internal.health.Readiness;
import io.zilla.engine.internal.stream.StreamIds;
import io.zilla.engine.metrics.EngineMetrics;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.vault.Vault;
import io.zilla.engine.vault.VaultFactorySpi;
import io.zilla.engine.vault.VaultHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A running zilla: the workers that run the bindings of one zilla.yaml. Build it, {@link #start()} it, and
 * {@link #close()} it to stop: streams are aborted, sockets closed, and the engine directory released.
 */
public final class Engine implements AutoCloseable
{
    private static final long EVENT_POLL_MILLIS = 50;

    private final EngineConfiguration configuration;
    private final Map<String, Binding> bindingsByType;
    private final Map<String, Vault> vaultsByType;
    private final Path configFile;
    private final UnaryOperator<String> environment;
    private final List<Consumer<EngineEvent>> eventListeners;
    private final List<Worker> workers = new ArrayList<>();
    private final Map<String, ExporterFactorySpi> exportersByType;
    private final List<ExporterHandler> exporters = new ArrayList<>();

    private EngineDirectory directory;
    private EventLog events;
    private Thread exporter;
    private volatile boolean exporting;
    private volatile NamespaceConfig config;
    private ConfigWatcher watcher;
    private final Readiness readiness = new Readiness();
    private HealthServer health;

    private Engine(EngineConfiguration configuration, NamespaceConfig config, Map<String, Binding> bindingsByType,
        Map<String, Vault> vaultsByType, List<Consumer<EngineEvent>> eventListeners, Path configFile,
        UnaryOperator<String> environment, Map<String, ExporterFactorySpi> exportersByType)
    {
        this.exportersByType = exportersByType;
        this.configuration = configuration;
        this.config = config;
        this.bindingsByType = bindingsByType;
        this.vaultsByType = vaultsByType;
        this.eventListeners = eventListeners;
        this.configFile = configFile;
        this.environment = environment;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public NamespaceConfig config()
    {
        return config;
    }

    public EngineConfiguration configuration()
    {
        return configuration;
    }

    /**
     * Starts the workers and attaches every binding on each of them; then writes the engine directory's {@code ready}
     * file, which {@link #close()} removes.
     *
     * @throws IllegalStateException when the engine directory is in use by another engine, a vault cannot attach,
     *         or a binding cannot attach (a port in use...); the engine is then closed again
     */
    public void start()
    {
        final int count = configuration.workers();
        if (count < 1 || count > StreamIds.MAX_WORKERS)
        {
            throw new IllegalArgumentException("workers must be 1 to " + StreamIds.MAX_WORKERS + ", not " + count);
        }
        final Map<String, VaultHandler> vaults = attachVaults(config);
        directory = EngineDirectory.lock(configuration.directory());
        final List<CompletableFuture<Void>> attached = new ArrayList<>();
        try
        {
            final AtomicCounter dropped = new AtomicCounter(new UnsafeBuffer(new byte[128]), 0);
            events = new EventLog(directory, configuration.eventsCapacity(), dropped);
            // the exporters first: the events thread hands every event to them too
            startMetricExporters();
            startExporter();
            for (int i = 0; i < count; i++)
            {
                final Worker worker = new Worker(i, configuration, directory, bindingsByType, events, readiness);
                workers.add(worker);
                attached.add(worker.start(config.bindings(), vaults));
            }
            // before the bindings are attached: a probe then hears "starting", not a refused connection
            startHealth();
            for (CompletableFuture<Void> future : attached)
            {
                future.get();
            }
        }
        catch (RuntimeException ex)
        {
            close();
            throw ex;
        }
        catch (ExecutionException ex)
        {
            close();
            throw new IllegalStateException("zilla could not start: " + ex.getCause().getMessage(), ex.getCause());
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while starting", ex);
        }
        if (configFile != null)
        {
            try
            {
                watcher = new ConfigWatcher(configFile, this::reload);
            }
            catch (IOException ex)
            {
                close();
                throw new UncheckedIOException("cannot watch " + configFile, ex);
            }
        }
        try
        {
            directory.ready();
        }
        catch (RuntimeException ex)
        {
            close();
            throw ex;
        }
        readiness.started();
    }

    /** What the health endpoint serves, for the start log; empty when it is off ({@code zilla.engine.health.port}). */
    public Optional<String> healthDescription()
    {
        final HealthServer server = health;
        return server != null ? Optional.of(server.describe()) : Optional.empty();
    }

    /** Serves /health on a thread of its own when {@code zilla.engine.health.port} is set; a port in use fails the start. */
    private void startHealth()
    {
        final int port = configuration.healthPort();
        if (port < 0)
        {
            return;
        }
        final Liveness liveness = new Liveness(workers.stream().map(Worker::pulse).toList(),
            configuration.healthStallMillis(), System::currentTimeMillis);
        final HealthServer server = new HealthServer(configuration.healthHost(), port, liveness, readiness);
        try
        {
            server.start();
        }
        catch (IOException ex)
        {
            server.close();
            throw new IllegalStateException("zilla could not start: health http://" + configuration.healthHost() + ":"
                + port + HealthServer.BOTH + ": " + ex.getMessage(), ex);
        }
        health = server;
    }

    /**
     * Runs another config: bindings that are gone or changed are detached (their connections closed), new or
     * changed ones attached, the others keep running.
     *
     * @throws IllegalStateException when a binding cannot attach (the others are running)
     */
    public synchronized void reconfigure(NamespaceConfig next)
    {
        final Map<String, VaultHandler> vaults = attachVaults(next);
        final List<CompletableFuture<Void>> done = new ArrayList<>();
        workers.forEach(worker -> done.add(worker.reconfigure(next.bindings(), vaults)));
        config = next;
        try
        {
            for (CompletableFuture<Void> future : done)
            {
                future.get();
            }
        }
        catch (ExecutionException ex)
        {
            throw new IllegalStateException(ex.getCause().getMessage(), ex.getCause());
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reconfiguring", ex);
        }
    }

    /** The watched file changed: run it if it is valid, and say so either way. */
    private void reload(String text)
    {
        try
        {
            final NamespaceConfig next = new ConfigReader(bindingsByType, vaultsByType, environment)
                .read(configFile.toString(), text, 1);
            if (!next.telemetry().exporters().equals(config.telemetry().exporters()))
            {
                // exporters run from the start (their ports bound then): a change would otherwise be ignored
                throw new IllegalStateException("telemetry.exporters changed: restart zilla to apply it");
            }
            reconfigure(next);
            engineEvent("engine.config.reloaded", configFile + ": " + next.bindings().size() + " bindings");
        }
        catch (ConfigException ex)
        {
            engineEvent("engine.config.rejected", configFile + ": " + ex.errors().stream().map(Object::toString)
                .collect(Collectors.joining("; ")));
        }
        catch (RuntimeException ex)
        {
            engineEvent("engine.config.rejected", configFile + ": " + ex.getMessage());
        }
    }

    /**
     * Each vault of the namespace, attached: its handler is shared by the workers. The vault's options were bound
     * (its stores loaded) when the config was read.
     *
     * @throws IllegalStateException naming the vault that cannot attach
     */
    private Map<String, VaultHandler> attachVaults(NamespaceConfig namespace)
    {
        final Map<String, VaultHandler> vaults = new LinkedHashMap<>();
        for (ComponentConfig vault : namespace.vaults())
        {
            final Vault type = vaultsByType.get(vault.type());
            if (type == null)
            {
                throw new IllegalStateException("vault '" + vault.name() + "': unknown vault type '" + vault.type() + "'");
            }
            try
            {
                vaults.put(vault.name(), type.attach(vault));
            }
            catch (RuntimeException ex)
            {
                throw new IllegalStateException("vault '" + vault.name() + "' could not attach: " + ex.getMessage(), ex);
            }
        }
        return Map.copyOf(vaults);
    }

    private void engineEvent(String name, String detail)
    {
        final EventLog log = events;
        if (log != null)
        {
            log.write(System.currentTimeMillis(), 0L, "engine", name, detail);
        }
    }

    @Override
    public void close()
    {
        // not ready from the moment the stop begins; the health endpoint says so until the workers have stopped
        readiness.stopping();
        if (watcher != null)
        {
            watcher.close();
            watcher = null;
        }
        if (directory != null)
        {
            // not ready from the moment the stop begins: health checks must not send traffic to a closing engine
            directory.notReady();
        }
        for (Worker worker : workers)
        {
            try
            {
                worker.stop();
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        workers.clear();
        if (health != null)
        {
            health.close();
            health = null;
        }
        stopExporter();
        exporters.forEach(ExporterHandler::close);
        exporters.clear();
        if (events != null)
        {
            events.close();
            events = null;
        }
        if (directory != null)
        {
            directory.close();
            directory = null;
        }
    }

    /** What each metrics exporter serves, one line each, for the start log. */
    public List<String> exporterDescriptions()
    {
        return exporters.stream().map(ExporterHandler::describe).toList();
    }

    /** Starts each metrics exporter on its own threads; one that cannot start (a port in use) fails the start. */
    private void startMetricExporters()
    {
        for (ComponentConfig exporterConfig : config.telemetry().exporters())
        {
            if (TelemetryConfig.STDOUT.equals(exporterConfig.type()))
            {
                continue;
            }
            final ExporterFactorySpi factory = exportersByType.get(exporterConfig.type());
            if (factory == null)
            {
                throw new IllegalStateException("zilla could not start: exporter " + exporterConfig.name() + " is of type '"
                    + exporterConfig.type() + "', which is not installed (installed: "
                    + String.join(", ", new TreeSet<>(exportersByType.keySet())) + ")");
            }
            final ExporterHandler handler = factory.create(new ExporterContext(exporterConfig, this::config,
                configuration.directory(), metrics()));
            try
            {
                handler.start();
            }
            catch (IOException ex)
            {
                handler.close();
                throw new IllegalStateException("zilla could not start: exporter " + handler.describe() + ": "
                    + ex.getMessage(), ex);
            }
            exporters.add(handler);
        }
    }

    private void startExporter()
    {
        final List<Consumer<EngineEvent>> consumers = new ArrayList<>(eventListeners);
        for (ComponentConfig exporterConfig : config.telemetry().exporters())
        {
            if (TelemetryConfig.STDOUT.equals(exporterConfig.type()))
            {
                consumers.add(event -> System.out.println(event.format()));
            }
        }
        for (ExporterHandler handler : exporters)
        {
            consumers.add(event -> onEvent(handler, event));
        }
        final Consumer<EngineEvent> fanOut = event -> consumers.forEach(consumer -> consumer.accept(event));
        exporting = true;
        exporter = new Thread(() ->
        {
            while (exporting)
            {
                if (events.read(fanOut) == 0)
                {
                    sleep(EVENT_POLL_MILLIS);
                }
            }
            events.read(fanOut);
        }, "zilla-events");
        exporter.setDaemon(true);
        exporter.start();
    }

    /** An exporter that throws on an event must not stop the events thread: the others still get every event. */
    private static void onEvent(ExporterHandler handler, EngineEvent event)
    {
        try
        {
            handler.onEvent(event);
        }
        catch (RuntimeException ex)
        {
            // ignored: the exporter loses this event, the others do not
        }
    }

    private void stopExporter()
    {
        exporting = false;
        if (exporter != null)
        {
            try
            {
                exporter.join();
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            exporter = null;
        }
    }

    private static void sleep(long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** How to make an engine: its settings, its zilla.yaml, and optionally more binding types and event listeners. */
    public static final class Builder
    {
        private EngineConfiguration configuration = new EngineConfiguration();
        private NamespaceConfig config;
        private String location;
        private String text;
        private Path file;
        private UnaryOperator<String> environment = System::getenv;
        private final List<BindingFactorySpi> factories = new ArrayList<>();
        private final List<VaultFactorySpi> vaultFactories = new ArrayList<>();
        private final List<ExporterFactorySpi> exporterFactories = new ArrayList<>();
        private final List<Consumer<EngineEvent>> eventListeners = new ArrayList<>();

        private Builder()
        {
        }

        public Builder configuration(EngineConfiguration configuration)
        {
            this.configuration = configuration;
            return this;
        }

        /** A zilla.yaml's text; {@code location} names it in errors. */
        public Builder config(String location, String text)
        {
            this.location = location;
            this.text = text;
            return this;
        }

        /** Watches the zilla.yaml file the config came from: a change is applied, or rejected with an event. */
        public Builder watch(Path file)
        {
            this.file = file;
            return this;
        }

        /** A config already read. */
        public Builder config(NamespaceConfig config)
        {
            this.config = config;
            return this;
        }

        /** Where {@code ${{env.NAME}}} looks; the process environment by default. */
        public Builder environment(UnaryOperator<String> environment)
        {
            this.environment = environment;
            return this;
        }

        /** A binding type besides those found with ServiceLoader (tests use it for the {@code test} binding). */
        public Builder binding(BindingFactorySpi factory)
        {
            factories.add(factory);
            return this;
        }

        /** A vault type besides those found with ServiceLoader. */
        public Builder vault(VaultFactorySpi factory)
        {
            vaultFactories.add(factory);
            return this;
        }

        /** An exporter type besides those found with ServiceLoader. */
        public Builder exporter(ExporterFactorySpi factory)
        {
            exporterFactories.add(factory);
            return this;
        }

        /** The metrics exporter types this engine knows: those on the class path, and those added. */
        public Map<String, ExporterFactorySpi> exporterTypes()
        {
            final Map<String, ExporterFactorySpi> exporters = new LinkedHashMap<>();
            ServiceLoader.load(ExporterFactorySpi.class).forEach(factory -> exporters.put(factory.type(), factory));
            exporterFactories.forEach(factory -> exporters.put(factory.type(), factory));
            return exporters;
        }

        /** Also hands every event to {@code listener}, on the event thread. */
        public Builder eventListener(Consumer<EngineEvent> listener)
        {
            eventListeners.add(listener);
            return this;
        }

        /** The binding types this engine knows: those on the class path, and those added. */
        public Map<String, Binding> bindingTypes()
        {
            final Map<String, Binding> bindings = new LinkedHashMap<>();
            final List<BindingFactorySpi> all = new ArrayList<>();
            ServiceLoader.load(BindingFactorySpi.class).forEach(all::add);
            all.addAll(factories);
            for (BindingFactorySpi factory : all)
            {
                bindings.put(factory.type(), factory.create(configuration));
            }
            return bindings;
        }

        /** The vault types this engine knows: those on the class path, and those added. */
        public Map<String, Vault> vaultTypes()
        {
            final Map<String, Vault> vaults = new LinkedHashMap<>();
            final List<VaultFactorySpi> all = new ArrayList<>();
            ServiceLoader.load(VaultFactorySpi.class).forEach(all::add);
            all.addAll(vaultFactories);
            for (VaultFactorySpi factory : all)
            {
                vaults.put(factory.type(), factory.create(configuration));
            }
            return vaults;
        }

        /**
         * @throws io.zilla.engine.config.ConfigException when the zilla.yaml is invalid, with every error (a vault
         *         whose store cannot be loaded among them)
         */
        public Engine build()
        {
            final Map<String, Binding> bindings = bindingTypes();
            final Map<String, Vault> vaults = vaultTypes();
            final NamespaceConfig namespace = config != null
                ? config
                : new ConfigReader(bindings, vaults, environment).read(location, text, 1);
            return new Engine(configuration, namespace, bindings, vaults, List.copyOf(eventListeners), file, environment,
                exporterTypes());
        }
    }

    /** Every metric zilla can record: the engine's and each installed binding type's, by name. */
    private Map<String, Metric> metrics()
    {
        return EngineMetrics.declared(bindingsByType.values());
    }
}
