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
 * The {@code fanout-bench} binding type, for the kafka cache fan-out benchmark only (given to the engine's builder, never
 * found with ServiceLoader), as {@link ClientBenchBinding} is for the client benchmark: kind {@code client}, whose
 * handler on <b>each</b> worker is a {@link FanoutBenchDriver} that opens MERGED subscriber streams to its exit (a
 * cache_client) when the benchmark asks, and counts what they receive. Look a worker's driver up by binding name and
 * worker index once the engine has started.
 */
final class FanoutBenchBinding implements Binding, BindingFactorySpi
{
    static final String TYPE = "fanout-bench";

    private static final Map<String, FanoutBenchDriver> DRIVERS = new ConcurrentHashMap<>();

    static FanoutBenchDriver driver(String bindingName, int worker)
    {
        return DRIVERS.get(bindingName + "#" + worker);
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
                final FanoutBenchDriver driver = new FanoutBenchDriver(context, binding);
                DRIVERS.put(binding.name() + "#" + context.index(), driver);
                return driver;
            }

            @Override
            public void detach(BindingConfig binding)
            {
                final FanoutBenchDriver driver = DRIVERS.remove(binding.name() + "#" + context.index());
                if (driver != null)
                {
                    driver.close();
                }
            }
        };
    }
}
