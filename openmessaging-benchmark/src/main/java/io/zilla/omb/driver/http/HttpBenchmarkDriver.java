/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.config.HttpOptions;
import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.BenchmarkDriver;
import io.zilla.omb.driver.BenchmarkProducer;
import io.zilla.omb.driver.ConsumerCallback;
import io.zilla.omb.driver.kafka.KafkaBenchmarkDriver;

/**
 * REST in, Kafka out: each producer sends every message as one HTTP {@code POST} of its payload to its topic's
 * produce endpoint ({@code httpUrl}, {@code {topic}} replaced; zilla's http-kafka produce route answers 204 once Kafka
 * acknowledged the record, so OMB's publish latency is the request to its 204), over HTTP/1.1 keep-alive (a pool of
 * {@code httpConnections} per producer, one request in flight each) or h2c (prior knowledge, up to
 * {@code httpMaxStreams} concurrent streams per connection). Topics and consumers are the Kafka driver's, from the
 * same driver file: the end-to-end latency is from the HTTP send to the Kafka consumer.
 * <p>
 * With {@code httpConsumer: fetch} each consumer instead long-polls its topic's fetch endpoint ({@link
 * HttpFetchConsumer}): what it reports is the states it saw, not every message (README.md says why).
 */
public final class HttpBenchmarkDriver implements BenchmarkDriver
{
    private final Consumer<String> log;
    private final KafkaBenchmarkDriver kafka;
    private final HttpProducer.HttpStatusCounts counts = new HttpProducer.HttpStatusCounts();

    private String name;
    private HttpOptions options;
    private HttpLoadClient client;
    private HttpFetchConsumer.Counts fetched;

    /** A driver that prints its warnings to {@link System#out}. */
    public HttpBenchmarkDriver()
    {
        this(System.out::println);
    }

    /** A driver that gives its warnings to {@code log}. */
    public HttpBenchmarkDriver(Consumer<String> log)
    {
        this.log = log;
        this.kafka = new KafkaBenchmarkDriver(log);
    }

    @Override
    public void initialize(DriverConfig config) throws Exception
    {
        final HttpOptions options = config.http();
        if (options.url() == null)
        {
            throw new IllegalArgumentException(config.name() + ": httpUrl: required (http://host:port/path/{topic}), "
                + "unless throughZilla: true, which points it at the in-process zilla");
        }
        if (options.fetchConsumer() && options.fetchUrl() == null)
        {
            throw new IllegalArgumentException(config.name() + ": httpFetchUrl: required with httpConsumer: fetch");
        }
        this.name = config.name();
        this.options = options;
        kafka.initialize(config);
        client = new HttpLoadClient(options.selectorThreads(), log);
        fetched = new HttpFetchConsumer.Counts();
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
        try
        {
            final HttpProducer producer = new HttpProducer(client, HttpTarget.of(options.url(), topic), options.h2c(),
                options.connections(), options.maxStreams(), options.maxPending(), options.keyHeader(), counts);
            return CompletableFuture.completedFuture(producer);
        }
        catch (RuntimeException ex)
        {
            return CompletableFuture.failedFuture(ex);
        }
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(String topic, String subscriptionName, ConsumerCallback callback)
    {
        if (options.fetchConsumer())
        {
            final HttpFetchConsumer consumer = new HttpFetchConsumer(client, HttpTarget.of(options.fetchUrl(), topic),
                options.fetchWaitSeconds(), callback, fetched);
            return consumer.started().thenApply(c -> c);
        }
        return kafka.createConsumer(topic, subscriptionName, callback);
    }

    @Override
    public void close()
    {
        try
        {
            if (client != null)
            {
                log.accept("driver " + name + ": " + options.transport() + " requests: " + counts
                    + (options.fetchConsumer() ? "; fetch: " + fetched : ""));
                client.close();
            }
        }
        finally
        {
            kafka.close();
        }
    }

    /** The produce requests answered 2xx so far: for tests. */
    long acknowledged()
    {
        return counts.succeeded();
    }
}
