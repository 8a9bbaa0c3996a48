/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.zilla.bindings.kafka.config.KafkaCacheOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaClientOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaTopicConditionConfig;
import io.zilla.bindings.kafka.config.KafkaTopicConfig;
import io.zilla.bindings.tcp.TcpBindingFactory;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.RouteConfig;
import org.junit.jupiter.api.Test;

/**
 * kafka's kinds cache_client and cache_server in zilla.yaml, read by the engine's config reader: Zilla's own shapes,
 * their options bound, what is refused (with line:column and path), and how a route's topic matches.
 */
class KafkaCacheConfigTest
{
    /** The cache_server, kind client and tcp client below a cache_client, appended to its text. */
    private static final String SOUTH = """
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

    KafkaCacheConfigTest()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final Map<String, Binding> bindings = Map.of(
            "kafka", new KafkaBindingFactory().create(configuration),
            "tcp", new TcpBindingFactory().create(configuration));
        this.reader = new ConfigReader(bindings, Map.of(), name -> null);
    }

    @Test
    void shouldAcceptACacheClientWithAnExit()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                exit: kafka_cache_server
            """ + SOUTH, 1);

        final BindingConfig client = config.binding("kafka_cache_client");
        assertEquals(KindConfig.CACHE_CLIENT, client.kind());
        assertNull(client.options(), "no options written");
        assertEquals(1, client.routes().size());
        assertEquals("kafka_cache_server", client.resolve(topic("any-topic")).exit(), "the exit takes every topic");
        assertEquals(config.binding("kafka_cache_server").id(), client.routes().get(0).exitId());
        assertEquals(KindConfig.CACHE_SERVER, config.binding("kafka_cache_server").kind());
    }

    @Test
    void shouldRouteACacheClientByTopic()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                routes:
                  - when:
                      - topic: test
                    exit: kafka_cache_server
            """ + SOUTH, 1);

        final BindingConfig client = config.binding("kafka_cache_client");
        assertEquals(1, client.routes().size(), "no exit of its own");
        final RouteConfig route = client.routes().get(0);
        assertEquals(List.of(new KafkaTopicConditionConfig("test")), route.when());
        assertEquals("test", ((KafkaTopicConditionConfig) route.when().get(0)).topic());
        assertEquals(route, client.resolve(topic("test")));
        assertNull(client.resolve(topic("other")), "a topic no route names goes nowhere");
        assertNull(client.resolve(topic("test-1")), "no wildcard, no prefix match");
    }

    @Test
    void shouldRouteByWildcardBeforeTheExit()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                routes:
                  - when:
                      - topic: items-*
                      - topic: orders
                    exit: kafka_cache_server
                exit: other_cache_server
              other_cache_server:
                type: kafka
                kind: cache_server
                exit: kafka_client
            """ + SOUTH, 1);

        final BindingConfig client = config.binding("kafka_cache_client");
        assertEquals(2, client.routes().size(), "the route, then the exit");
        assertEquals("kafka_cache_server", client.resolve(topic("items-requests")).exit());
        assertEquals("kafka_cache_server", client.resolve(topic("orders")).exit());
        assertEquals("other_cache_server", client.resolve(topic("other")).exit());
        assertEquals("other_cache_server", client.resolve(topic("items")).exit(), "items-* needs the dash");
    }

    @Test
    void shouldBindTheBootstrapTopicsOfTheSseKafkaFanoutChain()
    {
        // Zilla's sse.kafka.fanout example, south of its sse_kafka mapping
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: example
            bindings:
              south_kafka_cache_client:
                type: kafka
                kind: cache_client
                exit: south_kafka_cache_server
              south_kafka_cache_server:
                type: kafka
                kind: cache_server
                options:
                  bootstrap:
                    - events
                exit: south_kafka_client
              south_kafka_client:
                type: kafka
                kind: client
                options:
                  servers:
                    - kafka.examples.svc.cluster.local:9092
                exit: south_tcp_client
              south_tcp_client:
                type: tcp
                kind: client
            """, 1);

        assertEquals(List.of("south_kafka_cache_server"), exits(config.binding("south_kafka_cache_client")));
        final BindingConfig server = config.binding("south_kafka_cache_server");
        assertEquals(KindConfig.CACHE_SERVER, server.kind());
        assertEquals(List.of("south_kafka_client"), exits(server));
        final KafkaCacheOptionsConfig options = (KafkaCacheOptionsConfig) server.options();
        assertEquals(List.of("events"), options.bootstrap());
        assertEquals(List.of(), options.topics());
        assertEquals(new KafkaTopicConfig("events", KafkaTopicConfig.DefaultOffset.HISTORICAL), options.topic("events"));
        final BindingConfig client = config.binding("south_kafka_client");
        assertEquals(List.of("kafka.examples.svc.cluster.local:9092"), ((KafkaClientOptionsConfig) client.options()).servers());
        assertEquals(List.of("south_tcp_client"), exits(client));
    }

    @Test
    void shouldBindTopicDefaultOffsets()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                options:
                  topics:
                    - name: test
                      defaultOffset: live
                exit: kafka_cache_server
              kafka_cache_server:
                type: kafka
                kind: cache_server
                options:
                  bootstrap: [ test, items ]
                  topics:
                    - name: test
                      defaultOffset: live
                    - name: items
                      defaultOffset: historical
                      deltaType: none
                    - name: orders
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
            """, 1);

        final KafkaCacheOptionsConfig client = (KafkaCacheOptionsConfig) config.binding("kafka_cache_client").options();
        assertEquals(List.of(), client.bootstrap());
        assertEquals(List.of(new KafkaTopicConfig("test", KafkaTopicConfig.DefaultOffset.LIVE)), client.topics());

        final KafkaCacheOptionsConfig server = (KafkaCacheOptionsConfig) config.binding("kafka_cache_server").options();
        assertEquals(List.of("test", "items"), server.bootstrap());
        assertEquals(KafkaTopicConfig.DefaultOffset.LIVE, server.topic("test").defaultOffset());
        assertEquals(KafkaTopicConfig.DefaultOffset.HISTORICAL, server.topic("items").defaultOffset());
        assertEquals(KafkaTopicConfig.DefaultOffset.HISTORICAL, server.topic("orders").defaultOffset(), "Zilla's default");
        assertEquals(new KafkaTopicConfig("unlisted", KafkaTopicConfig.DefaultOffset.HISTORICAL), server.topic("unlisted"));
        assertEquals(-1L, server.topic("test").defaultOffset().sentinel(), "Kafka's latest");
        assertEquals(-2L, server.topic("unlisted").defaultOffset().sentinel(), "Kafka's earliest");
    }

    @Test
    void shouldRefuseAnUnknownDefaultOffset()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                options:
                  topics:
                    - name: test
                      defaultOffset: earliest
                exit: kafka_cache_server
            """ + SOUTH,
            "10:26 bindings.kafka_cache_client.options.topics[0].defaultOffset: must be one of: live, historical");
    }

    @Test
    void shouldRefuseJsonPatchDeltas()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                exit: kafka_cache_server
              kafka_cache_server:
                type: kafka
                kind: cache_server
                options:
                  topics:
                    - name: test
                      deltaType: json_patch
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
            """,
            "14:22 bindings.kafka_cache_server.options.topics[0].deltaType: json_patch deltas are not built: only none is"
                + " accepted");
    }

    @Test
    void shouldRefuseBootstrapOnACacheClient()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                options:
                  bootstrap:
                    - events
                exit: kafka_cache_server
            """ + SOUTH,
            "8:7 bindings.kafka_cache_client.options.bootstrap: bootstrap is an option of kind cache_server: the"
                + " cache_client reads what the cache_server fetches");
    }

    @Test
    void shouldRefuseAnUnknownOption()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                exit: kafka_cache_server
              kafka_cache_server:
                type: kafka
                kind: cache_server
                options:
                  merged: true
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
            """,
            "12:7 bindings.kafka_cache_server.options: unknown property 'merged'");
    }

    @Test
    void shouldRefuseAConditionOtherThanTopic()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                routes:
                  - when:
                      - key: test
                    exit: kafka_cache_server
            """ + SOUTH,
            "9:13 bindings.kafka_cache_client.routes[0].when[0]: unknown property 'key'");
    }

    @Test
    void shouldRefuseWithOnARoute()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                routes:
                  - when:
                      - topic: test
                    with:
                      topic: other
                    exit: kafka_cache_server
            """ + SOUTH,
            "10:9 bindings.kafka_cache_client.routes[0].with: is not allowed here");
    }

    @Test
    void shouldRefuseACacheClientWhoseExitIsAKafkaClient()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                exit: kafka_client
            """ + SOUTH,
            "7:11 bindings.kafka_cache_client.exit: a cache_client's exit must be a kafka cache_server, not kafka_client"
                + " (kafka client)");
    }

    @Test
    void shouldRefuseACacheClientWhoseRouteExitIsAKafkaClient()
    {
        // at the route's exit itself, not at the binding
        assertErrors("""
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                routes:
                  - when:
                      - topic: test
                    exit: kafka_client
            """ + SOUTH,
            "10:15 bindings.kafka_cache_client.routes[0].exit: a cache_client's exit must be a kafka cache_server, not"
                + " kafka_client (kafka client)");
    }

    @Test
    void shouldRefuseEveryExitOfACacheClientThatIsNotACacheServer()
    {
        assertErrors("""
            ---
            name: test
            bindings:
              kafka_cache_client:
                type: kafka
                kind: cache_client
                routes:
                  - when:
                      - topic: test
                    exit: kafka_cache_server
                  - when:
                      - topic: items-*
                    exit: kafka_client
                exit: tcp_client
            """ + SOUTH,
            "13:15 bindings.kafka_cache_client.routes[1].exit: a cache_client's exit must be a kafka cache_server, not"
                + " kafka_client (kafka client)",
            "14:11 bindings.kafka_cache_client.exit: a cache_client's exit must be a kafka cache_server, not tcp_client"
                + " (tcp client)");
    }

    @Test
    void shouldMatchAWildcardSuffix()
    {
        final KafkaTopicConditionConfig condition = new KafkaTopicConditionConfig("items-*");
        assertTrue(condition.matches("items-requests"));
        assertTrue(condition.matches("items-"), "* is any run, the empty one too");
        assertFalse(condition.matches("other"));
        assertFalse(condition.matches("items"));
        assertFalse(condition.matches("my-items-requests"), "the whole name matches, not a part");
        assertFalse(condition.matches(null));
    }

    @Test
    void shouldMatchADotAsADot()
    {
        final KafkaTopicConditionConfig condition = new KafkaTopicConditionConfig("a.b");
        assertTrue(condition.matches("a.b"));
        assertFalse(condition.matches("aXb"));
        final KafkaTopicConditionConfig wildcard = new KafkaTopicConditionConfig("a.b.*");
        assertTrue(wildcard.matches("a.b.c"));
        assertFalse(wildcard.matches("aXbXc"));
    }

    @Test
    void shouldMatchAnythingWithAStar()
    {
        final KafkaTopicConditionConfig condition = new KafkaTopicConditionConfig("*");
        for (String topic : List.of("test", "items-requests", "a.b", "a+b(c)", "x", ""))
        {
            assertTrue(condition.matches(topic), topic);
        }
        assertFalse(condition.matches(null), "a stream without a topic");
        assertTrue(new KafkaTopicConditionConfig("*-*").matches("a-b-c"));
        assertFalse(new KafkaTopicConditionConfig("*-*").matches("abc"));
    }

    @Test
    void shouldMatchRegexMetacharactersOnlyAsThemselves()
    {
        final KafkaTopicConditionConfig condition = new KafkaTopicConditionConfig("a+b(c)");
        assertTrue(condition.matches("a+b(c)"));
        for (String topic : List.of("aab(c)", "ab(c)", "a+bc", "aaabc", "a+b(c)x"))
        {
            assertFalse(condition.matches(topic), topic);
        }
        // and around a wildcard, where the rest is a regex
        final KafkaTopicConditionConfig wildcard = new KafkaTopicConditionConfig("a+b(c)-*");
        assertTrue(wildcard.matches("a+b(c)-1"));
        for (String topic : List.of("aab(c)-1", "aaabc-1", "a+bc-1", "[a+b(c)-1"))
        {
            assertFalse(wildcard.matches(topic), topic);
        }
        final KafkaTopicConditionConfig quoted = new KafkaTopicConditionConfig("x\\E.*");
        assertTrue(quoted.matches("x\\E.y"), "a \\E in the name ends no quote");
        assertFalse(quoted.matches("x\\EZy"));
    }

    @Test
    void shouldMatchEveryTopicWithoutOne()
    {
        final KafkaTopicConditionConfig condition = new KafkaTopicConditionConfig(null);
        assertTrue(condition.matches("test"));
        assertTrue(condition.matches(null));
    }

    // a condition matcher as the cache kinds resolve a stream's topic
    private static Predicate<ConditionConfig> topic(String name)
    {
        return condition -> condition instanceof KafkaTopicConditionConfig topic && topic.matches(name);
    }

    private static List<String> exits(BindingConfig binding)
    {
        return binding.routes().stream().map(RouteConfig::exit).toList();
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
