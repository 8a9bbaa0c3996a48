/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The server and its checks alone, over a real socket: the states an engine passes through too fast to probe. */
class HealthServerTest
{
    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void shouldNotBeReadyBeforeTheEngineStarted() throws Exception
    {
        try (HealthServer server = new HealthServer("127.0.0.1", 0, new Liveness(List.of(), 5000, () -> 0L), new Readiness()))
        {
            server.start();

            final HttpResponse<String> ready = get(server, "/health/ready");

            assertEquals(503, ready.statusCode());
            assertEquals("{\"ready\":false,\"unmet\":[\"starting\"]}\n", ready.body());
        }
    }

    @Test
    void shouldStayNotReadyOnceStoppingEvenIfStartedAfter() throws Exception
    {
        final Readiness readiness = new Readiness();
        readiness.stopping();
        readiness.started();

        assertEquals("{\"ready\":false,\"unmet\":[\"stopping\"]}", readiness.check().json());
    }

    @Test
    void shouldNotBeLiveWhenAWorkerThreadEnded() throws Exception
    {
        final WorkerPulse ended = new WorkerPulse(0, 1000L);
        final Thread thread = new Thread(() -> { });
        ended.thread(thread);
        thread.start();
        thread.join();
        final WorkerPulse running = new WorkerPulse(1, 1000L);
        running.thread(Thread.currentThread());
        try (HealthServer server = new HealthServer("127.0.0.1", 0, new Liveness(List.of(ended, running), 5000, () -> 1200L),
            new Readiness()))
        {
            server.start();

            final HttpResponse<String> live = get(server, "/health/live");

            assertEquals(503, live.statusCode());
            assertEquals("{\"live\":false,\"workers\":2,\"stalled\":[{\"worker\":0,\"alive\":false}]}\n", live.body());
        }
    }

    private HttpResponse<String> get(HealthServer server, String path) throws Exception
    {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
