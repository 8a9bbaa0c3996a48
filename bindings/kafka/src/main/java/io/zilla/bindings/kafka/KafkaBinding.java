/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka;

import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.kafka.cache.CacheConfig;
import io.zilla.bindings.kafka.cache.CacheRegistry;
import io.zilla.bindings.kafka.config.KafkaCacheOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaClientOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaProxyLimits;
import io.zilla.bindings.kafka.config.KafkaSaslConfig;
import io.zilla.bindings.kafka.config.KafkaSniConfig;
import io.zilla.bindings.kafka.config.KafkaTopicConditionConfig;
import io.zilla.bindings.kafka.config.KafkaTopicConfig;
import io.zilla.bindings.kafka.stream.KafkaBindingContext;
import io.zilla.bindings.kafka.stream.KafkaClientSettings;
import io.zilla.bindings.kafka.stream.KafkaClientTimeouts;
import io.zilla.bindings.kafka.stream.KafkaMetrics;
import io.zilla.bindings.kafka.stream.KafkaPartialRequests;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.ConfigValueException;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.metrics.Metric;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.RecordCompression;

/**
 * The kafka binding type: kinds {@code proxy} and {@code client}, see docs/bindings/kafka.md, and {@code cache_client}
 * and {@code cache_server}, see docs/bindings/kafka-cache.md.
 */
public final class KafkaBinding implements Binding
{
    public static final String NAME = "kafka";

    /** Engine property: where the kafka caches keep their segments; emptied when a cache starts. */
    public static final String CACHE_DIRECTORY = "zilla.binding.kafka.cache.directory";

    /** Engine property: the capacity of a cache segment's log, in bytes (see docs/bindings/kafka-cache.md). */
    public static final String CACHE_SEGMENT_BYTES = "zilla.binding.kafka.cache.segment.bytes";

    public static final int DEFAULT_CACHE_SEGMENT_BYTES = 8 << 20;

    /** Engine property: the capacity of a cache segment's offset index and of its hash index, in bytes. */
    public static final String CACHE_SEGMENT_INDEX_BYTES = "zilla.binding.kafka.cache.segment.index.bytes";

    public static final int DEFAULT_CACHE_SEGMENT_INDEX_BYTES = 512 << 10;

    /** Engine property: how old a cache partition's head segment grows before it rolls, in ms. */
    public static final String CACHE_SEGMENT_MS = "zilla.binding.kafka.cache.segment.ms";

    /** Engine property: the most bytes a cache partition's frozen segments keep (-1: no limit). */
    public static final String CACHE_RETENTION_BYTES = "zilla.binding.kafka.cache.retention.bytes";

    public static final long DEFAULT_CACHE_RETENTION_BYTES = 32L << 20;

    /** Engine property: how long a cache partition keeps a frozen segment after its newest record, in ms (-1: ever). */
    public static final String CACHE_RETENTION_MS = "zilla.binding.kafka.cache.retention.ms";

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

    /**
     * Engine property: how many partitions' batches one Produce request of a kafka client carries at most: the batches
     * of the streams to one broker that are ready while its connection has max.in.flight requests awaiting their
     * answers go in one request, as kafka-clients sends them (1: a request per batch).
     */
    public static final String CLIENT_PRODUCE_REQUEST_PARTITIONS = "zilla.binding.kafka.client.produce.request.partitions";

    public static final int DEFAULT_CLIENT_PRODUCE_REQUEST_PARTITIONS = 1024;

    private final KafkaClientSettings settings;
    private final Path cacheDirectory;
    private final CacheConfig cacheConfig;
    private final int workers;

