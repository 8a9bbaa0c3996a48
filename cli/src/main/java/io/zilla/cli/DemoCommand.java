/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.config.ConfigException;
import io.zilla.kafka.embedded.EmbeddedKafka;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code zilla demo}: a real Kafka broker ({@link EmbeddedKafka}, a child JVM on a free loopback port) with the
 * examples in front of it, in this JVM, until SIGTERM or SIGINT: kafka.proxy (native Kafka clients),
 * sse.kafka.fanout (the topic {@code events} as Server-Sent Events, and its web page) and http.kafka.crud (a REST API
 * over the compacted topic {@code items-snapshots}), each an engine of its own with its own engine directory. The
 * examples are packaged in the cli jar (the build copies them), so the demo runs from any directory; {@code --port}
 * moves the proxy's ports (9092 for bootstrap, 9093 to 9095 for broker node ids 1 to 3) together, {@code --http-port}
 * the SSE example's 7114 and {@code --rest-port} the REST example's (7115: both examples listen on 7114 as shipped).
 * As in {@link StartCommand}, the main thread stops everything and the shutdown hook only asks for it, waits, and ends
 * the JVM with the status.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = ZillaVersion.class,
    description = {
        "Starts a Kafka broker with the topics 'demo', 'events' and 'items-snapshots', zilla's kafka proxy in",
        "front of it (examples/kafka.proxy), the topic 'events' as Server-Sent Events (examples/sse.kafka.fanout)",
        "and a REST API over 'items-snapshots' (examples/http.kafka.crud).",
        "Runs until SIGTERM or SIGINT (Ctrl-C), then stops them all and deletes their files."})
final class DemoCommand implements Callable<Integer>
{
    /** The kafka.proxy example, as packaged by the build. */
    static final String CONFIG_RESOURCE = "demo/zilla.yaml";
    static final String CONFIG_NAME = "kafka.proxy/zilla.yaml";
    static final String TOPIC = "demo";
    static final int PARTITIONS = 1;
    static final int DEFAULT_PORT = 9092;
    /** The example's ports: bootstrap, then one per broker node id (1 to 3). */
    static final int PORTS = 4;
    static final String BOOTSTRAP_VARIABLE = "KAFKA_BOOTSTRAP_SERVER";
    /** The sse.kafka.fanout example, as packaged by the build: its zilla.yaml and its web page. */
    static final String SSE_RESOURCE = "demo/sse.kafka.fanout/";
    static final List<String> SSE_FILES = List.of("zilla.yaml", "www/index.html");
    static final String SSE_TOPIC = "events";
    static final int DEFAULT_HTTP_PORT = 7114;
    /** The http.kafka.crud example, as packaged by the build, on a port of its own (it is on 7114 as shipped too). */
    static final String REST_RESOURCE = "demo/http.kafka.crud/zilla.yaml";
    static final String REST_TOPIC = "items-snapshots";
    static final int DEFAULT_REST_PORT = 7115;

    // the example's own ports, 9092 to 9095, as whole numbers
    private static final Pattern EXAMPLE_PORT = Pattern.compile("\\b(909[2-5])\\b");
    private static final String HOST = "localhost";
    // the broker's stop (a controlled shutdown: about a second) and the engine's: the hook waits this long at most
    private static final long STOP_TIMEOUT_SECONDS = 45;

