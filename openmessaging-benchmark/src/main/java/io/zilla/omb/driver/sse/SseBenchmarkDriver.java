/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.config.SseOptions;
import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.BenchmarkDriver;
import io.zilla.omb.driver.BenchmarkProducer;
import io.zilla.omb.driver.ConsumerCallback;
import io.zilla.omb.driver.kafka.KafkaBenchmarkDriver;

/**
 * Kafka in, Server-Sent Events out: the fan-out of a topic to many SSE connections (the Kafkorama benchmark's shape).
 * Topics and producers are the Kafka driver's (its producer, admin and settings, from the same driver file), each
 * payload base64-encoded on its way ({@link Base64Payloads}); each consumer is one SSE connection to its topic's
 * endpoint ({@code sseUrl} with {@code {topic}} replaced), its events decoded back to the payloads for the callback.
 * <p>
 * In OMB every subscription gets every message and the consumers of one subscription share them. An SSE connection
 * gets every event of its topic, and there is nothing to share them with, so this driver takes one consumer per
 * subscription ({@code consumerPerSubscription: 1}) and refuses a second consumer of a subscription: N connections
 * are {@code topics x subscriptionsPerTopic}. A consumer is created when its response (a 200 of
 * {@code text/event-stream}) came.
 */
public final class SseBenchmarkDriver implements BenchmarkDriver
{
    private final Consumer<String> log;
    private final KafkaBenchmarkDriver kafka;
    private final Set<String> subscriptions = new HashSet<>();

    private String name;
    private SseOptions options;
    private SseClient client;

    /** A driver that prints its warnings to {@link System#out}. */
    public SseBenchmarkDriver()
    {
        this(System.out::println);
    }

    /** A driver that gives its warnings to {@code log}. */
    public SseBenchmarkDriver(Consumer<String> log)
    {
        this.log = log;
        this.kafka = new KafkaBenchmarkDriver(log);
    }

    @Override
    public void initialize(DriverConfig config) throws Exception
    {
        final SseOptions options = config.sse();
        if (options.url() == null)
        {
            throw new IllegalArgumentException(config.name() + ": sseUrl: required (http://host:port/path/{topic}), "
                + "unless throughZilla: true, which points it at the in-process zilla");
        }
        this.name = config.name();
        this.options = options;
        kafka.initialize(config);
        client = new SseClient(options.selectorThreads(), options.connectionsPerSecond(), options.reconnect(), log);
    }

    @Override
    public String getTopicNamePrefix()
    {
        return kafka.getTopicNamePrefix();
    }

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions)
    {
        return kafka.createTopic(topic, partitions);
    }

    @Override
    public CompletableFuture<Void> deleteTopics(List<String> topics)
    {
        return kafka.deleteTopics(topics);
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic)
    {
        return kafka.createProducer(topic).thenApply(Base64Producer::new);
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(String topic, String subscriptionName, ConsumerCallback callback)
    {
        synchronized (subscriptions)
        {
            if (!subscriptions.add(topic + '\n' + subscriptionName))
            {
                return CompletableFuture.failedFuture(new IllegalArgumentException(name + ": a second consumer of "
                    + "subscription " + subscriptionName + " of " + topic + ": the SSE driver needs "
                    + "consumerPerSubscription: 1 (every SSE connection gets every event of its topic, none shares "
                    + "them); give subscriptionsPerTopic the number of connections instead"));
            }
        }
        final URI uri = URI.create(options.url().replace("{topic}", topic));
        final int port = uri.getPort() != -1 ? uri.getPort() : 80;
        final String target = (uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
            + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "");
        final String host = uri.getHost() + (uri.getPort() != -1 ? ":" + port : "");
        final SseConnection connection =
            client.open(new InetSocketAddress(uri.getHost(), port), host, target, callback);
        return connection.opened();
    }

    @Override
    public void close()
    {
        try
        {
            if (client != null)
            {
                log.accept(String.format(Locale.ROOT, "driver %s: %d events delivered, %d connection failures, "
                    + "%d reconnections", name, client.events(), client.failures(), client.reconnects()));
                client.close();
            }
        }
        finally
        {
            kafka.close();
        }
    }

    /** What the driver's connections did so far: for tests. */
    long[] counts()
    {
        return new long[] {client.streaming(), client.events(), client.failures(), client.reconnects()};
    }
}
