/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.BindingFactorySpi;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.NamespaceConfig;
import org.junit.jupiter.api.Test;

/** http-kafka in zilla.yaml: Zilla's shape accepted and bound, and what is refused, with line:column and path. */
class HttpKafkaConfigTest
{
    // the exit: a kafka client straight (a cache_client would do as well)
    private static final String SOUTH = """
          kafka_cache_client:
            type: kafka
            kind: client
            options:
              servers: [ "localhost:9092" ]
            exit: tcp
          tcp:
            type: tcp
            kind: client
        """;

    // every binding type on the class path, as the engine finds them
    private final ConfigReader reader = new ConfigReader(ServiceLoader.load(BindingFactorySpi.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(factory -> !factory.type().equals("test"))
        .collect(Collectors.toMap(BindingFactorySpi::type, factory -> factory.create(new EngineConfiguration()))),
        Map.of(), name -> null);

    @Test
    void shouldBindZillasShape()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              http_kafka_proxy:
                type: http-kafka
                kind: proxy
                options:
                  idempotency:
                    header: x-request-key
                  correlation:
                    headers:
                      reply-to: x:reply-to
                      correlation-id: x:cid
                routes:
                  - when:
                      - method: GET
                        path: /items
                    exit: kafka_cache_client
                    with:
                      capability: fetch
                      topic: items-snapshots
                      merge:
                        content-type: application/json
                        initial: '{"data":[]}'
                        path: /data/-
                  - when:
                      - method: GET
                        path: /items/{id}
                    exit: kafka_cache_client
                    with:
                      capability: fetch
                      topic: items-snapshots
                      filters:
                        - key: ${params.id}
                  - when:
                      - method: PUT
                        path: /items/{id}
                      - method: GET
                        path: /items/{id};cid={correlationId}
                    exit: kafka_cache_client
                    with:
                      capability: produce
                      topic: items-requests
                      acks: leader_only
                      key: ${params.id}
                      overrides:
                        x-source: ${idempotencyKey}
                      reply-to: items-responses
                      async:
                        location: /items/${params.id};cid=${correlationId}
            """ + SOUTH, 1);
        final BindingConfig proxy = config.bindings().stream().filter(b -> b.name().equals("http_kafka_proxy")).findFirst()
            .orElseThrow();
        final HttpKafkaOptionsConfig options = (HttpKafkaOptionsConfig) proxy.options();
        assertEquals("x-request-key", options.idempotencyHeader());
        assertEquals("x:reply-to", options.replyToHeader());
        assertEquals("x:cid", options.correlationIdHeader());
        assertEquals(HttpKafkaOptionsConfig.BODY_LIMIT, options.bodyLimit());
        final HttpKafkaWithConfig list = (HttpKafkaWithConfig) proxy.routes().get(0).with();
        assertEquals(HttpKafkaWithConfig.Capability.FETCH, list.capability());
        assertEquals("{\"data\":[", new String(list.merge().prefix(), UTF_8));
        assertEquals("]}", new String(list.merge().suffix(), UTF_8));
        final HttpKafkaWithConfig produce = (HttpKafkaWithConfig) proxy.routes().get(2).with();
        assertEquals(HttpKafkaWithConfig.Capability.PRODUCE, produce.capability());
        assertEquals(1, produce.acks());
        assertEquals("items-responses", produce.replyTo());
        assertEquals("/items/${params.id};cid=${correlationId}", produce.location().text());
        final HttpKafkaConditionConfig async = (HttpKafkaConditionConfig) proxy.routes().get(2).when().get(1);
        assertEquals("GET", async.method());
        assertEquals(List.of("id", "correlationId"), async.path().params());
    }

    @Test
    void shouldRefuseWhatZillaRefusesWithItsPlace()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              http_kafka_proxy:
                type: http-kafka
                kind: proxy
                options:
                  idempotency:
                    header: Idempotency-Key
                routes:
                  - when:
                      - method: get
                        path: items
                    exit: kafka_cache_client
                    with:
                      capability: consume
                      topic: items
                  - when:
                      - path: /items/{id}
                    exit: kafka_cache_client
                    with:
                      capability: fetch
                      topic: items
                      acks: all
                      key: ${params.id}
                  - when:
                      - path: /items/{id}
                    exit: kafka_cache_client
                    with:
                      capability: produce
                      topic: items
                      merge:
                        content-type: text/plain
                      acks: some
            """ + SOUTH,
            "9:17 bindings.http_kafka_proxy.options.idempotency.header: must be a header name in lower case",
            "12:21 bindings.http_kafka_proxy.routes[0].when[0].method: must be a method in upper case, such as GET",
            "13:19 bindings.http_kafka_proxy.routes[0].when[0].path: must start with /",
            "16:23 bindings.http_kafka_proxy.routes[0].with.capability: must be produce or fetch",
            "24:17 bindings.http_kafka_proxy.routes[1].with.acks: is for capability produce",
            "24:17 bindings.http_kafka_proxy.routes[1].with.acks: must be none, leader_only or in_sync_replicas",
            "25:16 bindings.http_kafka_proxy.routes[1].with.key: is for capability produce: a fetch route filters by key"
                + " (filters[].key)",
            "32:11 bindings.http_kafka_proxy.routes[2].with.merge: is for capability fetch",
            "33:27 bindings.http_kafka_proxy.routes[2].with.merge.content-type: must be application/json, the one merge"
                + " built",
            "34:17 bindings.http_kafka_proxy.routes[2].with.acks: must be none, leader_only or in_sync_replicas");
    }

    @Test
    void shouldRefuseParamsThePathDoesNotCaptureAndAsyncWithoutReplyTo()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              http_kafka_proxy:
                type: http-kafka
                kind: proxy
                routes:
                  - when:
                      - method: PUT
                        path: /items/{id}
                      - method: POST
                        path: /items
                    exit: kafka_cache_client
                    with:
                      capability: produce
                      topic: items
                      key: ${params.id}
                      async:
                        location: /items/${correlationId}
            """ + SOUTH,
            "17:16 bindings.http_kafka_proxy.routes[0].with.key: ${params.id}: not captured by the path /items",
            "18:11 bindings.http_kafka_proxy.routes[0].with.async: async goes with reply-to: without a reply there is"
                + " nothing to fetch from the location");
        assertErrors("""
            ---
            name: test
            bindings:
              http_kafka_proxy:
                type: http-kafka
                kind: proxy
                routes:
                  - when:
                      - path: /things/{id}
                    exit: kafka_cache_client
                    with:
                      capability: produce
                      topic: things
                      key: ${params.id}-${correlationId}
            """ + SOUTH,
            "14:16 bindings.http_kafka_proxy.routes[0].with.key: unknown expression ${correlationId}: a value here may hold"
                + " ${params.<name>} only, the segment a route's path captured as {<name>}, or ${idempotencyKey}");
    }

    // each error as line:column path: message, one a line, in file order
    private void assertErrors(String yaml, String... expected)
    {
        final String errors = assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", yaml, 1)).errors()
            .stream()
            .map(e -> String.format("%d:%d %s: %s", e.line(), e.column(), e.path(), e.message()))
            .collect(Collectors.joining("\n"));
        assertEquals(String.join("\n", expected), errors);
    }
}
