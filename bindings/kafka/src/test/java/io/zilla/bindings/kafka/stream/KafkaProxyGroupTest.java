/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An idempotent producer and a consumer group of two, through the proxy: one consumer starts, a second joins (the
 * first pauses, so the second consumes some), the second leaves and the first takes every partition back; with
 * committed offsets every record produced is consumed exactly once with its key, value, headers, partition and
 * offset. With both group protocols: classic (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) and consumer (KIP-848,
 * ConsumerGroupHeartbeat).
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyGroupTest
{
    private static final int TOPICS = 3;
    private static final int PARTITIONS = 8;
    private static final int RECORDS_PER_TOPIC = 100;
    private static final int RECORDS = TOPICS * RECORDS_PER_TOPIC;
    private static final Duration POLL = Duration.ofMillis(100);
    private static final long TIMEOUT_SECONDS = 60;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    /** What a record is, as produced or consumed. */
    record Sample(String topic, int partition, long offset, String key, String value, List<String> headers)
    {
        static Sample of(ConsumerRecord<String, String> record)
        {
            return new Sample(record.topic(), record.partition(), record.offset(), record.key(), record.value(),
                headerList(record.headers()));
        }
    }

    /** One member of the group with what it consumed and every partition it was ever assigned. */
    private static final class Member implements ConsumerRebalanceListener
    {
        final String name;
        final KafkaConsumer<String, String> consumer;
        final Set<TopicPartition> everAssigned = new HashSet<>();
        final List<Sample> received = new ArrayList<>();
        boolean paused;

        Member(String name, KafkaConsumer<String, String> consumer)
        {
            this.name = name;
            this.consumer = consumer;
        }

        void poll()
        {
            for (ConsumerRecord<String, String> record : consumer.poll(POLL))
            {
                received.add(Sample.of(record));
            }
            if (paused)
            {
                consumer.pause(consumer.assignment());
            }
            commit();
        }

        void commit()
        {
            try
            {
                consumer.commitSync(Duration.ofSeconds(20));
            }
            catch (RebalanceInProgressException ex)
            {
                // committed in onPartitionsRevoked instead, before the partitions move
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions)
        {
            if (!partitions.isEmpty())
            {
                consumer.commitSync(Duration.ofSeconds(20));
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions)
        {
            everAssigned.addAll(partitions);
            if (paused)
            {
                consumer.pause(partitions);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GroupProtocol.class)
    void shouldConsumeEveryRecordAcrossRebalances(GroupProtocol protocol, EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        proxy.start(kafka);
        final List<String> names = new ArrayList<>();
        for (int t = 0; t < TOPICS; t++)
        {
            // every invocation of a parameterized test gets the same KafkaTopics prefix
            final String name = topics.name() + "-" + protocol;
            kafka.createTopic(name, PARTITIONS);
            names.add(name);
        }

        final Map<String, Sample> produced = produce(names);
        final Set<TopicPartition> written = new HashSet<>();
        produced.values().forEach(s -> written.add(new TopicPartition(s.topic(), s.partition())));
        assertEquals(TOPICS * PARTITIONS, written.size(), "the keys spread over every partition");

        final String group = names.get(0) + "-group";
        final Map<String, Sample> consumed = new HashMap<>();
        int duplicates = 0;
        final Member first = new Member("first", consumer(protocol, group, "first"));
        try
        {
            // the first member alone consumes part of the records
            first.consumer.subscribe(names, first);
            await("first consumes a part", () ->
            {
                first.poll();
                return first.received.size() >= RECORDS / 4;
            });
            first.paused = true;
            first.consumer.pause(first.consumer.assignment());

            // the second joins: both must poll for the rebalance to finish; the first stays paused
            final Member second = new Member("second", consumer(protocol, group, "second"));
            try
            {
                second.consumer.subscribe(names, second);
                await("second joins and consumes", () ->
                {
                    first.poll();
                    second.poll();
                    final Set<TopicPartition> a = first.consumer.assignment();
                    final Set<TopicPartition> b = second.consumer.assignment();
                    final Set<TopicPartition> both = new HashSet<>(a);
                    both.addAll(b);
                    return !a.isEmpty() && !b.isEmpty() && both.size() == TOPICS * PARTITIONS
                        && a.size() + b.size() == both.size() && second.received.size() >= RECORDS / 8;
                });

                // the second leaves (close commits nothing more: every poll was committed)
            }
            finally
            {
                second.consumer.close(Duration.ofSeconds(20));
            }

            // the first takes every partition back and consumes the rest from the committed offsets
            first.paused = false;
            first.consumer.resume(first.consumer.assignment());
            await("first consumes the rest", () ->
            {
                first.poll();
                return first.consumer.assignment().size() == TOPICS * PARTITIONS
                    && first.received.size() + second.received.size() >= RECORDS;
            });

            assertFalse(first.everAssigned.isEmpty(), "first was assigned partitions");
            assertFalse(second.everAssigned.isEmpty(), "second was assigned partitions");
            assertFalse(second.received.isEmpty(), "second consumed records");
            for (Member member : List.of(first, second))
            {
                for (Sample sample : member.received)
                {
                    final String key = sample.key();
                    assertEquals(produced.get(key), sample, member.name + " received " + key + " as produced");
                    if (consumed.put(key, sample) != null)
                    {
                        duplicates++;
                    }
                }
            }
        }
        finally
        {
            first.consumer.close(Duration.ofSeconds(20));
        }
        assertEquals(produced.keySet(), consumed.keySet(), "every record consumed");
        assertEquals(produced, consumed);
        assertEquals(0, duplicates, "no record consumed twice: every offset was committed before its partition moved");
    }

    private Map<String, Sample> produce(List<String> names) throws Exception
    {
        final Map<String, ProducerRecord<String, String>> records = new HashMap<>();
        final Map<String, Future<RecordMetadata>> futures = new HashMap<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(proxy.clientConfig(Map.of(
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
            ProducerConfig.LINGER_MS_CONFIG, 5,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 45_000,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))))
        {
            for (int i = 0; i < RECORDS; i++)
            {
                final String topic = names.get(i % TOPICS);
                final String key = "key-" + i;
                final String value = "value-" + i + "-" + "v".repeat(i * 37 % 3000);
                final Headers headers = new RecordHeaders()
                    .add("index", String.valueOf(i).getBytes(UTF_8))
                    .add("binary", new byte[] {0, (byte) 0xff, (byte) i, (byte) (i >> 8)})
                    .add("empty", new byte[0])
                    .add("null", null)
                    .add("index", ("again-" + i).getBytes(UTF_8));
                final ProducerRecord<String, String> record = new ProducerRecord<>(topic, null, key, value, headers);
                records.put(key, record);
                futures.put(key, producer.send(record));
            }
            producer.flush();
        }
        final Map<String, Sample> produced = new HashMap<>();
        for (Map.Entry<String, Future<RecordMetadata>> entry : futures.entrySet())
        {
            final RecordMetadata metadata = entry.getValue().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            final ProducerRecord<String, String> record = records.get(entry.getKey());
            assertEquals(record.topic(), metadata.topic());
            assertTrue(metadata.hasOffset());
            produced.put(entry.getKey(), new Sample(metadata.topic(), metadata.partition(), metadata.offset(), record.key(),
                record.value(), headerList(record.headers())));
        }
        return produced;
    }

    // classic: JoinGroup, SyncGroup, Heartbeat, LeaveGroup; consumer (KIP-848): ConsumerGroupHeartbeat, the broker assigns
    private KafkaConsumer<String, String> consumer(GroupProtocol protocol, String group, String clientId)
    {
        final Map<String, Object> config = new HashMap<>(Map.of(
            ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol.name().toLowerCase(Locale.ROOT),
            ConsumerConfig.GROUP_ID_CONFIG, group,
            ConsumerConfig.CLIENT_ID_CONFIG, group + "-" + clientId,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()));
        if (protocol == GroupProtocol.CLASSIC)
        {
            // the consumer protocol takes both from the broker
            config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
            config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        }
        return new KafkaConsumer<>(proxy.clientConfig(config));
    }

    private static List<String> headerList(Headers headers)
    {
        final List<String> list = new ArrayList<>();
        for (Header header : headers)
        {
            final byte[] value = header.value();
            list.add(header.key() + "=" + (value == null ? "null" : Base64.getEncoder().encodeToString(value)));
        }
        return list;
    }

    private static void await(String what, BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        boolean done = false;
        while (!done && System.nanoTime() < deadline)
        {
            try
            {
                done = condition.getAsBoolean();
            }
            catch (KafkaException ex)
            {
                throw new AssertionError(what + ": " + ex, ex);
            }
        }
        assertTrue(done, what + " within " + TIMEOUT_SECONDS + " s");
    }
}
