/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.net.URL;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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
 * The {@code client-bench} binding type, for the kafka client benchmark only (given to the engine's builder, never
 * found with ServiceLoader): kind {@code client}, whose handler on each worker is a {@link ClientBenchDriver} that
 * opens produce or fetch streams to its exit (the kafka client binding) when the benchmark asks, and drives them at
 * full credit on the worker itself. Look the driver up by binding name once the engine has started (worker 0's).
 */
final class ClientBenchBinding implements Binding, BindingFactorySpi
{
    static final String TYPE = "client-bench";

    private static final Map<String, ClientBenchDriver> DRIVERS = new ConcurrentHashMap<>();

    static ClientBenchDriver driver(String bindingName)
    {
        return DRIVERS.get(bindingName);
    }

    @Override
    public String type()
    {
        return TYPE;
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
                final ClientBenchDriver driver = new ClientBenchDriver(context, binding);
                if (context.index() == 0)
                {
                    DRIVERS.put(binding.name(), driver);
                }
                return driver;
            }

            @Override
            public void detach(BindingConfig binding)
            {
                final ClientBenchDriver driver = DRIVERS.get(binding.name());
                if (driver != null && driver.context() == context)
                {
                    DRIVERS.remove(binding.name());
                    driver.close();
                }
            }
        };
    }
}
