/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.net.URL;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingFactorySpi;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.test.TestBinding;

/**
 * A binding type for one benchmark only (given to the engine's builder, never found with ServiceLoader): kind
 * {@code client}, whose handler on each worker is a driver of the benchmark's own ({@link ClientBenchDriver},
 * {@link FanoutBenchDriver}) that opens streams to its exit when the benchmark asks and drives them on the worker
 * itself. Look a worker's driver up by binding name and worker index once the engine has started.
 */
final class BenchBinding<D extends BenchBinding.Driver> implements Binding, BindingFactorySpi
{
    /** What a benchmark's driver is to the engine: the handler of its binding on one worker, closed on detach. */
    interface Driver extends BindingHandler
    {
        void close();
    }

    private final String type;
    private final BiFunction<EngineContext, BindingConfig, D> drivers;
    private final Map<String, D> attached = new ConcurrentHashMap<>();

    BenchBinding(String type, BiFunction<EngineContext, BindingConfig, D> drivers)
    {
        this.type = type;
        this.drivers = drivers;
    }

    D driver(String bindingName, int worker)
    {
        return attached.get(bindingName + "#" + worker);
    }

    @Override
    public String type()
    {
        return type;
    }

    @Override
    public Binding create(EngineConfiguration configuration)
    {
        return this;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.CLIENT);
    }

    @Override
    public URL schema()
    {
        // the test binding's schema: a kind and an exit, no options
        return TestBinding.class.getResource("test.schema.json");
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new BindingContext()
        {
            @Override
            public BindingHandler attach(BindingConfig binding)
            {
                final D driver = drivers.apply(context, binding);
                attached.put(binding.name() + "#" + context.index(), driver);
                return driver;
            }

            @Override
            public void detach(BindingConfig binding)
            {
                final D driver = attached.remove(binding.name() + "#" + context.index());
                if (driver != null)
                {
                    driver.close();
                }
            }
        };
    }
}
