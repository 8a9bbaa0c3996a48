/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.time.Duration;
import java.util.Collections;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;

/**
 * Run by {@link KafkaProxyLegacyClientTest} in a child JVM whose class path holds an older kafka-clients (3.x) and
 * this class only, so it uses only what 3.x and 4.x have in common. Arguments: bootstrap servers, topic, record count.
 * Prints {@code version} (of the kafka-clients it runs on), {@code loaded} (the jar {@code KafkaProducer} came from),
 * one {@code node} line per cluster node, one {@code produced} and {@code consumed} line per record, then
 * {@code done}; exits 0 when every record came back, 1 when not, 2 on an exception.
 */
public final class KafkaProxyLegacyClientMain
{
    private static final long TIMEOUT_SECONDS = 30;

    private KafkaProxyLegacyClientMain()
    {
    }

    public static void main(String[] args)
    {
        int status;
        try
        {
            status = run(args[0], args[1], Integer.parseInt(args[2]));
        }
        catch (Exception ex)
        {
            ex.printStackTrace(System.out);
            status = 2;
        }
        System.out.flush();
        System.exit(status);
    }

    private static int run(String bootstrap, String topic, int count) throws Exception
    {
        // AppInfoParser moved to common.utils.internals in 4.x: what this finds is 3.x, or it fails
        final Object version = Class.forName("org.apache.kafka.common.utils.AppInfoParser").getMethod("getVersion")
            .invoke(null);
        System.out.println("version " + version);
        System.out.println("loaded " + KafkaProducer.class.getProtectionDomain().getCodeSource().getLocation().getPath());

        final Properties adminConfig = new Properties();
        adminConfig.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(adminConfig))
        {
            for (Node node : admin.describeCluster().nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
            {
                System.out.println("node " + node.id() + " " + node.host() + ":" + node.port());
            }
        }

        final Properties producerConfig = new Properties();
        producerConfig.put("bootstrap.servers", bootstrap);
        producerConfig.put("acks", "all");
        producerConfig.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        producerConfig.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig))
        {
            for (int i = 0; i < count; i++)
            {
                final RecordMetadata metadata = producer.send(new ProducerRecord<>(topic, "key-" + i, "value-" + i))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                System.out.println("produced key-" + i + " value-" + i + " " + metadata.partition() + " "
                    + metadata.offset());
            }
        }

        final Properties consumerConfig = new Properties();
        consumerConfig.put("bootstrap.servers", bootstrap);
        consumerConfig.put("group.id", topic + "-group");
        consumerConfig.put("auto.offset.reset", "earliest");
        consumerConfig.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        consumerConfig.put("value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        int consumed = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig))
        {
            consumer.subscribe(Collections.singletonList(topic));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2 * TIMEOUT_SECONDS);
            while (consumed < count && System.nanoTime() < deadline)
            {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500)))
                {
                    System.out.println("consumed " + record.key() + " " + record.value() + " " + record.partition()
                        + " " + record.offset());
                    consumed++;
                }
            }
            consumer.commitSync();
        }
        System.out.println("done");
        return consumed == count ? 0 : 1;
    }
}
