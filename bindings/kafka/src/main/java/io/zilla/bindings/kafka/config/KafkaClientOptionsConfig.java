/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.config;

import java.util.List;

import io.zilla.engine.config.OptionsConfig;

/**
 * The options of a kafka client: the bootstrap {@code servers} ({@code host:port}, tried in order until one
 * answers), and the SASL credentials to authenticate with, or null.
 */
public record KafkaClientOptionsConfig(List<String> servers, KafkaSaslConfig sasl) implements OptionsConfig
{
    public KafkaClientOptionsConfig
    {
        servers = List.copyOf(servers);
    }
}
