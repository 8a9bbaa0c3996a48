/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka;

import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.kafka.config.KafkaOptionsConfig;
import io.zilla.bindings.kafka.stream.KafkaBindingContext;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.specs.kafka.codec.BrokerAddress;

/** The kafka binding type: kind {@code proxy} only, see docs/bindings/kafka.md. */
public final class KafkaBinding implements Binding
{
    public static final String NAME = "kafka";

    /** The real broker addresses learned from Metadata, per binding id and node id, shared by the workers. */
    private final Map<Long, Map<Integer, BrokerAddress>> brokers = new ConcurrentHashMap<>();

    @Override
    public String type()
    {
        return NAME;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.PROXY);
    }

    @Override
    public URL schema()
    {
        return KafkaBinding.class.getResource("schema/kafka.schema.json");
    }

    @Override
    public OptionsConfig options(KindConfig kind, JsonNode options)
    {
        if (options == null || options.isMissingNode() || options.isNull())
        {
            return null;
        }
        final List<String> bootstrap = new ArrayList<>();
        for (JsonNode server : options.path("bootstrap"))
        {
            bootstrap.add(server.asText());
        }
        final JsonNode advertise = options.path("advertise");
        final Map<Integer, Integer> ports = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> i = advertise.path("ports").fields(); i.hasNext();)
        {
            final Map.Entry<String, JsonNode> entry = i.next();
            ports.put(Integer.parseInt(entry.getKey()), entry.getValue().asInt());
        }
        return new KafkaOptionsConfig(bootstrap, advertise.path("host").asText("localhost"),
            advertise.path("bootstrap_port").asInt(0), ports);
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new KafkaBindingContext(context, this::brokers);
    }

    private Map<Integer, BrokerAddress> brokers(long bindingId)
    {
        return brokers.computeIfAbsent(bindingId, id -> new ConcurrentHashMap<>());
    }
}
