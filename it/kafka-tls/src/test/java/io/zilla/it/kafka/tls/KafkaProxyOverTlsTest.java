/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.kafka.tls;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * kafka-clients over SSL through zilla to the shared broker's PLAINTEXT listener: tcp server -> tls server (the
 * wildcard key of {@code *.kafka.localhost} from a filesystem vault) -> kafka proxy in SNI mode -> tcp client.
 * <p>
 * The names resolve to 127.0.0.1 through this module's hosts file ({@code -Djdk.net.hosts.file}, see the pom): the
 * JDK here does not resolve {@code *.localhost} by itself, and the tests may not edit /etc/hosts.
 */
class KafkaProxyOverTlsTest
{
    static final String DOMAIN = "kafka.localhost";
    static final String BOOTSTRAP = "bootstrap." + DOMAIN;
    static final String BROKER_1 = "broker-1." + DOMAIN;

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PARTITIONS = 4;
    private static final int RECORDS = 400;

    // the broker with an SSL listener, shared with KafkaClientOverTlsTest (one broker for the module): the proxy
    // goes to its PLAINTEXT listener
    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.withSsl();

    @TempDir
    static Path keys;

    static ProxyCertificates certificates;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaProxyOverTlsTest.class);

    @TempDir
    Path directory;

    private int port;
    private int strictPort;

    @BeforeAll
    static void makeKeys() throws Exception
    {
        certificates = ProxyCertificates.make(keys, DOMAIN);
    }

    @BeforeEach
    void startZilla(EmbeddedKafka kafka) throws IOException
    {
        port = freePort();
        strictPort = freePort();
        engine.env("KEYS", certificates.serverKeys.toString())
            .env("KEYS_PASSWORD", ProxyCertificates.PASSWORD)
            .env("PORT", Integer.toString(port))
            .env("STRICT_PORT", Integer.toString(strictPort))
            .env("KAFKA_BOOTSTRAP", kafka.bootstrapServers())
            .start("proxy.tls.yaml");
    }

    @Test
    void shouldProduceIdempotentlyAndConsumeEveryRecordOverTls(KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);

        final Map<Integer, List<String>> sent = new HashMap<>();
        try (KafkaProducer<String, String> producer = producer())
        {
            final List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++)
            {
                final int partition = i % PARTITIONS;
                acks.add(producer.send(new ProducerRecord<>(topic, partition, "key-" + i, "value-" + i)));
                sent.computeIfAbsent(partition, p -> new ArrayList<>()).add("key-" + i + "=value-" + i);
            }
            final Map<Integer, Long> nextOffset = new HashMap<>();
            for (Future<RecordMetadata> ack : acks)
            {
                final RecordMetadata metadata = ack.get();
                final long expected = nextOffset.getOrDefault(metadata.partition(), 0L);
                assertEquals(expected, metadata.offset(), "acknowledged in order on partition " + metadata.partition());
                nextOffset.put(metadata.partition(), expected + 1);
            }

            for (PartitionInfo partition : producer.partitionsFor(topic))
            {
                assertEquals(new Node(1, BROKER_1, port), partition.leader(), partition::toString);
            }
        }

        try (Admin admin = Admin.create(sslConfig()))
        {
            final List<Node> nodes = List.copyOf(admin.describeCluster().nodes().get());
            assertEquals(List.of(new Node(1, BROKER_1, port)), nodes, "only the proxy's names are advertised");
        }

        final Map<Integer, List<String>> consumed = consume(topic, RECORDS);
        assertEquals(sent, consumed);

        assertTrue(counter(engine.directory(), "north_tls_server", "handshakes") >= 2,
            "the bootstrap and the broker connections were TLS");
    }

    @Test
    void shouldCloseAConnectionForAServerNameTheProxyDoesNotKnowWhileOthersGoOn(KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);

        try (KafkaProducer<String, String> producer = producer())
        {
            producer.send(new ProducerRecord<>(topic, 0, "before", "1")).get();

            // the wildcard certificate covers the name, so TLS lets it through: the kafka proxy refuses it
            try (SSLSocket socket = connect("other." + DOMAIN))
            {
                final OutputStream out = socket.getOutputStream();
                out.write(metadataRequest());
                out.flush();
                assertEquals(-1, readOrEnd(socket.getInputStream()), "closed without an answer");
            }
            final List<EngineEvent> refused = awaitEvents("kafka.sni.unknown");
            assertEquals(1, refused.size(), engine.events()::toString);
            assertTrue(refused.get(0).detail().contains("other." + DOMAIN), refused.get(0)::detail);

            producer.send(new ProducerRecord<>(topic, 0, "after", "2")).get();
        }

        assertEquals(Map.of(0, List.of("before=1", "after=2")), consume(topic, 2));
    }

    @Test
    void shouldRefuseInTheHandshakeANameOutsideTheTlsServersSni() throws Exception
    {
        final SSLHandshakeException refused = assertThrows(SSLHandshakeException.class,
            () -> connect("other." + DOMAIN, strictPort).close());
        assertTrue(String.valueOf(refused.getMessage()).contains("unrecognized_name"), refused::toString);
        assertTrue(engine.events().stream().noneMatch(e -> "kafka.sni.unknown".equals(e.event())),
            engine.events()::toString);

        // the names the proxy knows pass, broker-1 by the wildcard of sni
        try (SSLSocket socket = connect(BROKER_1, strictPort))
        {
            final OutputStream out = socket.getOutputStream();
            out.write(metadataRequest());
            out.flush();
            final InputStream in = socket.getInputStream();
            final int size = ByteBuffer.wrap(in.readNBytes(Integer.BYTES)).getInt();
            assertTrue(new String(in.readNBytes(size), UTF_8).contains(BROKER_1));
        }
    }

    @Test
    void shouldServeBrokerNamesByTheirOwnTlsConnections() throws Exception
    {
        // a client that goes straight to broker-1 by name: the proxy connects it to node 1
        try (SSLSocket socket = connect(BROKER_1))
        {
            final OutputStream out = socket.getOutputStream();
            out.write(metadataRequest());
            out.flush();
            final InputStream in = socket.getInputStream();
            final int size = ByteBuffer.wrap(in.readNBytes(Integer.BYTES)).getInt();
            final String response = new String(in.readNBytes(size), UTF_8);
            assertTrue(response.contains(BROKER_1), response);
            assertFalse(response.contains("127.0.0.1"), response);
        }
    }

    @Test
    void shouldServeKcatOverSsl(KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        final Kcat kcat = Kcat.withHosts(directory, List.of(BOOTSTRAP, BROKER_1));
        final String[] ssl = {"-b", BOOTSTRAP + ":" + port, "-X", "security.protocol=ssl",
            "-X", "ssl.ca.location=" + certificates.caCertificate, "-X", "ssl.endpoint.identification.algorithm=https"};

        final String metadata = kcat.kcat(null, Kcat.with(ssl, "-L", "-t", topic));
        assertTrue(metadata.contains("broker 1 at " + BROKER_1 + ":" + port), metadata);
        assertFalse(metadata.contains("127.0.0.1"), metadata);

        kcat.kcat("k1:one\nk2:two\nk3:three\n", Kcat.with(ssl, "-t", topic, "-p", "0", "-K:", "-P"));

        final String consumed = kcat.kcat(null, Kcat.with(ssl, "-t", topic, "-p", "0", "-o", "beginning", "-e", "-K:", "-C",
            "-q"));
        assertEquals("k1:one\nk2:two\nk3:three\n", consumed);
        assertEquals(Map.of(0, List.of("k1=one", "k2=two", "k3=three")), consume(topic, 3), "kafka-clients agrees");
    }

    KafkaProducer<String, String> producer()
    {
        final Map<String, Object> config = sslConfig();
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    // every partition from the beginning, as key=value in offset order, until count records came
    Map<Integer, List<String>> consume(String topic, int count)
    {
        final Map<String, Object> config = sslConfig();
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        final Map<Integer, List<String>> consumed = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
            new StringDeserializer()))
        {
            final List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final long deadline = System.nanoTime() + WAIT.toNanos();
            int received = 0;
            while (received < count && System.nanoTime() < deadline)
            {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500)))
                {
                    consumed.computeIfAbsent(record.partition(), p -> new ArrayList<>())
                        .add(record.key() + "=" + record.value());
                    received++;
                }
            }
        }
        return consumed;
    }

    // kafka-clients over SSL to the proxy's bootstrap name, trusting the test CA, host names verified (the default)
    Map<String, Object> sslConfig()
    {
        final Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP + ":" + port);
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
        config.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.caCertificate.toString());
        config.put(CommonClientConfigs.CLIENT_ID_CONFIG, "kafka-over-tls");
        return config;
    }

    private SSLSocket connect(String serverName) throws Exception
    {
        return connect(serverName, port);
    }

    private SSLSocket connect(String serverName, int serverPort) throws Exception
    {
        final KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(certificates.caCertificate))
        {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509")
                .generateCertificate(in));
        }
        final TrustManagerFactory trustManagers = TrustManagerFactory.getInstance("PKIX");
        trustManagers.init(trust);
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        final SSLSocket socket = (SSLSocket) context.getSocketFactory()
            .createSocket(InetAddress.getLoopbackAddress(), serverPort);
        socket.setSoTimeout((int) WAIT.toMillis());
        final SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(serverName)));
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    // -1 when the peer closed (close_notify, or an alert or a tcp reset after the handshake), else the byte read
    private static int readOrEnd(InputStream in) throws IOException
    {
        try
        {
            return in.read();
        }
        catch (SSLException | SocketException ex)
        {
            return -1;
        }
    }

    private static byte[] metadataRequest()
    {
        final short version = 12;
        final ByteBuffer request = new MetadataRequest(new MetadataRequestData().setTopics(null), version)
            .serializeWithHeader(new RequestHeader(ApiKeys.METADATA, version, "kafka-over-tls", 1));
        return ByteBuffer.allocate(Integer.BYTES + request.remaining()).putInt(request.remaining()).put(request).array();
    }

    private List<EngineEvent> awaitEvents(String name) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        List<EngineEvent> events = List.of();
        while (events.isEmpty() && System.nanoTime() < deadline)
        {
            Thread.sleep(20);
            events = engine.events().stream().filter(e -> name.equals(e.event())).toList();
        }
        return events;
    }

    static int freePort() throws IOException
    {
        return FreePorts.next();
    }
}
