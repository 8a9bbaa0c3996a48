/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.BindingFactorySpi;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.vault.VaultFactorySpi;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts an engine in-process for a test, from a zilla.yaml on the test class path, and stops it after the
 * test. Register it as a field: {@code @RegisterExtension final EngineExtension engine = new EngineExtension();}
 * then call {@code engine.start("zilla.yaml")} (resolved next to the test class) with any properties.
 * The engine directory is a fresh temporary directory, removed afterwards.
 */
public final class EngineExtension implements AfterEachCallback
{
    private final Map<String, String> properties = new HashMap<>();
    private final Map<String, String> environment = new HashMap<>();
    private final List<EngineEvent> events = new CopyOnWriteArrayList<>();
    private final List<BindingFactorySpi> bindings = new ArrayList<>();
    private final List<VaultFactorySpi> vaults = new ArrayList<>();
    private Engine engine;
    private Path directory;
    private Class<?> anchor;

    public EngineExtension property(String name, Object value)
    {
        properties.put(name, String.valueOf(value));
        return this;
    }

    public EngineExtension workers(int workers)
    {
        return property(EngineConfiguration.WORKERS, workers);
    }

    /** A variable for {@code ${{env.NAME}}} in the test's zilla.yaml. */
    public EngineExtension env(String name, String value)
    {
        environment.put(name, value);
        return this;
    }

    /** A binding type for this test only, besides those found with ServiceLoader. */
    public EngineExtension binding(BindingFactorySpi factory)
    {
        bindings.add(factory);
        return this;
    }

    /** A vault type for this test only, besides those found with ServiceLoader. */
    public EngineExtension vault(VaultFactorySpi factory)
    {
        vaults.add(factory);
        return this;
    }

    /** The class whose package holds the zilla.yaml resources. */
    public EngineExtension anchor(Class<?> anchor)
    {
        this.anchor = anchor;
        return this;
    }

    /** Starts an engine from the resource {@code resource}, next to the anchor class (or an absolute resource path). */
    public Engine start(String resource)
    {
        return startText(resource, read(resource));
    }

    /** Starts an engine from zilla.yaml text. */
    public Engine startText(String location, String yaml)
    {
        return start(builder -> builder.config(location, yaml));
    }

    /** Starts an engine from a zilla.yaml file, watched for changes as {@code zilla start} does. */
    public Engine startWatching(Path file)
    {
        final String text;
        try
        {
            text = Files.readString(file);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        // the file's path as its location: a vault's relative paths start from its directory
        return start(builder -> builder.config(file.toString(), text).watch(file));
    }

    /** Starts an engine from a config built by the test. */
    public Engine start(NamespaceConfig config)
    {
        return start(builder -> builder.config(config));
    }

    private Engine start(UnaryOperator<Engine.Builder> config)
    {
        try
        {
            directory = Files.createTempDirectory("zilla-engine-");
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final EngineConfiguration configuration = new EngineConfiguration()
            .with(EngineConfiguration.WORKERS, 1)
            .with(EngineConfiguration.RING_CAPACITY, 1024 * 1024)
            .with(EngineConfiguration.BUFFER_SLOTS, 256)
            .with(EngineConfiguration.DIRECTORY, directory)
            .with(properties);
        final Engine.Builder builder = Engine.builder();
        bindings.forEach(builder::binding);
        vaults.forEach(builder::vault);
        engine = config.apply(builder)
            .configuration(configuration)
            .environment(name -> environment.containsKey(name) ? environment.get(name) : System.getenv(name))
            .eventListener(events::add)
            .build();
        engine.start();
        return engine;
    }

    public Engine engine()
    {
        return engine;
    }

    public Path directory()
    {
        return directory;
    }

    /** The events the engine has exported so far. */
    public List<EngineEvent> events()
    {
        return new ArrayList<>(events);
    }

    @Override
    public void afterEach(ExtensionContext context)
    {
        if (engine != null)
        {
            engine.close();
            engine = null;
        }
        if (directory != null)
        {
            deleteRecursively(directory);
            directory = null;
        }
    }

    private String read(String resource)
    {
        final Class<?> base = anchor != null ? anchor : EngineExtension.class;
        try (InputStream in = base.getResourceAsStream(resource))
        {
            if (in == null)
            {
                throw new IllegalArgumentException("no resource " + resource + " next to " + base.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void deleteRecursively(Path path)
    {
        try (var paths = Files.walk(path))
        {
            paths.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
