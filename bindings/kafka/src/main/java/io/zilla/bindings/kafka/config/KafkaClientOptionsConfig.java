/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.config;

import java.util.List;

import io.zilla.engine.config.OptionsConfig;
import io.zilla.specs.kafka.codec.RecordCompression;

/**
 * The options of a kafka client: the bootstrap {@code servers} ({@code host:port}, tried in order until one
 * answers), the SASL credentials to authenticate with, or null, and the {@code compression} of the record batches
 * it produces (none by default; fetch reads every codec whatever this says).
 */
public record KafkaClientOptionsConfig(List<String> servers, KafkaSaslConfig sasl, RecordCompression compression)
    implements OptionsConfig
{
    public KafkaClientOptionsConfig
    {
        servers = List.copyOf(servers);
        compression = compression != null ? compression : RecordCompression.NONE;
    }

    /** Without compression. */
    public KafkaClientOptionsConfig(List<String> servers, KafkaSaslConfig sasl)
    {
        this(servers, sasl, RecordCompression.NONE);
    }
}
