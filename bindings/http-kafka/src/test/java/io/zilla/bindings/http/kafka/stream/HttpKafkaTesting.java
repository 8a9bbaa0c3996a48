/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The Kafka side of the tests, with kafka-clients: read a topic back, answer requests as a responder would. */
final class HttpKafkaTesting
{
    private HttpKafkaTesting()
    {
    }

    /** Every record of {@code topic} from its start, waiting until there are at least {@code count} (or 30 s). */
    static List<ConsumerRecord<byte[], byte[]>> records(EmbeddedKafka kafka, String topic, int count)
    {
        final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafka))
        {
            consumer.subscribe(List.of(topic));
            final long deadline = System.currentTimeMillis() + 30_000;
            while (records.size() < count && System.currentTimeMillis() < deadline)
            {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            if (count == 0 || records.size() >= count)
            {
                // a little longer: what comes after the count is a duplicate the test should see
                consumer.poll(Duration.ofMillis(1_000)).forEach(records::add);
            }
        }
        return records;
    }

    static String header(ConsumerRecord<byte[], byte[]> record, String name)
    {
        final Header header = record.headers().lastHeader(name);
        return header != null && header.value() != null ? new String(header.value(), UTF_8) : null;
    }

    /** How many headers named {@code name} the record has. */
    static int count(ConsumerRecord<byte[], byte[]> record, String name)
    {
        int count = 0;
        for (Header header : record.headers().headers(name))
        {
            count++;
        }
        return count;
    }

    static KafkaConsumer<byte[], byte[]> consumer(EmbeddedKafka kafka)
    {
        final Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + System.nanoTime());
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 << 20);
        return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    static KafkaProducer<byte[], byte[]> producer(EmbeddedKafka kafka)
    {
        final Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 << 20);
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * A service behind Kafka: each request record of {@code requests} is answered on its reply-to topic with the same
     * correlation id, status 201, and the request's value turned upper case.
     */
    static final class Responder implements AutoCloseable
    {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;
        final List<String> answered = new java.util.concurrent.CopyOnWriteArrayList<>();

        Responder(EmbeddedKafka kafka, String requests)
        {
            thread = new Thread(() ->
            {
                try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafka);
                    KafkaProducer<byte[], byte[]> producer = producer(kafka))
                {
                    consumer.subscribe(List.of(requests));
                    while (running.get())
                    {
                        for (ConsumerRecord<byte[], byte[]> request : consumer.poll(Duration.ofMillis(100)))
                        {
                            final String replyTo = header(request, "zilla:reply-to");
                            final String correlationId = header(request, "zilla:correlation-id");
                            final String value = request.value() != null ? new String(request.value(), UTF_8) : "";
                            final ProducerRecord<byte[], byte[]> reply = new ProducerRecord<>(replyTo, request.key(),
                                value.toUpperCase().getBytes(UTF_8));
                            reply.headers().add("zilla:correlation-id", correlationId.getBytes(UTF_8));
                            reply.headers().add(":status", "201".getBytes(UTF_8));
                            reply.headers().add("content-type", "text/plain".getBytes(UTF_8));
                            producer.send(reply);
                            answered.add(correlationId);
                        }
                        producer.flush();
                    }
                }
            }, "responder");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException
        {
            running.set(false);
            thread.join(10_000);
        }
    }
}
