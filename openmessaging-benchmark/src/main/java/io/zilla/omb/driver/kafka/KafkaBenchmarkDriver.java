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
import java.util.concurrent.ThreadLocalRandom;

import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.BenchmarkDriver;
import io.zilla.omb.driver.BenchmarkProducer;
import io.zilla.omb.driver.ConsumerCallback;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Kafka driver on kafka-clients: an {@link Admin} creates the topics (with the driver file's replication factor
 * and {@code topicConfig}), each producer is one {@link KafkaProducer} and each consumer one {@link KafkaConsumer}
 * polling on its own thread, in the consumer group named by the subscription. {@code commonConfig} goes to all
 * three; the serializers are fixed (string keys, byte array values), whatever the file says.
 */
public final class KafkaBenchmarkDriver implements BenchmarkDriver
{
    private final List<AutoCloseable> closeables = new ArrayList<>();

    private DriverConfig config;
    private Admin admin;
    private String topicPrefix;

    @Override
    public void initialize(DriverConfig config)
    {
        this.config = config;
        this.admin = Admin.create(config.commonConfig());
        this.topicPrefix = "omb-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16) + "-";
    }

    @Override
    public String getTopicNamePrefix()
    {
        return topicPrefix;
    }

    @Override
    public CompletableFuture<Void> createTopic(String topic, int partitions)
    {
        final Map<String, String> topicConfig = new HashMap<>();
        config.topicConfig().forEach((k, v) -> topicConfig.put(String.valueOf(k), String.valueOf(v)));
        final NewTopic newTopic = new NewTopic(topic, partitions, (short) config.replicationFactor()).configs(topicConfig);
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
        final KafkaBenchmarkConsumer consumer =
            new KafkaBenchmarkConsumer(topic, new KafkaConsumer<String, byte[]>(properties), callback);
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