    @Spec
    CommandSpec spec;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "9092",
        description = {"the proxy's bootstrap port (default ${DEFAULT-VALUE});",
            "the next three are its ports for broker node ids 1 to 3"})
    int port;

    @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "7114",
        description = "the port of the Server-Sent Events example and its page (default ${DEFAULT-VALUE})")
    int httpPort;

    @Option(names = "--rest-port", paramLabel = "PORT", defaultValue = "7115",
        description = "the port of the REST example, /items (default ${DEFAULT-VALUE})")
    int restPort;

    @Option(names = {"-w", "--workers"}, paramLabel = "N",
        description = "the number of workers (zilla.engine.workers); one per core by default")
    Integer workers;

    private final ShutdownHooks hooks;
    private volatile ProcessHandle broker;

    DemoCommand(ShutdownHooks hooks)
    {
        this.hooks = hooks;
    }

    @Override
    public Integer call() throws InterruptedException
    {
        final PrintWriter err = spec.commandLine().getErr();
        if (port < 1 || port > 65536 - PORTS)
        {
            err.printf("zilla demo: --port must be 1 to %d, not %d%n", 65536 - PORTS, port);
            return ExitStatus.FAILED;
        }
        if (httpPort < 1 || httpPort > 65535 || httpPort >= port && httpPort < port + PORTS)
        {
            err.printf("zilla demo: --http-port must be 1 to 65535 and not one of %d to %d, not %d%n", port,
                port + PORTS - 1, httpPort);
            return ExitStatus.FAILED;
        }
        if (restPort < 1 || restPort > 65535 || restPort >= port && restPort < port + PORTS || restPort == httpPort)
        {
            err.printf("zilla demo: --rest-port must be 1 to 65535, not one of %d to %d nor %d, not %d%n", port,
                port + PORTS - 1, httpPort, restPort);
            return ExitStatus.FAILED;
        }
        final String busy = busyPort();
        if (busy != null)
        {
            err.printf("zilla demo: port %s; the demo needs ports %d to %d, %d and %d on %s: stop what uses them, or "
                + "choose others with --port, --http-port and --rest-port%n", busy, port, port + PORTS - 1, httpPort,
                restPort, HOST);
            return ExitStatus.FAILED;
        }

        // the hook is registered before anything starts, so that a signal during the broker's start still stops it
        return hooks.runUntilStopped(this::run, STOP_TIMEOUT_SECONDS, () ->
        {
            System.err.println("zilla demo: did not stop within " + STOP_TIMEOUT_SECONDS + " seconds; killing the broker");
            final ProcessHandle child = broker;
            if (child != null)
            {
                child.destroyForcibly();
            }
        });
    }

    /**
     * The example's text with its ports moved to {@code port} and the three after it: 9092 becomes {@code port},
     * 9093 {@code port + 1}, and so on.
     */
    static String onPorts(String example, int port)
    {
        final Matcher matcher = EXAMPLE_PORT.matcher(example);
        final StringBuilder text = new StringBuilder();
        while (matcher.find())
        {
            final int moved = port + Integer.parseInt(matcher.group(1)) - DEFAULT_PORT;
            matcher.appendReplacement(text, String.valueOf(moved));
        }
        matcher.appendTail(text);
        return text.toString();
    }

    /** The packaged kafka.proxy example. */
    static String example()
    {
        return new String(resource(CONFIG_RESOURCE), StandardCharsets.UTF_8);
    }

    /** The packaged sse.kafka.fanout example's zilla.yaml with its port moved to {@code httpPort}. */
    static String sseExample(int httpPort)
    {
        return onHttpPort(new String(resource(SSE_RESOURCE + SSE_FILES.get(0)), StandardCharsets.UTF_8), httpPort);
    }

    /** The packaged http.kafka.crud example's zilla.yaml with its port moved to {@code restPort}. */
    static String restExample(int restPort)
    {
        return onHttpPort(new String(resource(REST_RESOURCE), StandardCharsets.UTF_8), restPort);
    }

    // the http examples listen on 7114 as shipped
    private static String onHttpPort(String example, int port)
    {
        return example.replaceAll("\\b" + DEFAULT_HTTP_PORT + "\\b", String.valueOf(port));
    }

    private static byte[] resource(String name)
    {
        try (InputStream in = DemoCommand.class.getResourceAsStream(name))
        {
            if (in == null)
            {
                throw new IllegalStateException("no " + name + " in the cli jar: a broken build");
            }
            return in.readAllBytes();
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private int run(CountDownLatch stopRequested) throws InterruptedException
    {
        final PrintWriter out = spec.commandLine().getOut();
        final int status = runDemo(stopRequested, out, spec.commandLine().getErr());
        if (status == ExitStatus.OK)
        {
            // only once the broker has stopped and every file is gone
            out.println("stopped zilla demo");
            out.flush();
        }
        return status;
    }

    private int runDemo(CountDownLatch stopRequested, PrintWriter out, PrintWriter err) throws InterruptedException
    {
        out.println("starting a Kafka broker...");
        out.flush();
        final EmbeddedKafka kafka = new EmbeddedKafka().killOnExit(false);
        BrokerLogErrors errors = null;
        Path directory = null;
        try
        {
            try
            {
                kafka.start();
                broker = kafka.process();
                kafka.createTopic(TOPIC, PARTITIONS);
                kafka.createTopic(SSE_TOPIC, PARTITIONS);
                // a table: compacted, as the example's README asks
                kafka.createTopic(REST_TOPIC, PARTITIONS, Map.of("cleanup.policy", "compact"));
            }
            catch (IllegalStateException | UncheckedIOException ex)
            {
                if (stopRequested.getCount() == 0)
                {
                    // Ctrl-C reaches the broker too (same process group): it may have stopped before it started
                    return ExitStatus.OK;
                }
                err.println("zilla demo: the Kafka broker could not start: " + ex.getMessage());
                return ExitStatus.FAILED;
            }
            out.printf("started a Kafka broker at %s (its log: %s)%n", kafka.bootstrapServers(), kafka.logFile());
            out.flush();
            errors = new BrokerLogErrors(kafka.logFile(), err).start();
            if (stopRequested.getCount() == 0)
            {
                return ExitStatus.OK;
            }

            directory = Files.createTempDirectory("zilla-demo-");
            final Path proxyDirectory = Files.createDirectories(directory.resolve("kafka.proxy"));
            final Path sseDirectory = Files.createDirectories(directory.resolve("sse.kafka.fanout"));
            final Path restDirectory = Files.createDirectories(directory.resolve("http.kafka.crud"));
            final Path sseConfig = unpackSseExample(directory.resolve("examples"));
            Engine engine = null;
            Engine sse = null;
            Engine rest = null;
            try
            {
                final String bootstrap = kafka.bootstrapServers();
                engine = Engine.builder()
                    .configuration(configuration(proxyDirectory))
                    .environment(name -> BOOTSTRAP_VARIABLE.equals(name) ? bootstrap : System.getenv(name))
                    .config(CONFIG_NAME, onPorts(example(), port))
                    .build();
                engine.start();
                // the config's own path as its location: the filesystem binding's www/ is relative to it
                sse = Engine.builder()
                    .configuration(configuration(sseDirectory))
                    .environment(name -> BOOTSTRAP_VARIABLE.equals(name) ? bootstrap : System.getenv(name))
                    .config(sseConfig.toString(), sseExample(httpPort))
                    .build();
                sse.start();
                rest = Engine.builder()
                    .configuration(configuration(restDirectory))
                    .environment(name -> BOOTSTRAP_VARIABLE.equals(name) ? bootstrap : System.getenv(name))
                    .config("http.kafka.crud/zilla.yaml", restExample(restPort))
                    .build();
                rest.start();
            }
            catch (ConfigException ex)
            {
                ConfigFiles.printErrors(err, ex);
                closeAll(engine, sse, rest);
                return ExitStatus.FAILED;
            }
            catch (IllegalStateException | IllegalArgumentException | UncheckedIOException ex)
            {
                err.println(StartCommand.startFailure(ex));
                closeAll(engine, sse, rest);
                return ExitStatus.FAILED;
            }

            try
            {
                usage(out, proxyDirectory, sseDirectory, restDirectory);
                stopRequested.await();
            }
            finally
            {
                closeAll(engine, sse, rest);
            }
        }
        catch (IOException ex)
        {
            err.println("zilla demo: cannot create the engine directory: " + ConfigFiles.describe(ex));
            return ExitStatus.FAILED;
        }
        finally
        {
            if (errors != null)
            {
                errors.close();
            }
            close(kafka, directory, err);
        }
        return ExitStatus.OK;
    }

    /** The packaged sse.kafka.fanout example as files under {@code parent}: returns its zilla.yaml. */
    private static Path unpackSseExample(Path parent) throws IOException
    {
        final Path example = parent.resolve("sse.kafka.fanout");
        for (String file : SSE_FILES)
        {
            final Path target = example.resolve(file);
            Files.createDirectories(target.getParent());
            Files.write(target, resource(SSE_RESOURCE + file));
        }
        return example.resolve(SSE_FILES.get(0));
    }

    private static void closeAll(Engine... engines)
    {
        for (Engine engine : engines)
        {
            if (engine != null)
            {
                engine.close();
            }
        }
    }

    private EngineConfiguration configuration(Path directory)
    {
        final Properties values = new Properties();
        values.setProperty(EngineConfiguration.DIRECTORY, directory.toString());
        if (workers != null)
        {
            values.setProperty(EngineConfiguration.WORKERS, workers.toString());
        }
        return new EngineConfiguration(values);
    }

    private void usage(PrintWriter out, Path proxyDirectory, Path sseDirectory, Path restDirectory)
    {
        final String bootstrap = HOST + ":" + port;
        out.printf("started zilla demo: the kafka proxy on %s (broker node ports %d to %d) in front of the broker, "
            + "topic '%s'%n", bootstrap, port + 1, port + PORTS - 1, TOPIC);
        out.println();
        out.println("Try it from another terminal with kcat (or any Kafka client, bootstrap.servers=" + bootstrap + "):");
        out.printf("  kcat -b %s -L%n", bootstrap);
        out.printf("  echo 'key1:hello' | kcat -b %s -t %s -K: -P%n", bootstrap, TOPIC);
        out.printf("  kcat -b %s -t %s -C -K: -e%n", bootstrap, TOPIC);
        out.println();
        final String events = "http://" + HOST + ":" + httpPort + "/" + SSE_TOPIC;
        out.printf("started zilla demo: the topic '%s' as Server-Sent Events at %s, a page that shows them at "
            + "http://%s:%d/index.html?go=1%n", SSE_TOPIC, events, HOST, httpPort);
        out.println("Subscribe, then produce (through the proxy) in another terminal:");
        out.printf("  curl -N %s%n", events);
        out.printf("  echo 'key1:hello' | kcat -b %s -t %s -K: -P%n", bootstrap, SSE_TOPIC);
        out.println();
        final String items = "http://" + HOST + ":" + restPort + "/items";
        out.printf("started zilla demo: a REST API over the topic '%s' at %s%n", REST_TOPIC, items);
        out.println("Create, read, list and delete items:");
        out.printf("  curl -X POST %s -H 'Idempotency-Key: 1' -H 'Content-Type: application/json' -d "
            + "'{\"greeting\":\"Hello, world\"}'%n", items);
        out.printf("  curl %s/1%n", items);
        out.printf("  curl %s%n", items);
        out.printf("  curl -X DELETE %s/1%n", items);
        out.println();
        out.println("zilla metrics -d " + proxyDirectory + " prints the kafka proxy's counters, zilla metrics -d "
            + sseDirectory + " the SSE example's, zilla metrics -d " + restDirectory + " the REST example's.");
        out.println("Ctrl-C stops the demo.");
        out.flush();
    }

    /** Stops the broker (a controlled shutdown), deletes its data and the engine directory. */
    private void close(EmbeddedKafka kafka, Path directory, PrintWriter err)
    {
        try
        {
            kafka.close();
        }
        catch (RuntimeException ex)
        {
            err.println("zilla demo: stopping the Kafka broker: " + ex.getMessage());
        }
        broker = null;
        if (directory != null)
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
                err.println("zilla demo: cannot delete " + directory + ": " + ConfigFiles.describe(ex));
            }
        }
    }

    /** Why one of the demo's ports cannot be bound, or null when all of them can. */
    private String busyPort()
    {
        final List<Integer> ports = new ArrayList<>();
        for (int candidate = port; candidate < port + PORTS; candidate++)
        {
            ports.add(candidate);
        }
        ports.add(httpPort);
        ports.add(restPort);
        for (int candidate : ports)
        {
            try (ServerSocket socket = new ServerSocket())
            {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), candidate));
            }
            catch (IOException ex)
            {
                return candidate + " is in use" + (ex.getMessage() != null ? " (" + ex.getMessage() + ")" : "");
            }
        }
        return null;
    }
}
