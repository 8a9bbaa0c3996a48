/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.config;

import java.util.List;
import java.util.Map;

import io.zilla.engine.config.OptionsConfig;

/**
 * The options of a kafka proxy: the real bootstrap servers ({@code host:port}) and how brokers are advertised to
 * clients. Port mode: {@code host}, the proxy's {@code bootstrapPort}, and the proxy's port for each broker node id.
 * SNI mode ({@code sni} not null): a name per node id on one port, see {@link KafkaSniConfig}. {@code limits}: what
 * a client's requests may take, see {@link KafkaProxyLimits}.
 */
public record KafkaOptionsConfig(List<String> bootstrap, String advertiseHost, int bootstrapPort, Map<Integer, Integer> ports,
    KafkaSniConfig sni, KafkaProxyLimits limits)
    implements OptionsConfig
{
    public KafkaOptionsConfig
    {
        bootstrap = List.copyOf(bootstrap);
        ports = Map.copyOf(ports);
        limits = limits != null ? limits : KafkaProxyLimits.DEFAULTS;
    }

    /** Port mode, with the default limits. */
    public KafkaOptionsConfig(List<String> bootstrap, String advertiseHost, int bootstrapPort, Map<Integer, Integer> ports)
    {
        this(bootstrap, advertiseHost, bootstrapPort, ports, null, null);
    }

    /** SNI mode, with the default limits. */
    public KafkaOptionsConfig(List<String> bootstrap, KafkaSniConfig sni)
    {
        this(bootstrap, null, 0, Map.of(), sni, null);
    }

    /** The node id whose advertised port is {@code port}, or -1. */
    public int nodeOf(int port)
    {
        int nodeId = -1;
        for (Map.Entry<Integer, Integer> entry : ports.entrySet())
        {
            if (entry.getValue() == port)
            {
                nodeId = entry.getKey();
            }
        }
        return nodeId;
    }
}
