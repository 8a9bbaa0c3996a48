/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.ReadyCondition;
import io.zilla.engine.internal.EngineDirectory;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.TestBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The health endpoint of a running engine, probed over real sockets with the JDK's HttpClient. */
class HealthEndpointTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String CONFIG = """
        name: test
        bindings:
          app:
            type: test
            kind: client
            exit: net
          net:
            type: test
            kind: server
        """;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension()
        .property(EngineConfiguration.HEALTH_HOST, "127.0.0.1");

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    @Test
    void shouldListenOnNothingByDefault()
    {
        engine.startText("zilla.yaml", CONFIG);

        assertEquals(Optional.empty(), engine.engine().healthDescription());
        assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("zilla-health")),
            "no health thread");
    }

    @Test
    void shouldBeLiveAndReadyOnceStarted() throws Exception
    {
        final int port = FreePorts.next();
        engine.workers(2).property(EngineConfiguration.HEALTH_PORT, port).startText("zilla.yaml", CONFIG);

        assertEquals(Optional.of("http://127.0.0.1:" + port + "/health/ready, /health/live"),
            engine.engine().healthDescription());
        final HttpResponse<String> live = get(port, "/health/live");
        assertEquals(200, live.statusCode());
        assertEquals("{\"live\":true,\"workers\":2}\n", live.body());
        assertEquals("application/json", live.headers().firstValue("Content-Type").orElseThrow());
        final HttpResponse<String> ready = get(port, "/health/ready");
        assertEquals(200, ready.statusCode());
        assertEquals("{\"ready\":true}\n", ready.body());
        assertTrue(Files.exists(engine.directory().resolve(EngineDirectory.READY_FILE)), "ready as the ready file is");
        final HttpResponse<String> both = get(port, "/health");
        assertEquals(200, both.statusCode());
        assertEquals("{\"live\":{\"live\":true,\"workers\":2},\"ready\":{\"ready\":true}}\n", both.body());
    }

    @Test
    void shouldAnswerHeadAndRefuseOtherPathsAndMethods() throws Exception
    {
        final int port = FreePorts.next();
        engine.property(EngineConfiguration.HEALTH_PORT, port).startText("zilla.yaml", CONFIG);

        final HttpResponse<String> head = send(HttpRequest.newBuilder(uri(port, "/health/ready"))
            .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
        assertEquals(404, get(port, "/health/other").statusCode());
        assertEquals(404, get(port, "/").statusCode());
        final HttpResponse<String> post = send(HttpRequest.newBuilder(uri(port, "/health/live"))
            .POST(HttpRequest.BodyPublishers.ofString("x")).build());
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
    }

    @Test
    void shouldReportAStalledWorkerUntilItPassesAgain() throws Exception
    {
        final int port = FreePorts.next();
        engine.workers(2)
            .property(EngineConfiguration.HEALTH_PORT, port)
            .property(EngineConfiguration.HEALTH_STALL_MILLIS, 1000)
            .startText("zilla.yaml", CONFIG);
        assertEquals(200, get(port, "/health/live").statusCode());

        // blocked well past the threshold, so that the stall is seen while it lasts
        final CompletableFuture<Void> blocked = TestBinding.client("app", 1).block(5000);
        final HttpResponse<String> stalled = await(port, "/health/live", r -> r.statusCode() == 503);

        assertFalse(blocked.isDone(), "seen while the worker is blocked");
        final String expected = "\\{\"live\":false,\"workers\":2,\"stalled\":\\[\\{\"worker\":1,\"stalled_ms\":\\d+}]}\\n";
        assertTrue(stalled.body().matches(expected), stalled.body());
        final HttpResponse<String> both = get(port, "/health");
        assertEquals(503, both.statusCode());
        assertTrue(both.body().endsWith(",\"ready\":{\"ready\":true}}\n"), "stalled, yet ready: " + both.body());

        blocked.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        final HttpResponse<String> again = await(port, "/health/live", r -> r.statusCode() == 200);
        assertEquals("{\"live\":true,\"workers\":2}\n", again.body());
    }

    @Test
    void shouldNotBeReadyOnceAStopBegins() throws Exception
    {
        final int port = FreePorts.next();
        engine.property(EngineConfiguration.HEALTH_PORT, port).startText("zilla.yaml", CONFIG);
        assertEquals(200, get(port, "/health/ready").statusCode());

        // a blocked worker holds the stop in its join, long enough to probe the stopping engine
        final CompletableFuture<Void> blocked = TestBinding.client("app").block(3000);
        final CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> engine.engine().close());
        final HttpResponse<String> stopping = await(port, "/health/ready", r -> r.statusCode() == 503);

        assertEquals("{\"ready\":false,\"unmet\":[\"stopping\"]}\n", stopping.body());
        assertFalse(Files.exists(engine.directory().resolve(EngineDirectory.READY_FILE)), "the ready file went too");
        blocked.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        closed.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertThrows(IOException.class, () -> get(port, "/health/ready"), "a stopped engine listens no more");
    }

    @Test
    void shouldWaitForEveryConditionABindingRegistered() throws Exception
    {
        final int port = FreePorts.next();
        engine.workers(2).property(EngineConfiguration.HEALTH_PORT, port).startText("zilla.yaml", CONFIG);
        final AtomicReference<String> cluster = new AtomicReference<>("localhost:9092: connection failed");
        final ReadyCondition condition = TestBinding.client("app", 1).readyCondition("kafka app", cluster::get);

        final HttpResponse<String> unreachable = get(port, "/health/ready");
        assertEquals(503, unreachable.statusCode());
        assertEquals("{\"ready\":false,\"unmet\":[\"kafka app: localhost:9092: connection failed\"]}\n",
            unreachable.body());

        // the probe asks the binding on its worker and waits for the answer: the first probe after a change sees it
        cluster.set(null);
        final HttpResponse<String> reachable = get(port, "/health/ready");
        assertEquals(200, reachable.statusCode(), reachable.body());
        assertEquals(200, get(port, "/health/live").statusCode(), "liveness does not care");

        cluster.set("localhost:9092: \"gone\"");
        final HttpResponse<String> gone = get(port, "/health");
        assertEquals(503, gone.statusCode());
        assertTrue(gone.body().endsWith("\"ready\":{\"ready\":false,\"unmet\":[\"kafka app: localhost:9092: \\\"gone\\\"\"]}}\n"),
            gone.body());

        // a condition whose binding detached no longer counts
        TestBinding.client("app", 1).run(condition::close);
        final HttpResponse<String> detached = await(port, "/health/ready", r -> r.statusCode() == 200);
        assertEquals("{\"ready\":true}\n", detached.body());
    }

    @Test
    void shouldFailTheStartWhenThePortIsInUse() throws Exception
    {
        try (ServerSocket taken = new ServerSocket())
        {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            final int port = taken.getLocalPort();
            engine.property(EngineConfiguration.HEALTH_PORT, port);

            final IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> engine.startText("zilla.yaml", CONFIG));

            assertEquals("zilla could not start: health http://127.0.0.1:" + port + "/health: cannot listen on port " + port
                + ": Address already in use", failure.getMessage());
            assertFalse(Files.exists(engine.directory().resolve(EngineDirectory.READY_FILE)), "never ready");
        }
    }

    @Test
    void shouldRefuseAStallThresholdAnIdleWorkerWouldCross()
    {
        engine.property(EngineConfiguration.HEALTH_PORT, FreePorts.next())
            .property(EngineConfiguration.HEALTH_STALL_MILLIS, 100);

        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> engine.startText("zilla.yaml", CONFIG));

        assertTrue(failure.getMessage().startsWith("zilla.engine.health.stall.millis: must be more than "
            + "zilla.engine.idle.park.max.millis (100)"), failure.getMessage());
    }

    private HttpResponse<String> await(int port, String path, Predicate<HttpResponse<String>> condition) throws Exception
    {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        HttpResponse<String> response = get(port, path);
        while (!condition.test(response) && System.nanoTime() < deadline)
        {
            Thread.sleep(50);
            response = get(port, path);
        }
        assertTrue(condition.test(response), "not within " + TIMEOUT + ": " + response.statusCode() + " " + response.body());
        return response;
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException
    {
        return send(HttpRequest.newBuilder(uri(port, path)).build());
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException
    {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(int port, String path)
    {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
