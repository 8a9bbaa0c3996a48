/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.zilla.kafka.embedded.EmbeddedKafka;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the packaged distribution's {@code bin/zilla demo} as a user runs it, from a directory of its own,
 * driven with kcat through the proxy's port, then stopped with SIGTERM.
 */
class ZillaDemoIT
{
    // the broker's start is 3 to 6 s alone, more on 2 busy cores
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final Duration KCAT_TIMEOUT = Duration.ofSeconds(30);
    private static final Path DISTRIBUTION = Path.of(System.getProperty("zilla.distribution", "target/zilla")).toAbsolutePath();
    private static final Path EXAMPLES = Path.of(System.getProperty("zilla.examples", "../examples")).toAbsolutePath();
    private static final Pattern BROKER_LOG = Pattern.compile("its log: (.+)/broker\\.log\\)");

    @TempDir
    Path temp;

    private final List<ZillaProcess> processes = new ArrayList<>();

    @AfterEach
    void killLeftovers()
    {
        processes.forEach(ZillaProcess::close);
    }

    @Test
    void shouldProduceAndConsumeWithKcatAndStopCleanlyOnSigterm() throws Exception
    {
        final int port = FreePorts.freePorts(DemoCommand.PORTS);
        final String bootstrap = "localhost:" + port;

        final int httpPort = FreePorts.freePort();
        final int restPort = FreePorts.freePort();
        final ZillaProcess zilla = zilla("demo", "--port", port, "--http-port", httpPort, "--rest-port", restPort);
        zilla.awaitOut("Ctrl-C stops the demo.", TIMEOUT);

        final List<String> out = zilla.out();
        assertTrue(out.contains("  kcat -b " + bootstrap + " -L"), out.toString());
        final String produce = "  echo 'key1:hello' | kcat -b " + bootstrap + " -t demo -K: -P";
        assertTrue(out.contains(produce), out.toString());
        assertTrue(out.contains("  kcat -b " + bootstrap + " -t demo -C -K: -e"), out.toString());
        final Matcher log = BROKER_LOG.matcher(String.join("\n", out));
        assertTrue(log.find(), out.toString());
        final Path brokerDirectory = Path.of(log.group(1));
        assertTrue(Files.isDirectory(brokerDirectory));
        final List<ProcessHandle> descendants = zilla.process().descendants().toList();
        assertEquals(1, descendants.size(), "the broker's JVM: " + descendants);

        // the printed lines, as a user runs them (IPv4 only: the tests stay on 127.0.0.1)
        final String metadata = kcat(null, "-b", bootstrap, "-L");
        assertTrue(metadata.contains("broker 1 at localhost:" + (port + 1)), metadata);
        assertTrue(metadata.contains("topic \"demo\" with 1 partitions"), metadata);
        assertFalse(metadata.contains("127.0.0.1"), "clients see only the proxy: " + metadata);

        kcat("key1:hello\nkey2:world\n", "-b", bootstrap, "-t", "demo", "-K:", "-P");
        final String consumed = kcat(null, "-b", bootstrap, "-t", "demo", "-C", "-K:", "-e");
        assertEquals("key1:hello\nkey2:world\n", consumed);

        // the SSE example, as the printed lines run it: curl -N subscribes, kcat produces to 'events' through the proxy
        final String events = "http://localhost:" + httpPort + "/events";
        assertTrue(out.contains("  curl -N " + events), out.toString());
        final Process curl = new ProcessBuilder("curl", "-N", "-s", "-i", events).redirectErrorStream(true).start();
        try (BufferedReader stream = new BufferedReader(new InputStreamReader(curl.getInputStream(), StandardCharsets.UTF_8)))
        {
            final Future<String> status = CompletableFuture.supplyAsync(() -> readLine(stream));
            assertTrue(status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).startsWith("HTTP/1.1 200"));
            // the cache fetches 'events' from its end once asked: what is produced from then on reaches the stream
            Thread.sleep(500);
            kcat("key1:hello sse\n", "-b", bootstrap, "-t", "events", "-K:", "-P");
            final Future<String> data = CompletableFuture.supplyAsync(() ->
            {
                String line;
                while ((line = readLine(stream)) != null && !line.startsWith("data:"))
                {
                    // the head, retry: and id: lines
                }
                return line;
            });
            assertEquals("data:hello sse", data.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).replace("data: ", "data:"));
        }
        finally
        {
            curl.destroyForcibly();
        }

        // the REST example, as its printed lines run it with curl
        final String items = "http://localhost:" + restPort + "/items";
        assertTrue(out.contains("  curl " + items), out.toString());
        assertEquals("204", curl("-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", items,
            "-H", "Idempotency-Key: 1", "-H", "Content-Type: application/json", "-d", "{\"greeting\":\"Hello\"}"));
        String listed = curl("-s", items);
        for (int attempt = 0; attempt < 100 && !listed.equals("[{\"greeting\":\"Hello\"}]"); attempt++)
        {
            Thread.sleep(100);
            listed = curl("-s", items);
        }
        assertEquals("[{\"greeting\":\"Hello\"}]", listed);

        zilla.sigterm();

        assertEquals(0, zilla.awaitExit(TIMEOUT), zilla.err().toString());
        assertEquals("stopped zilla demo", zilla.out().get(zilla.out().size() - 1), zilla.out().toString());
        assertEquals(List.of(), zilla.err());
        descendants.forEach(process -> assertFalse(process.isAlive(), "stray process " + process.info()));
        assertFalse(Files.exists(brokerDirectory), "the broker's data directory is deleted");
    }

    @Test
    void shouldStopCleanlyOnCtrlCInTerminal() throws Exception
    {
        final int port = FreePorts.freePorts(DemoCommand.PORTS);

        final ZillaProcess zilla = ZillaProcess.startInTerminal(DISTRIBUTION, temp, "demo", "--port", port, "--http-port",
            FreePorts.freePort(), "--rest-port", FreePorts.freePort());
        processes.add(zilla);
        zilla.awaitOut("Ctrl-C stops the demo.", TIMEOUT);
        final Matcher log = BROKER_LOG.matcher(String.join("\n", zilla.out()));
        assertTrue(log.find(), zilla.out().toString());
        final Path brokerDirectory = Path.of(log.group(1));
        // script's child is zilla's JVM, whose child is the broker's JVM; told apart by parent, not by command line,
        // because the JDK reads only the first page of /proc/<pid>/cmdline and the broker's class path is longer
        final ProcessHandle script = zilla.process().toHandle();
        final List<ProcessHandle> descendants = zilla.process().descendants().toList();
        assertTrue(descendants.stream().anyMatch(process -> process.parent().filter(script::equals).isEmpty()),
            "the broker's JVM, a grandchild of script: " + descendants);

        // Ctrl-C reaches zilla and the broker's JVM alike (one foreground process group): both stop, zilla waits
        zilla.ctrlC();

        assertEquals(0, zilla.awaitExit(TIMEOUT), zilla.out().toString());
        final String last = zilla.out().get(zilla.out().size() - 1);
        assertTrue(last.endsWith("stopped zilla demo"), zilla.out().toString());
        descendants.forEach(process -> assertFalse(process.isAlive(), "stray process " + process.info()));
        assertFalse(Files.exists(brokerDirectory), "the broker's data directory is deleted");
    }

    @Test
    void shouldStartKafkaProxyExampleWithBootstrapServerFromEnvironment() throws Exception
    {
        final int port = FreePorts.freePorts(DemoCommand.PORTS);
        final String bootstrap = "localhost:" + port;
        // the example as shipped, on free ports (the same move as the demo's)
        final Path config = temp.resolve("zilla.yaml");
        Files.writeString(config, DemoCommand.onPorts(Files.readString(EXAMPLES.resolve("kafka.proxy/zilla.yaml")), port));

        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            kafka.createTopic("events", 2);
            final ZillaProcess zilla = ZillaProcess.start(DISTRIBUTION, temp,
                Map.of("KAFKA_BOOTSTRAP_SERVER", kafka.bootstrapServers()), "start", "-c", config, "-w", 1);
            processes.add(zilla);
            assertEquals("started zilla with 1 worker: north_tcp_server, north_kafka_proxy, south_tcp_client",
                zilla.awaitOut("started zilla", TIMEOUT));

            final String metadata = kcat(null, "-b", bootstrap, "-L", "-t", "events");
            assertTrue(metadata.contains("broker 1 at localhost:" + (port + 1)), metadata);
            assertTrue(metadata.contains("topic \"events\" with 2 partitions"), metadata);
            kcat("key1:hello\n", "-b", bootstrap, "-t", "events", "-p", "1", "-K:", "-P");
            assertEquals("key1:hello\n", kcat(null, "-b", bootstrap, "-t", "events", "-p", "1", "-C", "-K:", "-e"));

            zilla.sigterm();

            assertEquals(0, zilla.awaitExit(TIMEOUT), zilla.err().toString());
            assertEquals("stopped zilla", zilla.out().get(zilla.out().size() - 1), zilla.out().toString());
            assertEquals(List.of(), zilla.err());
        }
    }

    @Test
    void shouldFailWithOneLineWhenPortIsInUse() throws Exception
    {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress()))
        {
            final ZillaProcess zilla = zilla("demo", "--port", taken.getLocalPort(), "--http-port", FreePorts.freePort(),
                "--rest-port", FreePorts.freePort());

            assertEquals(1, zilla.awaitExit(TIMEOUT));
            assertEquals(1, zilla.err().size(), zilla.err().toString());
            assertTrue(zilla.err().get(0).startsWith("zilla demo: port " + taken.getLocalPort() + " is in use"),
                zilla.err().toString());
            assertEquals(List.of(), zilla.out());
        }
    }

    private static String readLine(BufferedReader in)
    {
        try
        {
            return in.readLine();
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Runs curl with {@code args}; returns its stdout, failing on a non-zero exit or a timeout. */
    private static String curl(String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("curl", "--max-time", "30"));
        command.addAll(List.of(args));
        final Process curl = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        curl.getOutputStream().close();
        final String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(curl.waitFor(40, TimeUnit.SECONDS), command + " still runs");
        assertEquals(0, curl.exitValue(), command + ": " + out);
        return out;
    }

    private ZillaProcess zilla(Object... args) throws IOException
    {
        final ZillaProcess process = ZillaProcess.start(DISTRIBUTION, temp, args);
        processes.add(process);
        return process;
    }

    /** kcat on the PATH; the test fails at once, with how to install it, when it is missing (as .ci/run does). */
    private static String kcat()
    {
        return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator))
            .map(directory -> Path.of(directory, "kcat"))
            .filter(Files::isExecutable)
            .findFirst()
            .map(Path::toString)
            .orElseThrow(() -> new AssertionError("no kcat on the PATH: install it (Debian/Ubuntu: apt-get install kcat)"));
    }

    /** Runs kcat with {@code input} on its stdin; returns its stdout, failing on a non-zero exit or a timeout. */
    private String kcat(String input, String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of(kcat(), "-X", "broker.address.family=v4",
            "-m", String.valueOf(KCAT_TIMEOUT.toSeconds() / 2)));
        command.addAll(List.of(args));
        final Path stdout = Files.createTempFile(temp, "kcat", ".out");
        final Path stderr = Files.createTempFile(temp, "kcat", ".err");
        final Process kcat = new ProcessBuilder(command).directory(temp.toFile())
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
        if (input != null)
        {
            kcat.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        }
        kcat.getOutputStream().close();
        if (!kcat.waitFor(KCAT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
        {
            kcat.destroyForcibly();
            throw new AssertionError(command + " still runs after " + KCAT_TIMEOUT + ": " + Files.readString(stderr));
        }
        assertEquals(0, kcat.exitValue(), command + ": " + Files.readString(stderr));
        return Files.readString(stdout);
    }
}
