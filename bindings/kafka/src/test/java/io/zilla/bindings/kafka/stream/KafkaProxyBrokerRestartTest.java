/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.bindings.kafka.test.KafkaRecords;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A broker killed with SIGKILL under load and restarted on the same ports and data, behind the proxy: an idempotent
 * acks=all producer recovers through the proxy, and a consumer through the proxy finds every acknowledged record
 * exactly once. With a single broker, replication factor 1 and the default flush settings (the broker leaves
 * flushing to the OS), a killed process loses nothing it acknowledged: its writes are in the page cache, which only
 * an OS crash would lose. The broker is this test's own, not the shared one.
 */
class KafkaProxyBrokerRestartTest
{
    private static final String TOPIC = "restart";
    private static final int PARTITIONS = 4;
    private static final long SEND_INTERVAL_MILLIS = 5;
    private static final int ACKED_BEFORE_KILL = 300;
    private static final int ACKED_AFTER_RESTART = 200;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    /**
     * {@code rebootstrap} (kafka-clients 4.x's default) drops the metadata once the only broker is gone, so
     * {@code send()} blocks until the proxy's bootstrap answers again; {@code none} keeps it, so records pile up in the
     * producer during the outage and are retried when the broker is back.
     */
    @ParameterizedTest(name = "metadata.recovery.strategy={0}")
    @ValueSource(strings = { "rebootstrap", "none" })
    void shouldKeepEveryAcknowledgedRecordAcrossBrokerKill(String recovery) throws Exception
    {
        final String name = getClass().getSimpleName() + "[" + recovery + "]";
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            kafka.createTopic(TOPIC, PARTITIONS);
            proxy.start(kafka);

            final Load load;
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(proxy.clientConfig(producerConfig(recovery))))
            {
                load = new Load(producer);
                final Thread sender = new Thread(load, "restart-test-producer");
                sender.start();
                try
                {
                    load.await(() -> load.acked.size() >= ACKED_BEFORE_KILL, "acknowledgements before the kill");

                    final long seqAtKill = load.sent.get();
                    final long killed = System.nanoTime();
                    kafka.kill();
                    kafka.restart();
                    final long restarted = System.nanoTime();
                    final long seqAtRestart = load.sent.get();

                    // recovered: records sent only after the broker came back are acknowledged through the proxy
                    load.await(() -> load.ackedFrom(seqAtRestart) >= ACKED_AFTER_RESTART, "acknowledgements after restart");
                    System.out.printf("%s: broker down %d ms, %d sent meanwhile, %d acknowledged after restart within %d ms,"
                        + " longest send() %d ms%n", name, NANOSECONDS.toMillis(restarted - killed),
                        seqAtRestart - seqAtKill, ACKED_AFTER_RESTART, NANOSECONDS.toMillis(System.nanoTime() - restarted),
                        NANOSECONDS.toMillis(load.longestSend));
                }
                finally
                {
                    load.stop = true;
                    sender.join(SECONDS.toMillis(30));
                }
                assertFalse(sender.isAlive(), "the producer thread ended");
                producer.flush();
            }
            final long sent = load.sent.get();
            assertEquals(sent, load.acked.size() + load.failed.size(), "every send completed, acknowledged or failed");

            final List<ConsumerRecord<String, String>> records =
                KafkaRecords.readAll(proxy.bootstrapServers(), TOPIC, WAIT);
            System.out.printf("%s: sent %d, acknowledged %d, failed %d, consumed %d%n", name,
                sent, load.acked.size(), load.failed.size(), records.size());

            final Map<String, Integer> copies = new HashMap<>();
            final Map<Integer, List<Long>> sequences = new TreeMap<>();
            for (ConsumerRecord<String, String> record : records)
            {
                assertEquals("value-" + record.key(), record.value(), KafkaRecords.describe(record));
                copies.merge(record.key(), 1, Integer::sum);
                sequences.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(sequence(record.key()));
            }
            final List<String> lost = new ArrayList<>();
            final List<String> duplicated = new ArrayList<>();
            for (String key : load.acked.keySet())
            {
                final int count = copies.getOrDefault(key, 0);
                if (count == 0)
                {
                    lost.add(key);
                }
                else if (count > 1)
                {
                    duplicated.add(key + " x" + count);
                }
            }
            final Set<String> unknown = new TreeSet<>(copies.keySet());
            unknown.removeAll(load.acked.keySet());
            unknown.removeAll(load.failed.keySet());

            assertEquals(List.of(), lost, "acknowledged records missing");
            assertEquals(List.of(), duplicated, "acknowledged records written twice despite idempotence");
            assertEquals(Set.of(), unknown, "records never sent");
            // the outage is far shorter than delivery.timeout.ms: every record is acknowledged in the end
            assertEquals(Map.of(), load.failed, "failed sends");
            for (Map.Entry<Integer, List<Long>> partition : sequences.entrySet())
            {
                final List<Long> order = partition.getValue();
                for (int i = 1; i < order.size(); i++)
                {
                    final int index = i;
                    assertTrue(order.get(index - 1) < order.get(index),
                        () -> "partition " + partition.getKey() + " out of order at " + index + ": "
                            + order.subList(Math.max(0, index - 5), Math.min(order.size(), index + 5)));
                }
            }
        }
    }

    private static Map<String, Object> producerConfig(String recovery)
    {
        final Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.METADATA_RECOVERY_STRATEGY_CONFIG, recovery);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 90_000);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        config.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 100);
        config.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, 100);
        config.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1_000);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return config;
    }

    private static long sequence(String key)
    {
        return Long.parseLong(key.substring("key-".length()));
    }

    /** Sends {@code key-<n>} at a modest rate until stopped; each send ends in {@code acked} or {@code failed}. */
    private static final class Load implements Runnable
    {
        final AtomicLong sent = new AtomicLong();
        final Map<String, Long> acked = new ConcurrentHashMap<>();
        final Map<String, Exception> failed = new ConcurrentHashMap<>();
        final KafkaProducer<String, String> producer;
        volatile boolean stop;
        volatile long longestSend;

        Load(KafkaProducer<String, String> producer)
        {
            this.producer = producer;
        }

        @Override
        public void run()
        {
            try
            {
                while (!stop)
                {
                    final long seq = sent.get();
                    final String key = "key-" + seq;
                    final long start = System.nanoTime();
                    try
                    {
                        producer.send(new ProducerRecord<>(TOPIC, key, "value-" + key), (metadata, ex) ->
                        {
                            if (ex == null)
                            {
                                acked.put(key, seq);
                            }
                            else
                            {
                                failed.put(key, ex);
                            }
                        });
                    }
                    catch (RuntimeException ex)
                    {
                        failed.put(key, ex);
                    }
                    longestSend = Math.max(longestSend, System.nanoTime() - start);
                    sent.incrementAndGet();
                    Thread.sleep(SEND_INTERVAL_MILLIS);
                }
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }

        long ackedFrom(long seq)
        {
            return acked.values().stream().filter(s -> s >= seq).count();
        }

        void await(BooleanSupplier condition, String what) throws InterruptedException
        {
            final long deadline = System.nanoTime() + WAIT.toNanos();
            while (!condition.getAsBoolean() && System.nanoTime() < deadline)
            {
                Thread.sleep(50);
            }
            assertTrue(condition.getAsBoolean(), () -> "no " + what + " within " + WAIT + ": sent " + sent.get()
                + ", acknowledged " + acked.size() + ", failed " + failed.size()
                + failed.values().stream().findFirst().map(ex -> " (" + ex + ")").orElse(""));
        }
    }
}
