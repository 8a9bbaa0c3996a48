/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.replyBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.assignments;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.consumerAssignments;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.groupBeginEx;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.offsetFetchBeginEx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.zilla.bindings.kafka.test.KafkaGroupStreams;
import io.zilla.bindings.kafka.test.KafkaGroupStreams.Join;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GROUP streams from the test binding through the kafka client to the shared real broker: members of a consumer group
 * whose leader (the test, on the leader's stream) computes a range assignment, as a KafkaConsumer's would.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientGroupTest
{
    static final Duration WAIT = Duration.ofSeconds(30);
    private static final int PARTITIONS = 8;
    private static final int SESSION_TIMEOUT = 6_000;
    private static final int SHORT_SESSION_TIMEOUT = 2_000;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientGroupTest.class);

    @RegisterExtension
    final EngineExtension other = new EngineExtension().anchor(KafkaClientGroupTest.class);

    @Test
    void shouldAssignEveryPartitionOnceToTwoMembersThenAllToTheOneLeft(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final String group = "group-" + UUID.randomUUID();
        final TestClient app = start(engine, kafka, "client.yaml", "app");

        final Member one = new Member(app, app.open(groupBeginEx(group, "consumer", "range", SESSION_TIMEOUT, null,
            subscription(topic))), topic);
        final Member two = new Member(app, app.open(groupBeginEx(group, "consumer", "range", SESSION_TIMEOUT, null,
            subscription(topic))), topic);
        final List<Member> members = List.of(one, two);
        pump(members, () -> settled(members, 2));

        final List<TopicPartition> first = one.assignment();
        final List<TopicPartition> second = two.assignment();
        assertFalse(first.isEmpty(), "member one has partitions");
        assertFalse(second.isEmpty(), "member two has partitions");
        final Set<TopicPartition> union = new HashSet<>(first);
        union.addAll(second);
        assertEquals(PARTITIONS, first.size() + second.size(), "disjoint");
        assertEquals(allPartitions(topic), union, "together all of them");
        assertEquals(KafkaCapability.GROUP, replyBeginEx(one.stream).kind());
        assertEquals(group, replyBeginEx(one.stream).group().groupId().asString());
        assertEquals(1, members.stream().filter(m -> m.latest().leader()).count(), "one leader");
        final Join leaderJoin = members.stream().filter(m -> m.latest().leader()).findFirst().orElseThrow().latest();
        assertEquals(2, leaderJoin.members().size(), "the leader sees both members");

        ConsumerGroupDescription description = describe(kafka, group);
        assertEquals(2, description.members().size());
        assertEquals(GroupState.STABLE, description.groupState());

        final int generation = one.latest().generationId();
        app.end(two.stream);
        two.stream.await(WAIT, two.stream::ended);
        pump(List.of(one), () -> one.latest().generationId() > generation && one.assignedInLatest());

        assertEquals(generation + 1, one.latest().generationId(), "one rebalance");
        assertEquals(allPartitions(topic), new HashSet<>(one.assignment()), "the member left gets all");
        description = describe(kafka, group);
        assertEquals(1, description.members().size());
        assertEquals(one.latest().memberId(), description.members().iterator().next().consumerId());
        assertFalse(two.stream.reset(), "an End leaves, no Reset");
    }

    @Test
    void shouldShareAGroupWithAKafkaConsumer(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final String group = "group-" + UUID.randomUUID();
        final TestClient app = start(engine, kafka, "client.yaml", "app");

        try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafka, group, SESSION_TIMEOUT))
        {
            consumer.subscribe(List.of(topic));
            final Member zilla = new Member(app, app.open(groupBeginEx(group, "consumer", "range", SESSION_TIMEOUT,
                null, subscription(topic))), topic);
            pump(List.of(zilla), () ->
            {
                consumer.poll(Duration.ofMillis(50));
                return zilla.assignedInLatest() && !consumer.assignment().isEmpty()
                    && zilla.assignment().size() + consumer.assignment().size() == PARTITIONS;
            });

            final Set<TopicPartition> union = new HashSet<>(zilla.assignment());
            union.addAll(consumer.assignment());
            assertFalse(zilla.assignment().isEmpty(), "zilla's member has partitions");
            assertEquals(allPartitions(topic), union, "together all of them, each once");
            final ConsumerGroupDescription description = describe(kafka, group);
            assertEquals(2, description.members().size());
            app.end(zilla.stream);
            zilla.stream.await(WAIT, zilla.stream::ended);
        }
    }

    @Test
    void shouldRebalanceTheOtherMemberWhenOneStopsHeartbeating(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final String group = "group-" + UUID.randomUUID();
        final TestClient app = start(engine, kafka, "client.yaml", "app");
        final TestClient otherApp = start(other, kafka, "client.other.yaml", "other");

        final Member staying = new Member(app, app.open(groupBeginEx(group, "consumer", "range", SHORT_SESSION_TIMEOUT,
            null, subscription(topic))), topic);
        final Member stopping = new Member(otherApp, otherApp.open(groupBeginEx(group, "consumer", "range",
            SHORT_SESSION_TIMEOUT, null, subscription(topic))), topic);
        final List<Member> members = List.of(staying, stopping);
        pump(members, () -> settled(members, 2));
        final int generation = staying.latest().generationId();
        assertNotEquals(PARTITIONS, staying.assignment().size());

        // the other zilla stops: no LeaveGroup, its heartbeats stop, the coordinator expires its session
        other.engine().close();
        final long stopped = System.nanoTime();
        pump(List.of(staying), () -> staying.latest().generationId() > generation && staying.assignedInLatest());

        assertEquals(allPartitions(topic), new HashSet<>(staying.assignment()), "the member left gets all");
        assertTrue(System.nanoTime() - stopped >= TimeUnit.MILLISECONDS.toNanos(SHORT_SESSION_TIMEOUT / 2),
            "removed by its session timeout, not by a leave");
        assertEquals(1, describe(kafka, group).members().size());
        assertFalse(staying.stream.reset());
    }

    @Test
    void shouldJoinAsAStaticMemberAndLeave(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final String group = "group-" + UUID.randomUUID();
        final TestClient app = start(engine, kafka, "client.yaml", "app");
        final Member member = new Member(app, app.open(groupBeginEx(group, "consumer", "range", SESSION_TIMEOUT,
            "zilla-instance-1", subscription(topic))), topic);
        pump(List.of(member), member::assignedInLatest);

        assertEquals(PARTITIONS, member.assignment().size());
        assertEquals(1, member.joins().size(), "one join, one Flush");
        ConsumerGroupDescription description = describe(kafka, group);
        assertEquals(1, description.members().size());
        assertEquals("zilla-instance-1", description.members().iterator().next().groupInstanceId().orElseThrow());

        app.end(member.stream);
        member.stream.await(WAIT, member.stream::ended);
        description = describe(kafka, group);
        assertTrue(description.members().isEmpty(), "the static member left");
    }

    @Test
    void shouldResetAStaticMemberThatAnotherWithItsInstanceIdFenced(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final String group = "group-" + UUID.randomUUID();
        final TestClient app = start(engine, kafka, "client.yaml", "app");
        final Member fenced = new Member(app, app.open(groupBeginEx(group, "consumer", "range", SESSION_TIMEOUT,
            "zilla-instance-1", subscription(topic))), topic);
        pump(List.of(fenced), fenced::assignedInLatest);

        final Member replacing = new Member(app, app.open(groupBeginEx(group, "consumer", "range", SESSION_TIMEOUT,
            "zilla-instance-1", subscription(topic))), topic);
        pump(List.of(fenced, replacing), () -> replacing.assignedInLatest() && fenced.stream.reset());

        assertEquals(Short.valueOf((short) 82), resetError(fenced.stream), "FENCED_INSTANCE_ID");
        assertEquals(PARTITIONS, replacing.assignment().size());
        assertFalse(replacing.stream.reset());
    }

    @Test
    void shouldLeaveWhenTheApplicationAborts(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final String group = "group-" + UUID.randomUUID();
        final TestClient app = start(engine, kafka, "client.yaml", "app");
        final Member member = new Member(app, app.open(groupBeginEx(group, "consumer", "range", 30_000, null,
            subscription(topic))), topic);
        pump(List.of(member), member::assignedInLatest);
        assertEquals(1, describe(kafka, group).members().size());

        final long aborted = System.nanoTime();
        app.abort(member.stream);
        final long deadline = aborted + WAIT.toNanos();
        while (!describe(kafka, group).members().isEmpty() && System.nanoTime() < deadline)
        {
            Thread.sleep(50);
        }
        assertTrue(describe(kafka, group).members().isEmpty(), "left");
        assertTrue(System.nanoTime() - aborted < TimeUnit.SECONDS.toNanos(10), "by a LeaveGroup, long before 30 s");
    }

    @Test
    void shouldResetWithTheErrorOfAnInconsistentProtocol(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final String group = "group-" + UUID.randomUUID();
        final TestClient app = start(engine, kafka, "client.yaml", "app");
        final Member first = new Member(app, app.open(groupBeginEx(group, "consumer", "range", SESSION_TIMEOUT, null,
            subscription(topic))), topic);
        pump(List.of(first), first::assignedInLatest);

        final TestStream second = app.open(groupBeginEx(group, "consumer", "roundrobin", SESSION_TIMEOUT, null,
            subscription(topic)));
        second.await(WAIT, second::reset);

        assertEquals(Short.valueOf((short) 23), resetError(second), "INCONSISTENT_GROUP_PROTOCOL");
        app.end(first.stream);
        first.stream.await(WAIT, first.stream::ended);
    }

    @Test
    void shouldNotHoldUpOtherStreamsBehindAJoinThatWaits(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final String waiting = "group-" + UUID.randomUUID();
        final String other = "group-" + UUID.randomUUID();
        final TestClient app = start(engine, kafka, "client.yaml", "app");

        try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafka, waiting, SESSION_TIMEOUT, 20_000))
        {
            consumer.subscribe(List.of(topic));
            final long deadline = System.nanoTime() + WAIT.toNanos();
            while (consumer.assignment().isEmpty() && System.nanoTime() < deadline)
            {
                consumer.poll(Duration.ofMillis(50));
            }
            assertEquals(PARTITIONS, consumer.assignment().size());

            // the consumer stops polling: a new member's JoinGroup waits at the coordinator until it rejoins
            final Member blocked = new Member(app, app.open(groupBeginEx(waiting, "consumer", "range", SESSION_TIMEOUT,
                null, subscription(topic))), topic);
            final Member free = new Member(app, app.open(groupBeginEx(other, "consumer", "range", SESSION_TIMEOUT,
                null, subscription(topic))), topic);
            final TestStream offsets = app.open(offsetFetchBeginEx(waiting, topic, 0));
            pump(List.of(blocked, free), Duration.ofSeconds(10), () -> free.assignedInLatest() && offsets.ended());
            assertTrue(blocked.joins().isEmpty(), "the JoinGroup of the blocked member still waits");
            assertEquals(PARTITIONS, free.assignment().size());

            pump(List.of(blocked), () ->
            {
                consumer.poll(Duration.ofMillis(50));
                return blocked.assignedInLatest();
            });
            assertFalse(blocked.assignment().isEmpty());
        }
    }

    private static TestClient start(EngineExtension engine, EmbeddedKafka kafka, String config, String binding)
    {
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start(config);
        return TestBinding.client(binding);
    }

    // every member joined the same generation, and got its assignment for it
    private static boolean settled(List<Member> members, int size)
    {
        final Set<Integer> generations = new HashSet<>();
        boolean assigned = true;
        for (Member member : members)
        {
            assigned &= member.assignedInLatest();
            generations.add(member.joins().isEmpty() ? -1 : member.latest().generationId());
        }
        return assigned && generations.size() == 1 && members.size() == size;
    }

    static void pump(List<Member> members, BooleanSupplier done) throws InterruptedException
    {
        pump(members, WAIT, done);
    }

    /** Answers each member's joins until {@code done}, or fails after {@code timeout}. */
    static void pump(List<Member> members, Duration timeout, BooleanSupplier done) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean())
        {
            for (Member member : members)
            {
                member.answer();
            }
            if (System.nanoTime() > deadline)
            {
                final StringBuilder frames = new StringBuilder();
                members.forEach(m -> frames.append(m.stream.frames()).append(' ').append(m.joins()).append('\n'));
                throw new AssertionError("timed out; frames so far:\n" + frames);
            }
            Thread.sleep(20);
        }
    }

    static byte[] subscription(String topic)
    {
        return bytes(ConsumerProtocol.serializeSubscription(new ConsumerPartitionAssignor.Subscription(List.of(topic))));
    }

    private static Set<TopicPartition> allPartitions(String topic)
    {
        final Set<TopicPartition> partitions = new HashSet<>();
        for (int i = 0; i < PARTITIONS; i++)
        {
            partitions.add(new TopicPartition(topic, i));
        }
        return partitions;
    }

    private static ConsumerGroupDescription describe(EmbeddedKafka kafka, String group) throws Exception
    {
        try (Admin admin = kafka.admin())
        {
            return admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get(20, TimeUnit.SECONDS);
        }
    }

    static KafkaConsumer<byte[], byte[]> consumer(EmbeddedKafka kafka, String group, int sessionTimeout)
    {
        return consumer(kafka, group, sessionTimeout, 300_000);
    }

    static KafkaConsumer<byte[], byte[]> consumer(EmbeddedKafka kafka, String group, int sessionTimeout, int maxPollInterval)
    {
        final Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, sessionTimeout);
        config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, sessionTimeout / 3);
        config.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, maxPollInterval);
        config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return new KafkaConsumer<>(config);
    }

    private static byte[] bytes(ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /**
     * A group member as the test plays it: after each join it answers with its initial Data, the range assignment of
     * the join's members when it leads, empty when it follows.
     */
    static final class Member
    {
        final TestClient app;
        final TestStream stream;
        final String topic;
        private int answered;

        Member(TestClient app, TestStream stream, String topic)
        {
            this.app = app;
            this.stream = stream;
            this.topic = topic;
        }

        List<Join> joins()
        {
            return KafkaGroupStreams.joins(stream);
        }

        Join latest()
        {
            final List<Join> joins = joins();
            return joins.get(joins.size() - 1);
        }

        boolean assignedInLatest()
        {
            return !joins().isEmpty() && consumerAssignments(stream).containsKey(latest().generationId());
        }

        List<TopicPartition> assignment()
        {
            return consumerAssignments(stream).get(latest().generationId());
        }

        void answer()
        {
            final List<Join> joins = joins();
            if (joins.size() > answered && !stream.reset() && !stream.ended())
            {
                answered = joins.size();
                final Join join = joins.get(joins.size() - 1);
                app.send(stream, join.leader() ? assignments(rangeAssignment(join.members(), topic)) : new byte[0], null,
                    0x03);
            }
        }

        // the range assignor's split of the topic over the members sorted by id (every member subscribes to it)
        private static Map<String, byte[]> rangeAssignment(Map<String, byte[]> members, String topic)
        {
            final List<String> ids = new ArrayList<>(new TreeMap<>(members).keySet());
            final Map<String, byte[]> assignments = new LinkedHashMap<>();
            int partition = 0;
            for (int i = 0; i < ids.size(); i++)
            {
                final int count = PARTITIONS / ids.size() + (i < PARTITIONS % ids.size() ? 1 : 0);
                final Collection<TopicPartition> partitions = new ArrayList<>();
                for (int j = 0; j < count; j++)
                {
                    partitions.add(new TopicPartition(topic, partition++));
                }
                assignments.put(ids.get(i), bytes(ConsumerProtocol.serializeAssignment(
                    new ConsumerPartitionAssignor.Assignment(List.copyOf(partitions)))));
            }
            return assignments;
        }
    }
}
