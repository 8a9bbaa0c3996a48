/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.zilla.omb.config.DriverConfig;

/**
 * A messaging system under test, in the shape of OMB's driver: initialized once from its driver file, then asked for
 * topics, producers and consumers. Every method may be called from any thread; the futures complete on the driver's.
 */
public interface BenchmarkDriver extends AutoCloseable
{
    /** Reads the driver file's properties and connects what must be connected before topics are created. */
    void initialize(DriverConfig config) throws Exception;

    /** The prefix of the topic names the benchmark creates, so that runs never collide. */
    String getTopicNamePrefix();

    CompletableFuture<Void> createTopic(String topic, int partitions);

    /** Deletes the topics a run created, once it is over (OMB leaves them); by default nothing is deleted. */
    default CompletableFuture<Void> deleteTopics(List<String> topics)
    {
        return CompletableFuture.completedFuture(null);
    }

    CompletableFuture<BenchmarkProducer> createProducer(String topic);

    /** A consumer of {@code topic} in subscription {@code subscriptionName}; every message goes to {@code callback}. */
    CompletableFuture<BenchmarkConsumer> createConsumer(String topic, String subscriptionName, ConsumerCallback callback);

    /** Closes what the driver created that is still open, then the driver; never throws a checked exception. */
    @Override
    void close();
}
