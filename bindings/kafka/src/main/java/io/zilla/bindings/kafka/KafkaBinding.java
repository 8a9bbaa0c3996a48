/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka;

import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.kafka.config.KafkaClientOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaProxyLimits;
import io.zilla.bindings.kafka.config.KafkaSaslConfig;
import io.zilla.bindings.kafka.config.KafkaSniConfig;
import io.zilla.bindings.kafka.stream.KafkaBindingContext;
import io.zilla.bindings.kafka.stream.KafkaClientSettings;
import io.zilla.bindings.kafka.stream.KafkaClientTimeouts;
import io.zilla.bindings.kafka.stream.KafkaPartialRequests;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.ConfigValueException;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.RecordCompression;

/** The kafka binding type: kinds {@code proxy} and {@code client}, see docs/bindings/kafka.md. */
public final class KafkaBinding implements Binding
{
    public static final String NAME = "kafka";

    /** The type id that tags kafka's frame extensions (core::stream::Extension.typeId). */
    public static final int TYPE_ID = NAME.hashCode();

    /** Engine property: how old a kafka client's metadata of a topic may grow before it is asked again, in ms. */
    public static final String CLIENT_METADATA_MAX_AGE = "zilla.binding.kafka.client.metadata.max.age";

    public static final int DEFAULT_CLIENT_METADATA_MAX_AGE = 300_000;

    /** Engine property: how long a kafka client's request waits for its response before its connection fails, in ms. */
    public static final String CLIENT_REQUEST_TIMEOUT = "zilla.binding.kafka.client.request.timeout";

    /** Engine property: how long a kafka client's broker connection may go unused before it is closed, in ms. */
    public static final String CLIENT_CONNECTIONS_MAX_IDLE = "zilla.binding.kafka.client.connections.max.idle";

    /**
     * Engine property: the largest records bytes a kafka client's FETCH stream holds for one partition, when a single
     * record batch is larger than a buffer slot (a broker returns a first batch whole): covers the broker's
     * message.max.bytes (1048588 by default) or a topic's larger max.message.bytes.
     */
    public static final String CLIENT_FETCH_MAX_BATCH_BYTES = "zilla.binding.kafka.client.fetch.max.batch.bytes";

    public static final int DEFAULT_CLIENT_FETCH_MAX_BATCH_BYTES = 1024 * 1024 + 64 * 1024;

    /**
     * Engine property: how many Produce requests a kafka client's PRODUCE stream may have in flight, each one batch
     * (as kafka-clients' max.in.flight.requests.per.connection; at most 5 for an idempotent stream to stay exactly once).
     */
    public static final String CLIENT_PRODUCE_MAX_IN_FLIGHT = "zilla.binding.kafka.client.produce.max.in.flight";

    public static final int DEFAULT_CLIENT_PRODUCE_MAX_IN_FLIGHT = 5;

    private final KafkaClientSettings settings;

    /** The real broker addresses learned from Metadata, per binding id and node id, shared by the workers. */
    private final Map<Long, Map<Integer, BrokerAddress>> brokers = new ConcurrentHashMap<>();

    /** What the requests still arriving declared, per proxy binding id, shared by the workers. */
    private final Map<Long, KafkaPartialRequests> partialRequests = new ConcurrentHashMap<>();

    public KafkaBinding(EngineConfiguration configuration)
    {
        this.settings = new KafkaClientSettings(
            configuration.intValue(CLIENT_METADATA_MAX_AGE, DEFAULT_CLIENT_METADATA_MAX_AGE),
            new KafkaClientTimeouts(
                configuration.intValue(CLIENT_REQUEST_TIMEOUT, (int) KafkaClientTimeouts.DEFAULT_REQUEST),
                configuration.intValue(CLIENT_CONNECTIONS_MAX_IDLE, (int) KafkaClientTimeouts.DEFAULT_IDLE)),
            configuration.intValue(CLIENT_FETCH_MAX_BATCH_BYTES, DEFAULT_CLIENT_FETCH_MAX_BATCH_BYTES),
            Math.max(1, configuration.intValue(CLIENT_PRODUCE_MAX_IN_FLIGHT, DEFAULT_CLIENT_PRODUCE_MAX_IN_FLIGHT)));
    }

