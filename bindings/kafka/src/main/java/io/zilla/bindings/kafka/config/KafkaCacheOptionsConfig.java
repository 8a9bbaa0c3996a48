/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.config;

import java.util.List;

import io.zilla.engine.config.OptionsConfig;

/**
 * The options of kinds {@code cache_client} and {@code cache_server}, in Zilla's shape.
 *
 * @param bootstrap the topics a cache_server fetches from its start, before any stream asks (empty for a cache_client)
 * @param topics    per-topic settings; a topic not listed takes the defaults of {@link KafkaTopicConfig}
 */
public record KafkaCacheOptionsConfig(List<String> bootstrap, List<KafkaTopicConfig> topics) implements OptionsConfig
{
    public static final KafkaCacheOptionsConfig DEFAULTS = new KafkaCacheOptionsConfig(List.of(), List.of());

    public KafkaCacheOptionsConfig
    {
        bootstrap = List.copyOf(bootstrap);
        topics = List.copyOf(topics);
    }

    /** The settings of a topic: the first entry of that name, or the defaults. */
    public KafkaTopicConfig topic(String name)
    {
        for (KafkaTopicConfig topic : topics)
        {
            if (topic.name().equals(name))
            {
                return topic;
            }
        }
        return new KafkaTopicConfig(name, KafkaTopicConfig.DefaultOffset.HISTORICAL);
    }
}
