/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.RetriableException;

/**
 * A real single-node Apache Kafka broker (KRaft, combined broker and controller) in a child JVM on loopback ports.
 * <p>
 * {@link #start()} picks free ports (unless set), formats a fresh temporary data directory and starts
 * {@code kafka.Kafka} with the jars of this JVM's class path; {@link #close()} stops it and deletes the directory.
 * A JVM shutdown hook kills the child and deletes the directory when the owning JVM exits without closing.
 * The broker's output goes to {@code broker.log} in the data directory, never to the console.
 */
public final class EmbeddedKafka implements AutoCloseable
{
    public static final String STARTED = "Kafka Server started";
    // a broker for tests and demos: a small heap, and a quick start on few cores (C1 only, serial GC)
    public static final List<String> DEFAULT_JVM_OPTIONS =
        List.of("-Xmx256m", "-Xms64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private static final String KAFKA_MAIN = "kafka.Kafka";
    private static final String STORAGE_TOOL = "kafka.tools.StorageTool";
    private static final Pattern EXCLUDED_JARS =
        Pattern.compile("(slf4j-(simple|reload4j|jdk14|nop|log4j12)|logback-classic|surefire|junit|opentest4j)[^/\\\\]*\\.jar$");
    private static final int LOG_TAIL_LINES = 40;

    private final Map<String, String> overrides = new LinkedHashMap<>();
    private final List<String> jvmOptions = new ArrayList<>(DEFAULT_JVM_OPTIONS);
    private final List<String> scramCredentials = new ArrayList<>();
    private final Map<String, String> plainUsers = new LinkedHashMap<>();
    private final List<String> scramMechanisms = new ArrayList<>();

    private int port;
    private int controllerPort;
    private int saslPort;
    private int sslPort;
    private boolean ssl;
    private boolean sslClientAuth;
    private String sslPassword;
    private Duration startTimeout = Duration.ofSeconds(60);
    private String classPath;
    private boolean killOnExit = true;

    private volatile Path directory;
    private Path dataParent;
    private volatile Path logFile;
    private volatile Process process;
    private Thread shutdownHook;

    /** A broker on free ports, chosen at {@link #start()}. */
    public EmbeddedKafka()
    {
    }

    /** The broker's PLAINTEXT port; 0 (the default) picks a free one. */
    public synchronized EmbeddedKafka port(int port)
    {
        checkNotStarted();
        this.port = port;
        return this;
    }

    /** The controller's port; 0 (the default) picks a free one. */
    public synchronized EmbeddedKafka controllerPort(int controllerPort)
    {
        checkNotStarted();
        this.controllerPort = controllerPort;
        return this;
    }

    /** A broker property written to server.properties after the defaults (e.g. {@code num.partitions}). */
    public synchronized EmbeddedKafka property(String name, Object value)
    {
        checkNotStarted();
        overrides.put(name, String.valueOf(value));
        return this;
    }

    /**
     * A SCRAM credential the broker knows from its first start: {@code mechanism} is {@code SCRAM-SHA-256} or
     * {@code SCRAM-SHA-512}. KRaft reads SCRAM credentials from its metadata log, so they are written when the data
     * directory is formatted (kafka-storage's {@code --add-scram}). The broker gains a SASL_PLAINTEXT listener that
     * enables the mechanism ({@link #saslBootstrapServers()}).
     */
    public synchronized EmbeddedKafka scramCredential(String mechanism, String username, String password)
    {
        checkNotStarted();
        if (!mechanism.matches("SCRAM-SHA-(256|512)") || username.isEmpty() || password.isEmpty()
            || (username + password).matches(".*[,=\\]].*"))
        {
            throw new IllegalArgumentException("a SCRAM credential needs SCRAM-SHA-256 or SCRAM-SHA-512, and a user name "
                + "and password without ',', '=' or ']' (kafka-storage's syntax): " + mechanism + " " + username);
        }
        scramCredentials.add(mechanism + "=[name=" + username + ",password=" + password + "]");
        if (!scramMechanisms.contains(mechanism))
        {
            scramMechanisms.add(mechanism);
        }
        return this;
    }

    /** A SASL/PLAIN user: the broker gains a SASL_PLAINTEXT listener that enables PLAIN ({@link #saslBootstrapServers()}). */
    public synchronized EmbeddedKafka plainUser(String username, String password)
    {
        checkNotStarted();
        if (username.isEmpty() || (username + password).matches(".*[\"\\\\\\s].*"))
        {
            throw new IllegalArgumentException("a PLAIN user needs a name, and no quote, backslash or space in the name "
                + "or password (they go into a JAAS line): " + username);
        }
        plainUsers.put(username, password);
        return this;
    }

    /** The SASL_PLAINTEXT port, when a user or credential is set; 0 picks a free one. */
    public synchronized EmbeddedKafka saslPort(int saslPort)
    {
        checkNotStarted();
        this.saslPort = saslPort;
        return this;
    }

    /**
     * Adds an SSL listener beside the PLAINTEXT one ({@link #sslBootstrapServers()}), with a key and certificate made
     * at {@link #start()} by a CA of this broker's own ({@link #caCertificate()}, {@link #truststore()}). The certificate
     * names {@code localhost} and {@code 127.0.0.1}, so clients can verify the host name.
     */
    public synchronized EmbeddedKafka withSsl()
    {
        checkNotStarted();
        this.ssl = true;
        return this;
    }

    /**
     * An SSL listener ({@link #withSsl()}) that requires a client certificate ({@code ssl.client.auth=required}) signed
     * by the broker's CA: a client key and certificate are made too ({@link #clientKeystore()}).
     */
    public synchronized EmbeddedKafka withMutualTls()
    {
        withSsl();
        this.sslClientAuth = true;
        return this;
    }

    /** The SSL port, when {@link #withSsl()}; 0 picks a free one. */
    public synchronized EmbeddedKafka sslPort(int sslPort)
    {
        checkNotStarted();
        this.sslPort = sslPort;
        return this;
    }

    /** Options of the child JVM, replacing {@link #DEFAULT_JVM_OPTIONS} (e.g. without C1 only, for throughput runs). */
    public synchronized EmbeddedKafka jvmOptions(List<String> options)
    {
        checkNotStarted();
        jvmOptions.clear();
        jvmOptions.addAll(options);
        return this;
    }

    /** How long {@link #start()} and {@link #restart()} wait for "Kafka Server started"; 60 s by default. */
    public synchronized EmbeddedKafka startTimeout(Duration startTimeout)
    {
        this.startTimeout = startTimeout;
        return this;
    }

    /** The child's class path; by default the entries of {@code java.class.path} the broker needs. */
    public synchronized EmbeddedKafka classPath(String classPath)
    {
        checkNotStarted();
        this.classPath = classPath;
        return this;
    }

    /**
     * Whether {@link #start()} registers the JVM shutdown hook that kills the broker and deletes its directory when
     * this JVM exits without {@link #close()}; true by default. An owner that closes the broker from a shutdown hook
     * of its own (as {@code zilla demo} does) turns it off, so that the broker stops cleanly, not killed meanwhile.
     */
    public synchronized EmbeddedKafka killOnExit(boolean killOnExit)
    {
        checkNotStarted();
        this.killOnExit = killOnExit;
        return this;
    }

    /**
     * Where {@link #start()} creates the data directory; the JVM's temporary directory by default. A benchmark puts it
     * on a memory file system (such as {@code /dev/shm}), so that the kernel's write-back of the log segments to a
     * slow disk does not stall the broker mid-run.
     */
    public synchronized EmbeddedKafka dataParent(Path parent)
    {
        checkNotStarted();
        this.dataParent = parent;
        return this;
    }

    /** Formats a fresh data directory and starts the broker; returns once it logged "Kafka Server started". */
    public synchronized EmbeddedKafka start()
    {
        checkNotStarted();
        try
        {
            if (classPath == null)
            {
                classPath = brokerClassPath(System.getProperty("java.class.path"));
            }
            choosePorts();
            directory = dataParent != null
                ? Files.createTempDirectory(dataParent, "embedded-kafka-")
                : Files.createTempDirectory("embedded-kafka-");
            logFile = directory.resolve("broker.log");
            if (killOnExit)
            {
                shutdownHook = new Thread(this::onShutdown, "embedded-kafka-shutdown");
                Runtime.getRuntime().addShutdownHook(shutdownHook);
            }

            if (ssl)
            {
                sslPassword = BrokerCertificates.randomPassword();
                BrokerCertificates.generate(sslDirectory(), sslPassword, sslClientAuth, startTimeout);
            }
            writeServerProperties();
            writeLoggingConfig();
            format();
            launch();
            return this;
        }
        catch (IOException ex)
        {
            close();
            throw new UncheckedIOException(ex);
        }
        catch (RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /** {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}. */
    public synchronized String bootstrapServers()
    {
        return "127.0.0.1:" + port;
    }

    public synchronized int port()
    {
        return port;
    }

    /** {@code 127.0.0.1:<sasl port>}: the SASL_PLAINTEXT listener, there when a user or a SCRAM credential is set. */
    public synchronized String saslBootstrapServers()
    {
        if (!sasl())
        {
            throw new IllegalStateException("no SASL listener: set a plainUser or a scramCredential before start()");
        }
        return "127.0.0.1:" + saslPort;
    }

    /** {@code 127.0.0.1:<ssl port>}: the SSL listener, there after {@link #withSsl()}. */
    public synchronized String sslBootstrapServers()
    {
        checkSsl();
        return "127.0.0.1:" + sslPort;
    }

    public synchronized int sslPort()
    {
        checkSsl();
        return sslPort;
    }

    /** The CA certificate (PEM) that signed the SSL listener's certificate, and the client's one with mutual TLS. */
    public synchronized Path caCertificate()
    {
        return sslFile(BrokerCertificates.CA_PEM);
    }

    /** A PKCS12 truststore holding the CA ({@link #caCertificate()}), for {@code ssl.truststore.*}; {@link #sslPassword()}. */
    public synchronized Path truststore()
    {
        return sslFile(BrokerCertificates.TRUSTSTORE);
    }

    /** The client's PKCS12 keystore (its key, certificate and the CA), after {@link #withMutualTls()}; {@link #sslPassword()}. */
    public synchronized Path clientKeystore()
    {
        if (!sslClientAuth)
        {
            throw new IllegalStateException("no client certificate: call withMutualTls() before start()");
        }
        return sslFile(BrokerCertificates.CLIENT_KEYSTORE);
    }

    /** The password of every store of the SSL listener (truststore, keystores, their keys): random per broker. */
    public synchronized String sslPassword()
    {
        checkSsl();
        return sslPassword;
    }

    /**
     * The kafka-clients settings for the SSL listener: {@code bootstrap.servers}, {@code security.protocol=SSL}, the
     * truststore (host names verified, as by default), and with mutual TLS the client's keystore.
     */
    public synchronized Map<String, Object> sslClientConfig()
    {
        final Map<String, Object> config = new LinkedHashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, sslBootstrapServers());
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        config.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, truststore().toString());
        config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        config.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, sslPassword);
        if (sslClientAuth)
        {
            config.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, clientKeystore().toString());
            config.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
            config.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, sslPassword);
            config.put(SslConfigs.SSL_KEY_PASSWORD_CONFIG, sslPassword);
        }
        return config;
    }

    public synchronized int controllerPort()
    {
        return controllerPort;
    }

    /** The data directory: server.properties, broker.log and the log segments (kraft/). */
    public synchronized Path directory()
    {
        return directory;
    }

    /** The broker's output (stdout and stderr), appended across restarts. */
    public synchronized Path logFile()
    {
        return logFile;
    }

    /** The child JVM, while it runs. */
    public synchronized ProcessHandle process()
    {
        return process != null ? process.toHandle() : null;
    }

    public synchronized boolean isRunning()
    {
        return process != null && process.isAlive();
    }

    /**
     * Creates a topic with replication factor 1 and waits until the broker leads every partition: the controller
     * accepts a topic before the broker serves it, and an idempotent producer whose first batches are refused with
     * NOT_LEADER_OR_FOLLOWER can then retry OUT_OF_ORDER_SEQUENCE_NUMBER until its delivery timeout (seen with
     * kafka-clients 4.4), and an acks=0 producer loses those records.
     */
    public void createTopic(String name, int partitions)
    {
        createTopic(name, partitions, Map.of());
    }

    /** {@link #createTopic(String, int)} with topic configs, say {@code cleanup.policy: compact}. */
    public void createTopic(String name, int partitions, Map<String, String> configs)
    {
        try (Admin admin = admin())
        {
            final NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
            admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            awaitDescribed(admin, name, partitions);
            final Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
            for (int partition = 0; partition < partitions; partition++)
            {
                latest.put(new TopicPartition(name, partition), OffsetSpec.latest());
            }
            awaitLeaders(admin, latest);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        catch (ExecutionException | TimeoutException ex)
        {
            throw new IllegalStateException("create topic " + name + " failed", ex);
        }
    }

    // the new topic in the metadata with a leader for every partition, before ListOffsets: the admin client logs
    // ListOffsets' UNKNOWN_TOPIC_OR_PARTITION for a topic its metadata lacks as an ERROR, which `zilla demo` printed
    private static void awaitDescribed(Admin admin, String name, int partitions)
        throws InterruptedException, ExecutionException, TimeoutException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true)
        {
            try
            {
                final TopicDescription topic = admin.describeTopics(List.of(name)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(name);
                if (topic.partitions().size() == partitions
                    && topic.partitions().stream().allMatch(partition -> partition.leader() != null))
                {
                    return;
                }
            }
            catch (ExecutionException ex)
            {
                if (!(ex.getCause() instanceof RetriableException) || System.nanoTime() > deadline)
                {
                    throw ex;
                }
            }
            if (System.nanoTime() > deadline)
            {
                throw new TimeoutException("topic " + name + " has no leader for every partition");
            }
            Thread.sleep(50);
        }
    }

    // ListOffsets is answered only by a partition's leader, as Produce is: retried until every partition answers
    private static void awaitLeaders(Admin admin, Map<TopicPartition, OffsetSpec> partitions)
        throws InterruptedException, ExecutionException, TimeoutException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        boolean led = false;
        while (!led)
        {
            try
            {
                admin.listOffsets(partitions).all().get(30, TimeUnit.SECONDS);
                led = true;
            }
            catch (ExecutionException ex)
            {
                if (!(ex.getCause() instanceof RetriableException) || System.nanoTime() > deadline)
                {
                    throw ex;
                }
                Thread.sleep(50);
            }
        }
    }

    /** A new admin client for this broker; the caller closes it. */
    public Admin admin()
    {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return Admin.create(config);
    }

    /** Stops the broker with SIGTERM (a controlled shutdown) and waits for it; kills it after 30 s. */
    public synchronized void stop()
    {
        if (process != null)
        {
            process.destroy();
            await(process, Duration.ofSeconds(30));
            process = null;
        }
    }

    /** Kills the broker with SIGKILL, as a crash would: no controlled shutdown, no flush. */
    public synchronized void kill()
    {
        if (process != null)
        {
            process.destroyForcibly();
            await(process, Duration.ofSeconds(30));
            process = null;
        }
    }

    /** Stops the broker if it runs and starts it again on the same ports with the same data directory. */
    public synchronized void restart()
    {
        if (directory == null || !Files.isDirectory(directory))
        {
            throw new IllegalStateException("not started, or closed: " + this);
        }
        stop();
        try
        {
            launch();
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Stops the broker and deletes its data directory. */
    @Override
    public synchronized void close()
    {
        try
        {
            stop();
        }
        finally
        {
            deleteDirectory();
            if (shutdownHook != null)
            {
                try
                {
                    Runtime.getRuntime().removeShutdownHook(shutdownHook);
                }
                catch (IllegalStateException ex)
                {
                    // the JVM is already shutting down: the hook runs and finds nothing left to do
                }
                shutdownHook = null;
            }
        }
    }

    @Override
    public String toString()
    {
        return "EmbeddedKafka[" + bootstrapServers() + ", " + directory + "]";
    }

    /**
     * The entries of a class path that the broker's JVM needs: everything but test frameworks and slf4j
     * backends other than log4j2 (the broker logs through log4j2).
     */
    static String brokerClassPath(String classPath)
    {
        List<String> entries = Stream.of(classPath.split(Pattern.quote(File.pathSeparator)))
            .filter(e -> !e.isEmpty())
            .filter(e -> !EXCLUDED_JARS.matcher(e).find())
            .collect(Collectors.toList());
        boolean found = entries.stream().anyMatch(EmbeddedKafka::holdsKafka);
        if (!found)
        {
            throw new IllegalStateException("no kafka_2.13 jar (class " + KAFKA_MAIN + ") on the class path: " + classPath);
        }
        return String.join(File.pathSeparator, entries);
    }

    private static boolean holdsKafka(String entry)
    {
        Path path = Paths.get(entry);
        String name = path.getFileName() != null ? path.getFileName().toString() : "";
        return name.startsWith("kafka_2.13") && name.endsWith(".jar")
            || Files.isDirectory(path) && Files.exists(path.resolve("kafka/Kafka.class"));
    }

    private void checkNotStarted()
    {
        if (directory != null)
        {
            throw new IllegalStateException("already started: " + this);
        }
    }

    private void checkSsl()
    {
        if (!ssl)
        {
            throw new IllegalStateException("no SSL listener: call withSsl() before start()");
        }
    }

    private Path sslDirectory()
    {
        return directory.resolve("ssl");
    }

    private Path sslFile(String name)
    {
        checkSsl();
        if (directory == null)
        {
            throw new IllegalStateException("the keys are made at start(): " + this);
        }
        return sslDirectory().resolve(name);
    }

    private void choosePorts() throws IOException
    {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket first = new ServerSocket();
            ServerSocket second = new ServerSocket();
            ServerSocket third = new ServerSocket();
            ServerSocket fourth = new ServerSocket())
        {
            first.bind(new InetSocketAddress(loopback, port));
            second.bind(new InetSocketAddress(loopback, controllerPort));
            port = first.getLocalPort();
            controllerPort = second.getLocalPort();
            if (sasl())
            {
                third.bind(new InetSocketAddress(loopback, saslPort));
                saslPort = third.getLocalPort();
            }
            if (ssl)
            {
                fourth.bind(new InetSocketAddress(loopback, sslPort));
                sslPort = fourth.getLocalPort();
            }
        }
    }

    private boolean sasl()
    {
        return !plainUsers.isEmpty() || !scramCredentials.isEmpty();
    }

    private void writeServerProperties() throws IOException
    {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("process.roles", "broker,controller");
        properties.put("node.id", "1");
        properties.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        properties.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        properties.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        properties.put("controller.listener.names", "CONTROLLER");
        properties.put("inter.broker.listener.name", "PLAINTEXT");
        properties.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        if (sasl())
        {
            putSaslListener(properties);
        }
        if (ssl)
        {
            putSslListener(properties);
        }
        properties.put("log.dirs", directory.resolve("kraft").toString());
        properties.put("num.partitions", "1");
        properties.put("offsets.topic.replication.factor", "1");
        properties.put("offsets.topic.num.partitions", "1");
        properties.put("share.coordinator.state.topic.replication.factor", "1");
        properties.put("share.coordinator.state.topic.min.isr", "1");
        properties.put("transaction.state.log.replication.factor", "1");
        properties.put("transaction.state.log.min.isr", "1");
        properties.put("transaction.state.log.num.partitions", "1");
        properties.put("group.initial.rebalance.delay.ms", "0");
        // group members with a session timeout of a second or two, so that tests of an expired member stay quick
        properties.put("group.min.session.timeout.ms", "1000");
        // after a kill -9 the restarted broker cannot register until its previous session expired (9 s by default)
        properties.put("broker.heartbeat.interval.ms", "500");
        properties.put("broker.session.timeout.ms", "3000");
        // no deletion by age: tests write records with fixed timestamps years old, which the default 7 days deleted
        // at the broker's first retention pass (30 s after it starts, then every 5 minutes), a prefix of a partition
        // gone under a test that was still reading it (EmbeddedKafkaRetentionTest)
        properties.put("log.retention.ms", "-1");
        properties.putAll(overrides);

        StringBuilder text = new StringBuilder("# written by io.zilla.kafka.embedded.EmbeddedKafka\n");
        properties.forEach((name, value) -> text.append(name).append('=').append(value).append('\n'));
        Files.writeString(directory.resolve("server.properties"), text.toString(), StandardCharsets.UTF_8);
    }

    private void putSaslListener(Map<String, String> properties)
    {
        final String listener = "SASL_PLAINTEXT://127.0.0.1:" + saslPort;
        properties.merge("listeners", listener, (a, b) -> a + "," + b);
        properties.merge("advertised.listeners", listener, (a, b) -> a + "," + b);
        properties.merge("listener.security.protocol.map", "SASL_PLAINTEXT:SASL_PLAINTEXT", (a, b) -> a + "," + b);
        final List<String> mechanisms = new ArrayList<>(scramMechanisms);
        if (!plainUsers.isEmpty())
        {
            mechanisms.add(0, "PLAIN");
            final StringBuilder jaas = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
            plainUsers.forEach((name, password) -> jaas.append(" user_").append(name).append("=\"").append(password)
                .append('"'));
            properties.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", jaas.append(';').toString());
        }
        for (String mechanism : scramMechanisms)
        {
            properties.put("listener.name.sasl_plaintext." + mechanism.toLowerCase(Locale.ROOT)
                + ".sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        }
        properties.put("sasl.enabled.mechanisms", String.join(",", mechanisms));
    }

    private void putSslListener(Map<String, String> properties)
    {
        final String listener = "SSL://127.0.0.1:" + sslPort;
        properties.merge("listeners", listener, (a, b) -> a + "," + b);
        properties.merge("advertised.listeners", listener, (a, b) -> a + "," + b);
        properties.merge("listener.security.protocol.map", "SSL:SSL", (a, b) -> a + "," + b);
        final String prefix = "listener.name.ssl.";
        properties.put(prefix + "ssl.keystore.location", sslDirectory().resolve(BrokerCertificates.BROKER_KEYSTORE).toString());
        properties.put(prefix + "ssl.keystore.type", "PKCS12");
        properties.put(prefix + "ssl.keystore.password", sslPassword);
        properties.put(prefix + "ssl.key.password", sslPassword);
        if (sslClientAuth)
        {
            properties.put(prefix + "ssl.truststore.location", sslDirectory().resolve(BrokerCertificates.TRUSTSTORE).toString());
            properties.put(prefix + "ssl.truststore.type", "PKCS12");
            properties.put(prefix + "ssl.truststore.password", sslPassword);
            properties.put(prefix + "ssl.client.auth", "required");
        }
    }

    private void writeLoggingConfig() throws IOException
    {
        String config = String.join("\n",
            "status = warn",
            "appender.out.type = Console",
            "appender.out.name = OUT",
            "appender.out.layout.type = PatternLayout",
            "appender.out.layout.pattern = [%d] %p %m (%c)%n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.out.ref = OUT",
            "logger.kafka.name = org.apache.kafka",
            "logger.kafka.level = INFO",
            "");
        Files.writeString(directory.resolve("log4j2.properties"), config, StandardCharsets.UTF_8);
    }

    private void format() throws IOException
    {
        Path formatLog = directory.resolve("format.log");
        final List<String> arguments = new ArrayList<>(List.of("format", "-t", Uuid.randomUuid().toString(),
            "-c", directory.resolve("server.properties").toString()));
        for (String credential : scramCredentials)
        {
            arguments.add("--add-scram");
            arguments.add(credential);
        }
        Process format = new ProcessBuilder(command(STORAGE_TOOL, arguments.toArray(String[]::new)))
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(formatLog.toFile())
            .start();
        if (!await(format, startTimeout) || format.exitValue() != 0)
        {
            throw new IllegalStateException("kafka storage format failed:\n" + tail(formatLog, 0));
        }
    }

    private void launch() throws IOException
    {
        long offset = Files.exists(logFile) ? Files.size(logFile) : 0L;
        process = new ProcessBuilder(command(KAFKA_MAIN, directory.resolve("server.properties").toString()))
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
            .start();

        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (!logContains(offset, STARTED))
        {
            if (!process.isAlive())
            {
                int status = process.exitValue();
                process = null;
                throw new IllegalStateException("kafka exited with " + status + " before it started:\n" + tail(logFile, offset));
            }
            if (System.nanoTime() > deadline)
            {
                kill();
                throw new IllegalStateException("kafka did not start within " + startTimeout + ":\n" + tail(logFile, offset));
            }
            sleep(50);
        }
    }

    private List<String> command(String mainClass, String... args)
    {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-Dlog4j2.configurationFile=" + directory.resolve("log4j2.properties"));
        command.add("-Djava.awt.headless=true");
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }

    private boolean logContains(long offset, String text) throws IOException
    {
        if (!Files.exists(logFile))
        {
            return false;
        }
        try (RandomAccessFile file = new RandomAccessFile(logFile.toFile(), "r"))
        {
            long length = file.length() - offset;
            if (length <= 0)
            {
                return false;
            }
            byte[] bytes = new byte[(int) Math.min(length, Integer.MAX_VALUE - 8)];
            file.seek(offset);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8).contains(text);
        }
    }

    private static String tail(Path file, long offset)
    {
        try
        {
            if (!Files.exists(file))
            {
                return "(no output)";
            }
            byte[] bytes = Files.readAllBytes(file);
            int from = (int) Math.min(offset, bytes.length);
            String[] lines = new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8).split("\n");
            int first = Math.max(0, lines.length - LOG_TAIL_LINES);
            return String.join("\n", List.of(lines).subList(first, lines.length));
        }
        catch (IOException ex)
        {
            return "(cannot read " + file + ": " + ex + ")";
        }
    }

    private static boolean await(Process process, Duration timeout)
    {
        try
        {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
            {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                return false;
            }
            return true;
        }
        catch (InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void sleep(long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while kafka starts", ex);
        }
    }

    private void onShutdown()
    {
        // not synchronized: the owner may hold the lock in start() while its JVM exits
        Process child = process;
        if (child != null)
        {
            child.destroyForcibly();
            await(child, Duration.ofSeconds(10));
        }
        try
        {
            deleteDirectory();
        }
        catch (UncheckedIOException ex)
        {
            // best effort while the JVM exits
        }
    }

    private void deleteDirectory()
    {
        if (directory != null && Files.exists(directory))
        {
            try (Stream<Path> paths = Files.walk(directory))
            {
                for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList()))
                {
                    Files.deleteIfExists(path);
                }
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException("cannot delete " + directory, ex);
            }
        }
    }
}
