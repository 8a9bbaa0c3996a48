/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaProxyFixture.ADVERTISED_HOST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Admin through the proxy: topics created, listed, described and deleted; every node it is told of (cluster nodes,
 * controller, partition leaders, replicas and isr, a group's coordinator) is the proxy's, never the broker's.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyAdminTest
{
    private static final long TIMEOUT_SECONDS = 30;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    @Test
    void shouldCreateListDescribeAndDeleteTopics(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String three = topics.name();
        final String five = topics.name();
        try (Admin admin = Admin.create(proxy.adminConfig()))
        {
            final DescribeClusterResult cluster = admin.describeCluster();
            final Collection<Node> nodes = cluster.nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertEquals(1, nodes.size());
            nodes.forEach(node -> assertProxyNode(kafka, node));
            assertProxyNode(kafka, cluster.controller().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));

            admin.createTopics(List.of(new NewTopic(three, 3, (short) 1), new NewTopic(five, 5, (short) 1)))
                .all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            // createTopics completes once the controller has them; the broker's metadata, which listTopics reads, may
            // follow a moment later (a full build saw the topics missing from a list made at once)
            final long listDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            Set<String> listed = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            while (!listed.containsAll(List.of(three, five)) && System.nanoTime() < listDeadline)
            {
                Thread.sleep(100);
                listed = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            assertTrue(listed.containsAll(List.of(three, five)), "listed " + listed);

            admin.createPartitions(Map.of(five, NewPartitions.increaseTo(6))).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            final Map<String, TopicDescription> described = awaitDescribed(admin, Map.of(three, 3, five, 6));
            for (TopicDescription description : described.values())
            {
                assertFalse(description.isInternal());
                for (TopicPartitionInfo partition : description.partitions())
                {
                    assertProxyNode(kafka, partition.leader());
                    assertEquals(1, partition.replicas().size());
                    partition.replicas().forEach(node -> assertProxyNode(kafka, node));
                    assertEquals(1, partition.isr().size());
                    partition.isr().forEach(node -> assertProxyNode(kafka, node));
                }
            }

            admin.deleteTopics(List.of(three, five)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            Set<String> remaining = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            while ((remaining.contains(three) || remaining.contains(five)) && System.nanoTime() < deadline)
            {
                Thread.sleep(100);
                remaining = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            assertFalse(remaining.contains(three), "deleted " + three);
            assertFalse(remaining.contains(five), "deleted " + five);
        }
    }

    @Test
    void shouldDescribeConsumerGroupAtProxyCoordinator(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.create(4);
        final String group = topic + "-group";
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(proxy.clientConfig(Map.of(
            ConsumerConfig.GROUP_ID_CONFIG, group,
            ConsumerConfig.CLIENT_ID_CONFIG, group + "-member",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName())));
            Admin admin = Admin.create(proxy.adminConfig()))
        {
            consumer.subscribe(List.of(topic));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            while (consumer.assignment().size() < 4 && System.nanoTime() < deadline)
            {
                consumer.poll(Duration.ofMillis(100));
            }
            assertEquals(4, consumer.assignment().size());
            final Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
            consumer.assignment().forEach(partition -> commits.put(partition, new OffsetAndMetadata(0, "admin-test")));
            consumer.commitSync(commits, Duration.ofSeconds(TIMEOUT_SECONDS));

            final ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group))
                .describedGroups().get(group).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertEquals(group, description.groupId());
            assertProxyNode(kafka, description.coordinator());
            final Collection<MemberDescription> members = description.members();
            assertEquals(1, members.size());
            final MemberDescription member = members.iterator().next();
            assertEquals(group + "-member", member.clientId());
            final List<TopicPartition> assigned = new ArrayList<>(member.assignment().topicPartitions());
            assertEquals(4, assigned.size());

            assertEquals(consumer.assignment(), Set.copyOf(assigned));
            final Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertEquals(commits, offsets);
        }
    }

    private static Map<String, TopicDescription> awaitDescribed(Admin admin, Map<String, Integer> partitions) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        Map<String, TopicDescription> described = Map.of();
        boolean done = false;
        while (!done && System.nanoTime() < deadline)
        {
            described = admin.describeTopics(partitions.keySet()).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            done = true;
            for (Map.Entry<String, Integer> entry : partitions.entrySet())
            {
                done &= described.get(entry.getKey()).partitions().size() == entry.getValue();
            }
            if (!done)
            {
                Thread.sleep(100);
            }
        }
        assertTrue(done, "described " + described);
        return described;
    }

    private void assertProxyNode(EmbeddedKafka kafka, Node node)
    {
        assertEquals(ADVERTISED_HOST, node.host(), node.toString());
        assertEquals(proxy.nodePort(), node.port(), node.toString());
        assertNotEquals(kafka.port(), node.port(), node.toString());
        assertEquals(1, node.id(), node.toString());
    }
}