    @Override
    public String type()
    {
        return NAME;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.PROXY, KindConfig.CLIENT);
    }

    @Override
    public URL schema()
    {
        return KafkaBinding.class.getResource("schema/kafka.schema.json");
    }

    @Override
    public OptionsConfig options(KindConfig kind, JsonNode options)
    {
        if (options == null || options.isMissingNode() || options.isNull())
        {
            return null;
        }
        return kind == KindConfig.CLIENT ? clientOptions(options) : proxyOptions(options);
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new KafkaBindingContext(context, this::brokers, this::partialRequests, settings);
    }

    private static KafkaClientOptionsConfig clientOptions(JsonNode options)
    {
        final List<String> servers = new ArrayList<>();
        for (JsonNode server : options.path("servers"))
        {
            servers.add(server.asText());
        }
        final JsonNode sasl = options.path("sasl");
        final KafkaSaslConfig saslConfig = sasl.isObject()
            ? new KafkaSaslConfig(sasl.path("mechanism").asText(), sasl.path("username").asText(), sasl.path("password").asText())
            : null;
        return new KafkaClientOptionsConfig(servers, saslConfig, compression(options.path("compression").asText("none")));
    }

    // the schema allows none, gzip, snappy, lz4 and zstd only
    private static RecordCompression compression(String name)
    {
        return RecordCompression.valueOf(name.toUpperCase(Locale.ROOT));
    }

    private static KafkaOptionsConfig proxyOptions(JsonNode options)
    {
        final List<String> bootstrap = new ArrayList<>();
        for (JsonNode server : options.path("bootstrap"))
        {
            bootstrap.add(server.asText());
        }
        final JsonNode advertise = options.path("advertise");
        final JsonNode sni = advertise.path("sni");
        final KafkaProxyLimits limits = limits(options.path("limits"));
        return sni.isObject()
            ? new KafkaOptionsConfig(bootstrap, null, 0, Map.of(), new KafkaSniConfig(sni.path("bootstrap").asText(),
                sni.path("broker").asText(), advertise.path("port").asInt()), limits)
            : portOptions(bootstrap, advertise, limits);
    }

    // port mode: a port of the proxy per broker node id, each port standing for one of them only (the local port is
    // all that tells a connection's broker), and none for the bootstrap servers too
    private static KafkaOptionsConfig portOptions(List<String> bootstrap, JsonNode advertise, KafkaProxyLimits limits)
    {
        final int bootstrapPort = advertise.path("bootstrap_port").asInt(0);
        final Map<Integer, Integer> ports = new HashMap<>();
        final Map<Integer, Integer> nodesByPort = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> i = advertise.path("ports").fields(); i.hasNext();)
        {
            final Map.Entry<String, JsonNode> entry = i.next();
            // the schema allows up to ten digits
            final long nodeId = Long.parseLong(entry.getKey());
            final int port = entry.getValue().asInt();
            final String at = "advertise.ports." + entry.getKey();
            if (nodeId > Integer.MAX_VALUE)
            {
                throw new ConfigValueException(at, "node id " + nodeId + " is over " + Integer.MAX_VALUE);
            }
            if (port == bootstrapPort)
            {
                throw new ConfigValueException(at, "port " + port + " is the bootstrap_port: a connection there could not"
                    + " tell the bootstrap servers from node " + nodeId);
            }
            final Integer other = nodesByPort.putIfAbsent(port, (int) nodeId);
            if (other != null)
            {
                throw new ConfigValueException(at, "port " + port + " is node " + other + "'s too: a connection there could"
                    + " not tell which broker it is for");
            }
            ports.put((int) nodeId, port);
        }
        return new KafkaOptionsConfig(bootstrap, advertise.path("host").asText("localhost"), bootstrapPort, ports, null,
            limits);
    }

    // the schema checks each value's range; only their relation is left, told with what was written (or the default)
    private static KafkaProxyLimits limits(JsonNode limits)
    {
        final int requestMaxBytes = limits.path("request-max-bytes").asInt(KafkaProxyLimits.DEFAULT_REQUEST_MAX_BYTES);
        final long partialRequestsMaxBytes = limits.path("partial-requests-max-bytes")
            .asLong(KafkaProxyLimits.DEFAULT_PARTIAL_REQUESTS_MAX_BYTES);
        if (partialRequestsMaxBytes < requestMaxBytes)
        {
            throw new ConfigValueException("limits", "partial-requests-max-bytes ("
                + given(limits, "partial-requests-max-bytes", partialRequestsMaxBytes) + ") is below request-max-bytes ("
                + given(limits, "request-max-bytes", requestMaxBytes) + "): no request of the largest size could pass");
        }
        return new KafkaProxyLimits(requestMaxBytes,
            limits.path("request-timeout").asLong(KafkaProxyLimits.DEFAULT_REQUEST_TIMEOUT), partialRequestsMaxBytes);
    }

    // a limit's value as the message shows it: the default is named so, it was not written
    private static String given(JsonNode limits, String name, long value)
    {
        return limits.has(name) ? Long.toString(value) : "the default, " + value;
    }

    private Map<Integer, BrokerAddress> brokers(long bindingId)
    {
        return brokers.computeIfAbsent(bindingId, id -> new ConcurrentHashMap<>());
    }

    private KafkaPartialRequests partialRequests(long bindingId)
    {
        return partialRequests.computeIfAbsent(bindingId, id -> new KafkaPartialRequests());
    }
}
