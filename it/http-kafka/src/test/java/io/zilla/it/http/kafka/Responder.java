/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.http.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The service behind a request-reply example, written with kafka-clients as a user would: it reads every request
 * record from the requests topic and produces the answer to the topic its {@code zilla:reply-to} header names, with
 * {@code :status 200}, a content type and the request's {@code zilla:correlation-id} copied verbatim.
 */
final class Responder implements AutoCloseable
{
    static final String REPLY_TO = "zilla:reply-to";
    static final String CORRELATION_ID = "zilla:correlation-id";

    private final String bootstrap;
    private final String requests;
    private final UnaryOperator<String> answer;
    private final List<ConsumerRecord<String, String>> seen = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean closed;

    Responder(String bootstrap, String requests, UnaryOperator<String> answer)
    {
        this.bootstrap = bootstrap;
        this.requests = requests;
        this.answer = answer;
        this.thread = new Thread(this::run, "responder-" + requests);
        thread.setDaemon(true);
    }

    Responder start()
    {
        thread.start();
        return this;
    }

    /** Every request record read so far. */
    List<ConsumerRecord<String, String>> requests()
    {
        return List.copyOf(seen);
    }

    static String header(ConsumerRecord<?, ?> record, String name)
    {
        final Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private void run()
    {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()));
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName())))
        {
            final List<TopicPartition> partitions = consumer.partitionsFor(requests).stream()
                .map(info -> new TopicPartition(requests, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!closed)
            {
                for (ConsumerRecord<String, String> request : consumer.poll(Duration.ofMillis(100)))
                {
                    seen.add(request);
                    final ProducerRecord<String, String> reply =
                        new ProducerRecord<>(header(request, REPLY_TO), request.key(), answer.apply(request.value()));
                    reply.headers().add(":status", "200".getBytes(StandardCharsets.UTF_8));
                    reply.headers().add("content-type", "application/json".getBytes(StandardCharsets.UTF_8));
                    reply.headers().add(CORRELATION_ID, request.headers().lastHeader(CORRELATION_ID).value());
                    producer.send(reply).get(30, TimeUnit.SECONDS);
                }
            }
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (Exception ex)
        {
            if (!closed)
            {
                throw new IllegalStateException("responder on " + requests, ex);
            }
        }
    }

    @Override
    public void close() throws InterruptedException
    {
        closed = true;
        thread.join(10_000);
    }
}
