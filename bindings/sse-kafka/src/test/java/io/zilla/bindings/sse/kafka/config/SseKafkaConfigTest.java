/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.zilla.bindings.kafka.KafkaBindingFactory;
import io.zilla.bindings.sse.kafka.SseKafkaBindingFactory;
import io.zilla.bindings.tcp.TcpBindingFactory;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.PathPattern;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.ValueTemplate;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** sse-kafka in zilla.yaml: Zilla's shape accepted and bound, and what is refused, with line:column and path. */
class SseKafkaConfigTest
{
    /** The kafka graph below the proxy, appended to its text. */
    private static final String SOUTH = """
          kafka_cache_client:
            type: kafka
            kind: cache_client
            exit: kafka_cache_server
          kafka_cache_server:
            type: kafka
            kind: cache_server
            exit: kafka_client
          kafka_client:
            type: kafka
            kind: client
            options:
              servers:
                - localhost:9092
            exit: tcp_client
          tcp_client:
            type: tcp
            kind: client
        """;

    private final ConfigReader reader;

    SseKafkaConfigTest()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final Map<String, Binding> bindings = Map.of(
            "sse-kafka", new SseKafkaBindingFactory().create(configuration),
            "kafka", new KafkaBindingFactory().create(configuration),
            "tcp", new TcpBindingFactory().create(configuration));
        this.reader = new ConfigReader(bindings, Map.of(), name -> null);
    }

    @Test
    void shouldBindZillasShape()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              sse_kafka_proxy:
                type: sse-kafka
                kind: proxy
                routes:
                  - when:
                      - path: /items
                    exit: kafka_cache_client
                    with:
                      topic: items-snapshots
                      event:
                        id: '["${base64(key)}","${etag}"]'
                  - when:
                      - path: /items/{id}
                      - path: /things/{id}/{kind}
                    exit: kafka_cache_client
                    with:
                      topic: items-snapshots
                      filters:
                        - key: ${params.id}
                        - key: item-${params.id}
                          headers:
                            tenant: ${params.id}
                      defaultOffset: historical
            """ + SOUTH, 1);

        final BindingConfig proxy = config.binding("sse_kafka_proxy");
        assertEquals(2, proxy.routes().size(), "no exit of its own");
        final RouteConfig items = proxy.routes().get(0);
        final SseKafkaWithConfig itemsWith = (SseKafkaWithConfig) items.with();
        assertEquals("items-snapshots", itemsWith.topic().text());
        assertEquals(SseKafkaWithConfig.EventIdFormat.KEY_AND_ETAG, itemsWith.eventId());
        assertNull(itemsWith.defaultOffset(), "the exit's own default");
        assertEquals(List.of(), itemsWith.filters());
        assertEquals(config.binding("kafka_cache_client").id(), items.exitId());

        final SseKafkaWithConfig item = (SseKafkaWithConfig) proxy.routes().get(1).with();
        assertEquals(SseKafkaWithConfig.EventIdFormat.ETAG, item.eventId(), "the default");
        assertEquals(SseKafkaWithConfig.DefaultOffset.HISTORICAL, item.defaultOffset());
        assertEquals(2, item.filters().size());
        assertEquals(List.of("id"), item.filters().get(0).key().params());
        assertEquals("tenant", item.filters().get(1).headers().get(0).name());
        assertEquals(List.of("id"), item.filters().get(1).headers().get(0).value().params());
    }

    @Test
    void shouldMatchPathsAndCaptureParams()
    {
        final PathPattern pattern = PathPattern.compile("/things/{id}/{kind}");
        final int[] starts = new int[pattern.parts()];
        final int[] ends = new int[pattern.parts()];
        final UnsafeBuffer path = new UnsafeBuffer("/things/42/big?x=1".getBytes(UTF_8));
        assertTrue(pattern.matches(path, 0, path.capacity(), starts, ends));
        final ValueTemplate template = ValueTemplate.parse("topic", "t-${params.kind}-${params.id}");
        final UnsafeBuffer out = new UnsafeBuffer(new byte[64]);
        final int length = template.resolve(pattern, path, starts, ends, out, 0, out.capacity());
        assertEquals("t-big-42", out.getStringWithoutLengthUtf8(0, length));

        for (String other : List.of("/things/42", "/things//big", "/things/4/2/big", "/thing/42/big", "/things/42/big/"))
        {
            final UnsafeBuffer bytes = new UnsafeBuffer(other.getBytes(UTF_8));
            assertFalse(pattern.matches(bytes, 0, bytes.capacity(), starts, ends), other);
        }
        // a segment is percent-decoded; a % without two hex digits after it is itself
        final PathPattern item = PathPattern.compile("/items/{id}");
        final UnsafeBuffer encoded = new UnsafeBuffer("/items/a%20b%2fc%zz%4".getBytes(UTF_8));
        final int[] itemStarts = new int[item.parts()];
        final int[] itemEnds = new int[item.parts()];
        assertTrue(item.matches(encoded, 0, encoded.capacity(), itemStarts, itemEnds));
        final int decoded = ValueTemplate.parse("key", "${params.id}").resolve(item, encoded, itemStarts, itemEnds, out, 0,
            out.capacity());
        assertEquals("a b/c%zz%4", out.getStringWithoutLengthUtf8(0, decoded));

        final PathPattern star = PathPattern.compile("/events/*");
        final UnsafeBuffer deep = new UnsafeBuffer("/events/a/b".getBytes(UTF_8));
        assertTrue(star.matches(deep, 0, deep.capacity(), new int[star.parts()], new int[star.parts()]));
    }

    @Test
    void shouldRefuseWhatItDoesNotDo()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              sse_kafka_proxy:
                type: sse-kafka
                kind: proxy
                options:
                  retry: 1000
                routes:
                  - when:
                      - path: /items
                    exit: kafka_cache_client
                    with:
                      topic: items
                      event:
                        id: ${offset}
                      defaultOffset: earliest
                  - when:
                      - path: /items/{id}
                        method: GET
                    exit: kafka_cache_client
                    with:
                      topic: items
                      filters:
                        - value: x
                        - {}
                  - when:
                      - path: /items/{id}
                    exit: kafka_cache_client
                exit: kafka_cache_client
            """ + SOUTH,
            "7:5 bindings.sse_kafka_proxy.options: an sse-kafka binding has no options: a route's with says what each"
                + " stream reads",
            "16:17 bindings.sse_kafka_proxy.routes[0].with.event.id: must be ${etag} or [\"${base64(key)}\",\"${etag}\"]",
            "17:26 bindings.sse_kafka_proxy.routes[0].with.defaultOffset: must be live or historical",
            "20:13 bindings.sse_kafka_proxy.routes[1].when[0]: unknown property 'method'",
            "25:15 bindings.sse_kafka_proxy.routes[1].with.filters[0]: unknown property 'value'",
            "26:15 bindings.sse_kafka_proxy.routes[1].with.filters[1]: a filter names a key, headers or both",
            "27:9 bindings.sse_kafka_proxy.routes[2]: missing required property 'with'",
            "30:11 bindings.sse_kafka_proxy.exit: an sse-kafka binding has no default exit: each route names its exit and"
                + " its topic (with.topic)");
    }

    @Test
    void shouldRefuseParamsThePathDoesNotCapture()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              sse_kafka_proxy:
                type: sse-kafka
                kind: proxy
                routes:
                  - when:
                      - path: /items/{id}
                      - path: /all
                    exit: kafka_cache_client
                    with:
                      topic: items-${params.tenant}
                      filters:
                        - key: ${params.id}
                  - exit: kafka_cache_client
                    with:
                      topic: items
                      filters:
                        - headers:
                            owner: ${params.id}
            """ + SOUTH,
            "13:18 bindings.sse_kafka_proxy.routes[0].with.topic: ${params.tenant}: when[0].path /items/{id} captures no"
                + " {tenant}",
            "13:18 bindings.sse_kafka_proxy.routes[0].with.topic: ${params.tenant}: when[1].path /all captures no {tenant}",
            "15:20 bindings.sse_kafka_proxy.routes[0].with.filters[0].key: ${params.id}: when[1].path /all captures no {id}",
            "21:24 bindings.sse_kafka_proxy.routes[1].with.filters[0].headers.owner: ${params.id}: the route has no when"
                + " path to capture it");
    }

    @Test
    void shouldRefuseAPathNotFromTheRoot()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              sse_kafka_proxy:
                type: sse-kafka
                kind: proxy
                routes:
                  - when:
                      - path: items
                    exit: kafka_cache_client
                    with:
                      topic: items
            """ + SOUTH,
            "9:19 bindings.sse_kafka_proxy.routes[0].when[0].path: must start with /");
    }

    @Test
    void shouldRefuseAnExitThatServesNoMergedStream()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              sse_kafka_proxy:
                type: sse-kafka
                kind: proxy
                routes:
                  - when:
                      - path: /items
                    exit: kafka_cache_server
                    with:
                      topic: items
                  - when:
                      - path: /other
                    exit: tcp_client
                    with:
                      topic: items
            """ + SOUTH,
            "10:15 bindings.sse_kafka_proxy.routes[0].exit: an sse-kafka route's exit must be a kafka cache_client (or"
                + " client), not kafka_cache_server (kafka cache_server)",
            "15:15 bindings.sse_kafka_proxy.routes[1].exit: an sse-kafka route's exit must be a kafka cache_client (or"
                + " client), not tcp_client (tcp client)");
    }

    @Test
    void shouldRefuseUnknownExpressionsAndBadPaths()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              sse_kafka_proxy:
                type: sse-kafka
                kind: proxy
                routes:
                  - when:
                      - path: /items/{id
                      - path: /items/{1d}
                      - path: /items/{id}{kind}
                    exit: tcp_client
                    with:
                      topic: ${env.TOPIC}
                      filters:
                        - key: ${params.id
                          headers:
                            x-${params.id}: y
            """ + SOUTH,
            "9:19 bindings.sse_kafka_proxy.routes[0].when[0].path: '{' at 7 is not closed by '}'",
            "10:19 bindings.sse_kafka_proxy.routes[0].when[1].path: '1d' is not a parameter name (a letter or _, then"
                + " letters, digits or _)",
            "11:19 bindings.sse_kafka_proxy.routes[0].when[2].path: parameter 'kind' follows another parameter or *: where"
                + " one ends would be a guess",
            "14:18 bindings.sse_kafka_proxy.routes[0].with.topic: unknown expression ${env.TOPIC}: a value here may hold"
                + " ${params.<name>} only, the segment a route's path captured as {<name>}");
    }

    @Test
    void shouldRefuseAnExpressionInAHeaderName()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              sse_kafka_proxy:
                type: sse-kafka
                kind: proxy
                routes:
                  - when:
                      - path: /items/{id}
                    exit: kafka_cache_client
                    with:
                      topic: items
                      filters:
                        - key: ${params.id
                  - when:
                      - path: /items/{id}
                    exit: kafka_cache_client
                    with:
                      topic: items
                      filters:
                        - headers:
                            x-${params.id}: y
            """ + SOUTH,
            "14:20 bindings.sse_kafka_proxy.routes[0].with.filters[0].key: '${' at 0 is not closed by '}'",
            "21:15 bindings.sse_kafka_proxy.routes[1].with.filters[0].headers: header name 'x-${params.id}' holds an"
                + " expression: a header's name is literal, its value may hold ${params.<name>}");
    }

    // each error as line:column path: message, in file order
    private void assertErrors(String yaml, String... expected)
    {
        final ConfigException failure = assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", yaml, 1));
        assertEquals(List.of(expected), failure.errors().stream()
            .map(error -> error.line() + ":" + error.column() + " " + error.path() + ": " + error.message())
            .toList());
    }
}
