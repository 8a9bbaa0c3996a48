/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaProxyFixture.ADVERTISED_HOST;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** kafka-clients 4.4 through tcp server, kafka proxy and tcp client to a real broker. */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    @Test
    void shouldAdvertiseOnlyProxyAddresses(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.create(8);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, proxy.bootstrapServers())))
        {
            final DescribeClusterResult cluster = admin.describeCluster();
            final Collection<Node> nodes = cluster.nodes().get(20, TimeUnit.SECONDS);
            assertEquals(1, nodes.size());
            for (Node node : nodes)
            {
                assertEquals(ADVERTISED_HOST, node.host());
                assertEquals(proxy.nodePort(), node.port());
            }
            final Node controller = cluster.controller().get(20, TimeUnit.SECONDS);
            assertEquals(proxy.nodePort(), controller.port());

            final TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                .get(20, TimeUnit.SECONDS).get(topic);
            assertEquals(8, description.partitions().size());
            for (TopicPartitionInfo partition : description.partitions())
            {
                assertEquals(ADVERTISED_HOST, partition.leader().host());
                assertEquals(proxy.nodePort(), partition.leader().port());
            }
        }
    }

    @Test
    void shouldProduceAndConsumeThroughProxy(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.create(8);
        final String bootstrap = proxy.bootstrapServers();
        final Map<String, String> sent = new HashMap<>();
        final Map<String, Integer> partitions = new HashMap<>();

        final Properties producerConfig = new Properties();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig))
        {
            for (int i = 0; i < 100; i++)
            {
                final String key = "key-" + i;
                final String value = "value-" + i + "-" + "x".repeat(i * 10);
                final int partition = producer.send(new ProducerRecord<>(topic, key, value)).get(20, TimeUnit.SECONDS)
                    .partition();
                sent.put(key, value);
                partitions.put(key, partition);
            }
        }

        final Properties consumerConfig = new Properties();
        consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, topic + "-group");
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        final Map<String, String> received = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig))
        {
            consumer.subscribe(List.of(topic));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received.size() < sent.size() && System.nanoTime() < deadline)
            {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500)))
                {
                    received.put(record.key(), record.value());
                    assertEquals(partitions.get(record.key()), record.partition());
                }
            }
        }
        assertEquals(sent, received);
    }
}
