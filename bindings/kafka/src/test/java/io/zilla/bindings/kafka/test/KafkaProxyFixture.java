/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * Starts zilla as a kafka proxy (tcp server, kafka proxy, tcp client) in front of an embedded broker, on free
 * loopback ports, and hands out client settings that point at the proxy. The yaml is {@code proxy.yaml} next to
 * this class's package in the test resources; the advertised host defaults to {@code localhost} so that a test can
 * tell the proxy's addresses ({@code localhost}) from the broker's own ({@code 127.0.0.1}).
 */
public final class KafkaProxyFixture
{
    public static final String LOOPBACK = "127.0.0.1";
    public static final String ADVERTISED_HOST = "localhost";

    private final EngineExtension engine;

    private int bootstrapPort;
    private int nodePort;

    public KafkaProxyFixture(EngineExtension engine)
    {
        this.engine = engine;
    }

    /** Starts the proxy with two workers in front of {@code kafka}. */
    public KafkaProxyFixture start(EmbeddedKafka kafka)
    {
        return start(kafka.bootstrapServers());
    }

    /** Starts the proxy with two workers in front of the broker at {@code kafkaBootstrap} ({@code host:port}). */
    public KafkaProxyFixture start(String kafkaBootstrap)
    {
        return start(kafkaBootstrap, "proxy.yaml", Map.of());
    }

    /**
     * Starts the proxy of {@code resource} (next to proxy.yaml, with its variables) with two workers in front of the
     * broker at {@code kafkaBootstrap}, with more environment variables for the yaml.
     */
    public KafkaProxyFixture start(String kafkaBootstrap, String resource, Map<String, String> env)
    {
        bootstrapPort = freePort();
        nodePort = freePort();
        engine.anchor(KafkaProxyFixture.class)
            .workers(2)
            .env("BOOTSTRAP_PORT", String.valueOf(bootstrapPort))
            .env("NODE1_PORT", String.valueOf(nodePort))
            .env("ADVERTISED_HOST", ADVERTISED_HOST)
            .env("KAFKA_BOOTSTRAP", kafkaBootstrap);
        env.forEach(engine::env);
        engine.start(resource);
        return this;
    }

    /** The proxy's bootstrap address, {@code 127.0.0.1:port}. */
    public String bootstrapServers()
    {
        return LOOPBACK + ":" + bootstrapPort;
    }

    public int bootstrapPort()
    {
        return bootstrapPort;
    }

    /** The proxy port advertised for broker node 1. */
    public int nodePort()
    {
        return nodePort;
    }

    /** Client properties with {@code bootstrap.servers} set to the proxy, plus {@code extra}. */
    public Properties clientConfig(Map<String, Object> extra)
    {
        final Properties config = new Properties();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.putAll(extra);
        return config;
    }

    /** The same as {@link #clientConfig(Map)}, as a map for {@code Admin.create}. */
    public Map<String, Object> adminConfig()
    {
        final Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return config;
    }

    /** Waits up to {@code seconds} for an engine event named {@code name}. */
    public boolean awaitEvent(String name, int seconds) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        boolean found = false;
        while (!found && System.nanoTime() < deadline)
        {
            final List<EngineEvent> events = engine.events();
            found = events.stream().anyMatch(e -> name.equals(e.event()));
            if (!found)
            {
                Thread.sleep(50);
            }
        }
        return found;
    }

    /** How many engine events named {@code name} were raised so far. */
    public int eventCount(String name)
    {
        return (int) engine.events().stream().filter(e -> name.equals(e.event())).count();
    }

    /** Waits up to {@code seconds} until at least {@code count} engine events named {@code name} were raised. */
    public boolean awaitEvents(String name, int count, int seconds) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        boolean found = eventCount(name) >= count;
        while (!found && System.nanoTime() < deadline)
        {
            Thread.sleep(50);
            found = eventCount(name) >= count;
        }
        return found;
    }

    public static int freePort()
    {
        return FreePorts.next();
    }
}
