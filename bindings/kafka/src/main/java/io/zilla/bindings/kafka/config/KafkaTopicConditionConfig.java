/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.config;

import java.util.Objects;
import java.util.regex.Pattern;

import io.zilla.engine.config.ConditionConfig;

/**
 * One {@code when} entry of a cache kind's route: the stream's topic matches {@code topic}, where {@code *} stands for
 * any run of characters (a dot is a dot, as in Zilla); an entry without a topic matches every stream.
 */
public final class KafkaTopicConditionConfig implements ConditionConfig
{
    private final String topic;
    private final Pattern pattern;

    public KafkaTopicConditionConfig(String topic)
    {
        this.topic = topic;
        this.pattern = topic != null && topic.indexOf('*') >= 0 ? pattern(topic) : null;
    }

    public String topic()
    {
        return topic;
    }

    public boolean matches(String name)
    {
        return topic == null || name != null && (pattern != null ? pattern.matcher(name).matches() : topic.equals(name));
    }

    private static Pattern pattern(String topic)
    {
        final StringBuilder regex = new StringBuilder();
        int start = 0;
        for (int star = topic.indexOf('*'); star >= 0; star = topic.indexOf('*', start))
        {
            regex.append(Pattern.quote(topic.substring(start, star))).append(".*");
            start = star + 1;
        }
        regex.append(Pattern.quote(topic.substring(start)));
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof KafkaTopicConditionConfig that && Objects.equals(topic, that.topic);
    }

    @Override
    public int hashCode()
    {
        return Objects.hashCode(topic);
    }

    @Override
    public String toString()
    {
        return "KafkaTopicConditionConfig[topic=" + topic + "]";
    }
}