    /** The caches, one per cache_server binding id, shared by the workers. */
    private final Map<Long, CacheRegistry> caches = new ConcurrentHashMap<>();

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
            Math.max(1, configuration.intValue(CLIENT_PRODUCE_MAX_IN_FLIGHT, DEFAULT_CLIENT_PRODUCE_MAX_IN_FLIGHT)),
            Math.max(1, configuration.intValue(CLIENT_PRODUCE_REQUEST_PARTITIONS, DEFAULT_CLIENT_PRODUCE_REQUEST_PARTITIONS)));
        this.cacheDirectory = Path.of(configuration.property(CACHE_DIRECTORY,
            configuration.directory().resolve("kafka-cache").toString()));
        this.cacheConfig = new CacheConfig(
            configuration.intValue(CACHE_SEGMENT_BYTES, DEFAULT_CACHE_SEGMENT_BYTES),
            configuration.intValue(CACHE_SEGMENT_INDEX_BYTES, DEFAULT_CACHE_SEGMENT_INDEX_BYTES),
            Long.parseLong(configuration.property(CACHE_SEGMENT_MS, Long.toString(CacheConfig.SEGMENT_MS_DEFAULT))),
            Long.parseLong(configuration.property(CACHE_RETENTION_BYTES, Long.toString(DEFAULT_CACHE_RETENTION_BYTES))),
            Long.parseLong(configuration.property(CACHE_RETENTION_MS, Long.toString(CacheConfig.RETENTION_MS_DEFAULT))),
            CacheConfig.CleanupPolicy.DELETE,
            CacheConfig.DELETE_RETENTION_MS_DEFAULT,
            CacheConfig.MIN_CLEANABLE_DIRTY_RATIO_DEFAULT);
        this.workers = configuration.workers();
    }

    @Override
    public String type()
    {
        return NAME;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.PROXY, KindConfig.CLIENT, KindConfig.CACHE_CLIENT, KindConfig.CACHE_SERVER);
    }

    @Override
    public List<Metric> metrics()
    {
        return KafkaMetrics.DECLARED;
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
        return switch (kind)
        {
            case CLIENT -> clientOptions(options);
            case CACHE_CLIENT, CACHE_SERVER -> cacheOptions(options);
            default -> proxyOptions(options);
        };
    }

    @Override
    public ConditionConfig condition(KindConfig kind, JsonNode condition)
    {
        final JsonNode topic = condition.path("topic");
        return new KafkaTopicConditionConfig(topic.isTextual() ? topic.asText() : null);
    }

    /** A cache_client's exits are cache_servers: the cache it reads is the one they fill. */
    @Override
    public List<ConfigValueException> check(BindingConfig binding, NamespaceConfig namespace)
    {
        final List<ConfigValueException> errors = new ArrayList<>();
        if (binding.kind() == KindConfig.CACHE_CLIENT)
        {
            for (RouteConfig route : binding.routes())
            {
                final BindingConfig exit = namespace.binding(route.exit());
                if (exit != null && (!NAME.equals(exit.type()) || exit.kind() != KindConfig.CACHE_SERVER))
                {
                    // the binding's own exit is its last route, without conditions
                    final boolean bindingExit = route.order() == binding.routes().size() - 1 && route.when().isEmpty();
                    errors.add(new ConfigValueException(bindingExit ? "exit" : "routes[" + route.order() + "].exit",
                        "a cache_client's exit must be a kafka cache_server, not " + exit.name() + " (" + exit.type() + " "
                        + exit.kind().name().toLowerCase(Locale.ROOT) + ")"));
                }
            }
        }
        return errors;
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new KafkaBindingContext(context, this::brokers, this::partialRequests, settings, this::cache);
    }

    private static KafkaCacheOptionsConfig cacheOptions(JsonNode options)
    {
        final List<String> bootstrap = new ArrayList<>();
        for (JsonNode topic : options.path("bootstrap"))
        {
            bootstrap.add(topic.asText());
        }
        final List<KafkaTopicConfig> topics = new ArrayList<>();
        for (JsonNode topic : options.path("topics"))
        {
            final String defaultOffset = topic.path("defaultOffset").asText("historical");
            topics.add(new KafkaTopicConfig(topic.path("name").asText(),
                KafkaTopicConfig.DefaultOffset.valueOf(defaultOffset.toUpperCase(Locale.ROOT))));
        }
        return new KafkaCacheOptionsConfig(bootstrap, topics);
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

    // one cache per cache_server binding, whichever worker asks first; its directory is emptied then (the cache is
    // rebuilt from Kafka, nothing of an earlier run is read)
    private CacheRegistry cache(BindingConfig binding)
    {
        return caches.computeIfAbsent(binding.id(), id -> new CacheRegistry(cacheDirectory.resolve(binding.name()),
            cacheConfig, workers));
    }

    private KafkaPartialRequests partialRequests(long bindingId)
    {
        return partialRequests.computeIfAbsent(bindingId, id -> new KafkaPartialRequests());
    }
}
