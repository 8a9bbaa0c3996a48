/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.BenchmarkDriver;
import io.zilla.omb.driver.BenchmarkProducer;
import io.zilla.omb.driver.ConsumerCallback;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Kafka driver on kafka-clients: an {@link Admin} creates the topics (with the driver file's replication factor
 * and {@code topicConfig}), each producer is one {@link KafkaProducer} and each consumer one {@link KafkaConsumer}
 * polling on its own thread, in the consumer group named by the subscription. {@code commonConfig} goes to all
 * three; the serializers are fixed (string keys, byte array values), whatever the file says.
 * <p>
 * OMB's Kafka driver files all ask for {@code replicationFactor: 3} and {@code min.insync.replicas=2}. So that they run
 * on a single broker (the embedded one), {@link #initialize} asks the cluster its size and caps both to it, with one
 * warning line.
 */
public final class KafkaBenchmarkDriver implements BenchmarkDriver
{
    private static final long DESCRIBE_CLUSTER_TIMEOUT_MS = 60_000;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Consumer<String> log;

    private DriverConfig config;
    private Admin admin;
    private String topicPrefix;
    private short replicationFactor;
    private Map<String, String> topicConfig;

    /** A driver that prints its warnings to {@link System#out}. */
    public KafkaBenchmarkDriver()
    {
        this(System.out::println);
    }

    /** A driver that gives its warnings to {@code log}. */
    public KafkaBenchmarkDriver(Consumer<String> log)
    {
        this.log = log;
    }

    @Override
    public void initialize(DriverConfig config) throws InterruptedException, ExecutionException, TimeoutException
    {
        this.config = config;
        this.admin = Admin.create(config.commonConfig());
        this.topicPrefix = "omb-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16) + "-";
        final Map<String, String> topicConfig = new HashMap<>();
        config.topicConfig().forEach((k, v) -> topicConfig.put(String.valueOf(k), String.valueOf(v)));
        final int brokers = admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) DESCRIBE_CLUSTER_TIMEOUT_MS))
            .nodes().get(DESCRIBE_CLUSTER_TIMEOUT_MS, TimeUnit.MILLISECONDS).size();
        final List<String> capped = new ArrayList<>();
        int replicas = config.replicationFactor();
        if (replicas > brokers)
        {
            capped.add("replicationFactor " + replicas + " capped to " + brokers);
            replicas = brokers;
        }
        final String minInsync = topicConfig.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
        if (minInsync != null && minInsync.trim().matches("\\d+") && Long.parseLong(minInsync.trim()) > brokers)
        {
            capped.add(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG + " " + minInsync.trim() + " capped to " + brokers);
            topicConfig.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(brokers));
        }
        if (!capped.isEmpty())
        {
            log.accept("driver " + config.name() + ": " + String.join(", ", capped) + " (the cluster has " + brokers
                + (brokers == 1 ? " broker)" : " brokers)"));
        }
        this.replicationFactor = (short) replicas;
        this.topicConfig = Map.copyOf(topicConfig);
    }

    @Override
    public String getTopicNamePrefix()
    {
        return topicPrefix;
    }

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions)
    {
        final NewTopic newTopic = new NewTopic(topic, partitions, replicationFactor).configs(topicConfig);
        final CompletableFuture<Void> created = new CompletableFuture<>();
        admin.createTopics(List.of(newTopic)).all().whenComplete((v, ex) ->
        {
            if (ex != null)
            {
                created.completeExceptionally(ex);
            }
            else
            {
                created.complete(null);
            }
        });
        return created;
    }

    @Override
    public CompletableFuture<Void> deleteTopics(List<String> topics)
    {
        return admin.deleteTopics(topics).all().toCompletionStage().toCompletableFuture();
    }

    @Override
    public CompletableFuture<BenchmarkProducer> createProducer(String topic)
    {
        final Properties properties = config.commonConfig();
        properties.putAll(config.producerConfig());
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        final KafkaBenchmarkProducer producer = new KafkaBenchmarkProducer(topic, new KafkaProducer<>(properties));
        register(producer);
        return CompletableFuture.completedFuture(producer);
    }

    @Override
    public CompletableFuture<BenchmarkConsumer> createConsumer(String topic, String subscriptionName, ConsumerCallback callback)
    {
        final Properties properties = config.commonConfig();
        properties.putAll(config.consumerConfig());
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, subscriptionName);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        // as OMB's driver: the offsets are committed after each poll unless the client commits them itself
        final boolean autoCommit =
            Boolean.parseBoolean(properties.getProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"));
        final KafkaBenchmarkConsumer consumer =
            new KafkaBenchmarkConsumer(topic, new KafkaConsumer<String, byte[]>(properties), autoCommit, callback);
        register(consumer);
        return consumer.start().thenApply(c -> c);
    }

    @Override
    public void close()
    {
        final List<AutoCloseable> toClose;
        synchronized (closeables)
        {
            toClose = new ArrayList<>(closeables);
            closeables.clear();
        }
        RuntimeException failure = null;
        for (AutoCloseable closeable : toClose)
        {
            try
            {
                closeable.close();
            }
            catch (Exception ex)
            {
                failure = failure == null ? new IllegalStateException("closing " + closeable + " failed", ex) : failure;
            }
        }
        if (admin != null)
        {
            admin.close();
        }
        if (failure != null)
        {
            throw failure;
        }
    }

    private void register(AutoCloseable closeable)
    {
        synchronized (closeables)
        {
            closeables.add(closeable);
        }
    }
}
