/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.net.URL;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;

/**
 * The binding types that the config tests install, each with a tiny schema under test resources: a tcp-like type
 * with options and conditions, an echo-like type with neither, and a mapping type with conditions and {@code with}.
 */
final class TestBindings
{
    private TestBindings()
    {
    }

    static Map<String, Binding> installed(Binding... bindings)
    {
        final Map<String, Binding> byType = new TreeMap<>();
        for (Binding binding : bindings)
        {
            byType.put(binding.type(), binding);
        }
        return byType;
    }

    record TcpOptions(String host, List<Integer> ports) implements OptionsConfig
    {
    }

    record TcpCondition(String cidr, List<Integer> ports) implements ConditionConfig
    {
    }

    record MappingCondition(String topic) implements ConditionConfig
    {
    }

    record MappingWith(String topic, List<String> key) implements WithConfig
    {
    }

    abstract static class TestBinding implements Binding
    {
        private final String type;
        private final Set<KindConfig> kinds;

        TestBinding(String type, Set<KindConfig> kinds)
        {
            this.type = type;
            this.kinds = kinds;
        }

        @Override
        public String type()
        {
            return type;
        }

        @Override
        public Set<KindConfig> kinds()
        {
            return kinds;
        }

        @Override
        public URL schema()
        {
            return TestBindings.class.getResource(type + ".schema.json");
        }

        @Override
        public BindingContext supply(EngineContext context)
        {
            throw new UnsupportedOperationException("config tests only");
        }
    }

    static final class Tcp extends TestBinding
    {
        Tcp()
        {
            super("tcp", EnumSet.of(KindConfig.SERVER, KindConfig.CLIENT));
        }

        /** As the real tcp type: a client connects to the network, its routes only filter destinations. */
        @Override
        public boolean hasExits(KindConfig kind)
        {
            return kind != KindConfig.CLIENT;
        }

        @Override
        public OptionsConfig options(KindConfig kind, JsonNode options)
        {
            return new TcpOptions(options.path("host").textValue(), ports(options.path("port")));
        }

        @Override
        public ConditionConfig condition(KindConfig kind, JsonNode condition)
        {
            return new TcpCondition(condition.path("cidr").textValue(), ports(condition.path("port")));
        }

        /** 8080, "8000-8010" or [8080, 8443]; a range the wrong way round is refused here, as no schema can. */
        private static List<Integer> ports(JsonNode port)
        {
            final List<Integer> ports = new ArrayList<>();
            if (port.isInt())
            {
                ports.add(port.intValue());
            }
            else if (port.isArray())
            {
                port.forEach(each -> ports.add(each.intValue()));
            }
            else if (port.isTextual())
            {
                final String[] range = port.textValue().split("-");
                final int first = Integer.parseInt(range[0]);
                final int last = Integer.parseInt(range[range.length - 1]);
                if (last < first)
                {
                    throw new IllegalArgumentException("port range " + port.textValue() + " ends before it starts");
                }
                IntStream.rangeClosed(first, last).forEach(ports::add);
            }
            return ports;
        }
    }

    static final class Echo extends TestBinding
    {
        Echo()
        {
            super("echo", EnumSet.of(KindConfig.SERVER));
        }

        @Override
        public boolean hasExits(KindConfig kind)
        {
            return false;
        }
    }

    static final class Mapping extends TestBinding
    {
        Mapping()
        {
            super("mapping", EnumSet.of(KindConfig.PROXY));
        }

        @Override
        public ConditionConfig condition(KindConfig kind, JsonNode condition)
        {
            return new MappingCondition(condition.path("topic").textValue());
        }

        @Override
        public WithConfig with(KindConfig kind, JsonNode with)
        {
            final List<String> key = new ArrayList<>();
            final JsonNode keyNode = with.path("key");
            if (keyNode.isArray())
            {
                keyNode.forEach(part -> key.add(part.textValue()));
            }
            else if (keyNode.isTextual())
            {
                key.add(keyNode.textValue());
            }
            return new MappingWith(with.path("topic").textValue(), key);
        }
    }
}
