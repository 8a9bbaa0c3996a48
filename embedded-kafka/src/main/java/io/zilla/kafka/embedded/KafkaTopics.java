/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creates topics with names unique to one test on the shared broker: {@code <TestClass>-<method>-<n>}, so that
 * tests sharing a broker never see each other's records. Resolved as a test method parameter by
 * {@link EmbeddedKafkaExtension}.
 */
public final class KafkaTopics
{
    private static final int MAX_PREFIX = 200;

    private final EmbeddedKafka kafka;
    private final String prefix;
    private final AtomicInteger counter = new AtomicInteger();

    public KafkaTopics(EmbeddedKafka kafka, String prefix)
    {
        this.kafka = kafka;
        String legal = prefix.replaceAll("[^a-zA-Z0-9-]", "-");
        this.prefix = legal.length() > MAX_PREFIX ? legal.substring(0, MAX_PREFIX) : legal;
    }

    /** A new unique topic name, not created. */
    public String name()
    {
        return prefix + "-" + counter.incrementAndGet();
    }

    /** Creates a new uniquely named topic with the given partitions and returns its name. */
    public String create(int partitions)
    {
        String name = name();
        kafka.createTopic(name, partitions);
        return name;
    }

    /** Creates a new uniquely named log-compacted topic ({@code cleanup.policy=compact}) and returns its name. */
    public String createCompacted(int partitions)
    {
        String name = name();
        kafka.createTopic(name, partitions, Map.of("cleanup.policy", "compact"));
        return name;
    }

    /** Creates a new uniquely named topic with one partition and returns its name. */
    public String create()
    {
        return create(1);
    }

    public EmbeddedKafka kafka()
    {
        return kafka;
    }
}
