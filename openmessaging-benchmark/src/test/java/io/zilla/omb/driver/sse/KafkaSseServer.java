/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A small SSE server over Kafka for the driver's tests (a stand-in for zilla's sse-kafka, written with the JDK's
 * HTTP server: chunked {@code text/event-stream}): {@code GET /<topic>} streams every record of the topic from the
 * time of the request as one event ({@code id:} its index, {@code data:} its value), or from after {@code
 * Last-Event-ID}. It sends {@code retry: 100} first, a comment, and each event in two writes split inside its data
 * line, so that the client sees chunk boundaries anywhere. With {@link #dropAfter}, each connection's response ends
 * after that many events (once per connection, the reconnection then streams on).
 */
public final class KafkaSseServer implements AutoCloseable
{
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final String bootstrap;
    private final Map<String, List<byte[]>> topics = new ConcurrentHashMap<>();
    private final List<Thread> readers = new CopyOnWriteArrayList<>();
    private final List<String> lastEventIds = new CopyOnWriteArrayList<>();
    private final AtomicInteger drops = new AtomicInteger();
    private volatile int dropAfter = Integer.MAX_VALUE;
    private volatile boolean running = true;

    private final boolean anyTopic;

    /** A server of the topics it is told to {@link #read}; others are 404. */
    KafkaSseServer(String bootstrap) throws IOException
    {
        this(bootstrap, false);
    }

    /** With {@code anyTopic}, a server that starts reading a topic at its first request (a topic that exists). */
    public KafkaSseServer(String bootstrap, boolean anyTopic) throws IOException
    {
        this.bootstrap = bootstrap;
        this.anyTopic = anyTopic;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        server.createContext("/", this::stream);
        server.setExecutor(executor);
        server.start();
    }

    public String url()
    {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/{topic}";
    }

    void dropAfter(int events)
    {
        dropAfter = events;
    }

    /** The Last-Event-ID headers of the requests so far. */
    List<String> lastEventIds()
    {
        return lastEventIds;
    }

    int drops()
    {
        return drops.get();
    }

    /** Starts reading {@code topic} (of {@code partitions}) from its beginning. */
    void read(String topic, int partitions)
    {
        topics.put(topic, startReading(topic, partitions));
    }

    private List<byte[]> startReading(String topic, int partitions)
    {
        final List<byte[]> records = new ArrayList<>();
        final Thread reader = new Thread(() ->
        {
            final Properties properties = new Properties();
            properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer()))
            {
                final List<TopicPartition> assigned = new ArrayList<>();
                for (int p = 0; p < partitions; p++)
                {
                    assigned.add(new TopicPartition(topic, p));
                }
                consumer.assign(assigned);
                consumer.seekToBeginning(assigned);
                while (running)
                {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50)))
                    {
                        synchronized (records)
                        {
                            records.add(record.value());
                            records.notifyAll();
                        }
                    }
                }
            }
        }, "kafka-sse-server-" + topic);
        reader.setDaemon(true);
        readers.add(reader);
        reader.start();
        return records;
    }

    private int partitions(String topic)
    {
        final Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaConsumer<byte[], byte[]> consumer =
            new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer()))
        {
            return consumer.partitionsFor(topic).size();
        }
    }

    @Override
    public void close()
    {
        running = false;
        server.stop(0);
        executor.shutdownNow();
        for (Thread reader : readers)
        {
            try
            {
                reader.join(5_000);
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void stream(HttpExchange exchange) throws IOException
    {
        final String topic = exchange.getRequestURI().getPath().substring(1);
        final List<byte[]> records = anyTopic ? topics.computeIfAbsent(topic, t -> startReading(t, partitions(t)))
            : topics.get(topic);
        if (records == null || !"text/event-stream".equals(exchange.getRequestHeaders().getFirst("Accept")))
        {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
        }
        final String lastEventId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
        int next;
        if (lastEventId != null)
        {
            lastEventIds.add(lastEventId);
            next = Integer.parseInt(lastEventId) + 1;
        }
        else
        {
            synchronized (records)
            {
                next = records.size();
            }
        }
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        final boolean dropping = lastEventId == null;
        int sent = 0;
        try (OutputStream out = exchange.getResponseBody())
        {
            out.write("retry: 100\n: hello\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            while (running)
            {
                final byte[] value;
                synchronized (records)
                {
                    while (running && next >= records.size())
                    {
                        records.wait(100);
                    }
                    if (!running)
                    {
                        break;
                    }
                    value = records.get(next);
                }
                final String data = new String(value, StandardCharsets.UTF_8);
                final int half = data.length() / 2;
                out.write(("id: " + next + "\r\ndata: " + data.substring(0, half)).getBytes(StandardCharsets.UTF_8));
                out.flush();
                out.write((data.substring(half) + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                next++;
                if (dropping && ++sent == dropAfter)
                {
                    drops.incrementAndGet();
                    break;
                }
            }
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (IOException ex)
        {
            // the client went away
        }
    }
}
