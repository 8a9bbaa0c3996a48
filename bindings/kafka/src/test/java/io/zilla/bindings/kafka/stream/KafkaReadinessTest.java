/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Readiness with a kafka binding, over the real health endpoint: zilla starts before its broker and is not ready,
 * naming the binding and the bootstrap server; it is ready once the broker is up, and not ready again once the broker
 * is killed. For the client kind (a Metadata request on its bootstrap connection) and the proxy kind (a lookup of the
 * brokers). The broker is this test's own, started on ports chosen first.
 */
class KafkaReadinessTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final int healthPort = FreePorts.next();

    @RegisterExtension
    final EngineExtension engine = new EngineExtension()
        .property(EngineConfiguration.HEALTH_HOST, "127.0.0.1")
        .property(EngineConfiguration.HEALTH_PORT, healthPort);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(WAIT).build();

    @Test
    void shouldBeReadyOnlyWhileTheClientsClusterAnswers() throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka().port(FreePorts.next()).controllerPort(FreePorts.next()))
        {
            final String bootstrap = "127.0.0.1:" + kafka.port();
            engine.anchor(KafkaClientBrokerRestartTest.class).workers(2).env("KAFKA_BOOTSTRAP", bootstrap)
                .start("client.yaml");

            assertFollowsTheBroker(kafka, "kafka kafka_client: " + bootstrap + ": no answer");
        }
    }

    @Test
    void shouldBeReadyOnlyWhileTheProxysClusterAnswers() throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka().port(FreePorts.next()).controllerPort(FreePorts.next()))
        {
            final String bootstrap = "127.0.0.1:" + kafka.port();
            new KafkaProxyFixture(engine).start(bootstrap, "proxy.yaml", Map.of());

            assertFollowsTheBroker(kafka, "kafka north_kafka_proxy: " + bootstrap + ": no Metadata answer");
        }
    }

    private void assertFollowsTheBroker(EmbeddedKafka kafka, String unmet) throws Exception
    {
        final HttpResponse<String> before = ready();
        assertEquals(503, before.statusCode(), before.body());
        assertTrue(before.body().startsWith("{\"ready\":false,\"unmet\":[\"" + unmet), before.body());
        final HttpResponse<String> live = get("/health/live");
        assertEquals(200, live.statusCode(), "live without its broker: " + live.body());

        kafka.start();
        final HttpResponse<String> started = awaitReady(200);
        assertEquals("{\"ready\":true}\n", started.body());

        kafka.kill();
        final HttpResponse<String> killed = awaitReady(503);
        assertTrue(killed.body().contains(unmet), killed.body());
    }

    private HttpResponse<String> awaitReady(int status) throws Exception
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        HttpResponse<String> response = ready();
        while (response.statusCode() != status && System.nanoTime() < deadline)
        {
            Thread.sleep(200);
            response = ready();
        }
        assertEquals(status, response.statusCode(), "within " + WAIT + ": " + response.body());
        return response;
    }

    private HttpResponse<String> ready() throws IOException, InterruptedException
    {
        return get("/health/ready");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException
    {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
