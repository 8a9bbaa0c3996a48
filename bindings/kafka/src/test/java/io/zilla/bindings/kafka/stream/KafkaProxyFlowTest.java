/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaProxyFixture.ADVERTISED_HOST;
import static io.zilla.bindings.kafka.test.KafkaProxyFixture.LOOPBACK;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Requests split byte by byte, and large responses to clients that read slowly: flow control both ways. */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyFlowTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    @Test
    void shouldFollowRequestsWrittenOneByteAtATime(EmbeddedKafka kafka) throws Exception
    {
        proxy.start(kafka);
        final short apiVersionsVersion = 3;
        final short metadataVersion = 12;
        final RequestHeader apiVersionsHeader = new RequestHeader(ApiKeys.API_VERSIONS, apiVersionsVersion, "slow", 1);
        final RequestHeader metadataHeader = new RequestHeader(ApiKeys.METADATA, metadataVersion, "slow", 2);
        final ByteBuffer apiVersions = new ApiVersionsRequest(new ApiVersionsRequestData()
            .setClientSoftwareName("slow").setClientSoftwareVersion("1"), apiVersionsVersion)
            .serializeWithHeader(apiVersionsHeader);
        final ByteBuffer metadata = new MetadataRequest(new MetadataRequestData().setTopics(null), metadataVersion)
            .serializeWithHeader(metadataHeader);

        try (Socket socket = new Socket(LOOPBACK, proxy.bootstrapPort()))
        {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            final OutputStream out = socket.getOutputStream();
            for (ByteBuffer request : List.of(apiVersions, metadata))
            {
                final byte[] frame = ByteBuffer.allocate(Integer.BYTES + request.remaining())
                    .putInt(request.remaining()).put(request).array();
                for (byte octet : frame)
                {
                    out.write(octet);
                    out.flush();
                    Thread.sleep(0, 200_000);
                }
            }

            final DataInputStream in = new DataInputStream(socket.getInputStream());
            final ApiVersionsResponse versions = (ApiVersionsResponse) AbstractResponse.parseResponse(read(in),
                apiVersionsHeader);
            assertEquals(0, versions.data().errorCode());
            assertEquals(KafkaRequestScanner.PRODUCE_MAX_VERSION, versions.apiVersion(ApiKeys.PRODUCE.id).maxVersion());

            final MetadataResponse response = (MetadataResponse) AbstractResponse.parseResponse(read(in), metadataHeader);
            for (Node broker : response.brokers())
            {
                assertEquals(ADVERTISED_HOST, broker.host());
                assertEquals(proxy.nodePort(), broker.port());
            }
            assertEquals(1, response.brokers().size());
        }
    }

    @Test
    void shouldDeliverLargeRecordsToClientsThatReadSlowly(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.create(2);
        final int count = 24;
        final Random random = new Random(0x5eed);
        final Map<String, byte[]> sent = new HashMap<>();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(proxy.clientConfig(Map.of(
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1024 * 1024,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))))
        {
            for (int i = 0; i < count; i++)
            {
                final byte[] value = new byte[256 * 1024 + random.nextInt(128 * 1024)];
                random.nextBytes(value);
                sent.put("key-" + i, value);
                producer.send(new ProducerRecord<>(topic, "key-" + i, value)).get(30, TimeUnit.SECONDS);
            }
        }

        // two consumers at once, each with a tiny socket buffer and a pause between polls
        final ExecutorService executor = Executors.newFixedThreadPool(2);
        try
        {
            final List<Future<Map<String, byte[]>>> results = new ArrayList<>();
            for (int c = 0; c < 2; c++)
            {
                final String group = topic + "-slow-" + c;
                results.add(executor.submit(() -> consumeSlowly(topic, group, count)));
            }
            for (Future<Map<String, byte[]>> result : results)
            {
                final Map<String, byte[]> received = result.get(120, TimeUnit.SECONDS);
                assertEquals(sent.keySet(), received.keySet());
                for (Map.Entry<String, byte[]> entry : sent.entrySet())
                {
                    assertArrayEquals(entry.getValue(), received.get(entry.getKey()), entry.getKey());
                }
            }
        }
        finally
        {
            executor.shutdownNow();
        }
    }

    private Map<String, byte[]> consumeSlowly(String topic, String group, int count) throws InterruptedException
    {
        final Map<String, byte[]> received = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(proxy.clientConfig(Map.of(
            ConsumerConfig.GROUP_ID_CONFIG, group,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.RECEIVE_BUFFER_CONFIG, 4096,
            ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 4 * 1024 * 1024,
            ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 2 * 1024 * 1024,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()))))
        {
            consumer.subscribe(List.of(topic));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(100);
            while (received.size() < count && System.nanoTime() < deadline)
            {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200)))
                {
                    received.put(record.key(), record.value());
                }
                Thread.sleep(20);
            }
        }
        return received;
    }

    private static ByteBuffer read(DataInputStream in) throws Exception
    {
        final byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return ByteBuffer.wrap(frame);
    }
}
