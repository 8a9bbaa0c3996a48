/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

/** One consumer to create: of {@code topic}, in the subscription (Kafka: consumer group) {@code subscription}. */
public record TopicSubscription(String topic, String subscription)
{
}
