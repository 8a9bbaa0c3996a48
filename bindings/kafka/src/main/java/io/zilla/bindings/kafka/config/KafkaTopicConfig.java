/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.config;

/**
 * One entry of a cache kind's {@code options.topics}.
 *
 * @param name          the topic
 * @param defaultOffset where the cache_server starts fetching the topic: {@code historical} (Zilla's default) from the
 *                      oldest record Kafka keeps, {@code live} from the next one written
 */
public record KafkaTopicConfig(String name, DefaultOffset defaultOffset)
{
    public enum DefaultOffset
    {
        LIVE,
        HISTORICAL;

        /** Kafka's offset sentinel for it: -1 latest, -2 earliest. */
        public long sentinel()
        {
            return this == LIVE ? -1L : -2L;
        }
    }
}
