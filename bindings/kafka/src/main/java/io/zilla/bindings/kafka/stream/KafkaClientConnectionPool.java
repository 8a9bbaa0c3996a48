/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

import io.zilla.bindings.kafka.config.KafkaSaslConfig;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FrameFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.ResponseHeaderDecoder;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The broker connections of one kafka client binding on one worker: at most one per broker node and
 * {@link Purpose}, opened on first use, shared by every stream of the binding on the worker. Kafka handles one
 * request of a connection at a time, in order, so purposes keep apart what must not wait behind each other: a fetch
 * that long-polls for {@code max.wait.ms} must not hold up a produce, and neither may hold up metadata.
 * <p>
 * Node {@link #BOOTSTRAP} stands for the bootstrap servers: its connection goes to the first of them that answers
 * and carries Metadata, before (and after) the cluster's nodes are known.
 */
final class KafkaClientConnectionPool
{
    /** The node id of the bootstrap connection: the first server of {@code servers} that answers. */
    static final int BOOTSTRAP = -1;

    /** What a connection carries. */
    enum Purpose
    {
        /** Metadata, and later the other control-plane requests (coordinator, offsets, producer ids). */
        CONTROL,
        /** Produce requests only. */
        PRODUCE,
        /** Fetch requests only, which wait at the broker up to their max wait. */
        FETCH,
        /** One group member's own connection to its coordinator, where JoinGroup long-polls: never shared. */
        COORDINATOR;

        String yamlName()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final int TCP_TYPE_ID = "tcp".hashCode();

    final FrameFW frameRO = new FrameFW();
    final BeginFW beginRO = new BeginFW();
    final DataFW dataRO = new DataFW();
    final EndFW endRO = new EndFW();
    final AbortFW abortRO = new AbortFW();
    final WindowFW windowRO = new WindowFW();
    final ResetFW resetRO = new ResetFW();

    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final TcpBeginExFW.Builder tcpBeginExRW = new TcpBeginExFW.Builder();
    private final MutableDirectBuffer extensionBuffer = new UnsafeBuffer(new byte[1024]);
    private final ResponseHeaderDecoder responseHeader = new ResponseHeaderDecoder();

    private final EngineContext context;
    private final StreamFrames frames;
    private final String bindingName;
    private final long routedId;
    private final long exitId;
    private final List<BrokerAddress> servers;
    private final KafkaSaslConfig sasl;
    private final KafkaClientTimeouts timeouts;
    private final IntFunction<BrokerAddress> nodes;
    private final MutableDirectBuffer encodeBuffer;
    private final AtomicCounter malformed;
    private final AtomicCounter opened;
    private final KafkaMetrics metrics;
    private final Long2ObjectHashMap<KafkaClientConnection> connections = new Long2ObjectHashMap<>();

    private int nextServer;
    private long unshared;

    /**
     * @param servers the bootstrap servers, tried in order
     * @param nodes   a broker's address by node id, as the metadata knows it, or null
     */
    KafkaClientConnectionPool(EngineContext context, StreamFrames frames, String bindingName, long routedId, long exitId,
        List<BrokerAddress> servers, KafkaSaslConfig sasl, KafkaClientTimeouts timeouts, IntFunction<BrokerAddress> nodes,
        KafkaMetrics metrics)
    {
        this.metrics = metrics;
        this.context = context;
        this.frames = frames;
        this.bindingName = bindingName;
        this.routedId = routedId;
        this.exitId = exitId;
        this.servers = List.copyOf(servers);
        this.sasl = sasl;
        this.timeouts = timeouts;
        this.nodes = nodes;
        this.encodeBuffer = new UnsafeBuffer(new byte[context.writeBuffer().capacity() >> 1]);
        this.malformed = context.supplyCounter(routedId, "responses.malformed");
        this.opened = context.supplyCounter(routedId, "connections.opened");
    }

    /**
     * The connection to {@code nodeId} for {@code purpose}, opened now if there is none.
     *
     * @return the connection, or null for a node the metadata does not know
     */
    KafkaClientConnection supply(int nodeId, Purpose purpose, long traceId)
    {
        final long key = ((long) nodeId << 8) | purpose.ordinal();
        KafkaClientConnection connection = connections.get(key);
        if (connection == null)
        {
            final BrokerAddress address = nodeId == BOOTSTRAP ? nextBootstrapServer() : nodes.apply(nodeId);
            if (address != null)
            {
                connection = new KafkaClientConnection(this, nodeId, purpose, key);
                connections.put(key, connection);
                opened.increment();
                connection.connect(traceId, address);
                if (connection.isClosed())
                {
                    connection = null;
                }
            }
        }
        return connection;
    }

    /**
     * The shared connection to {@code nodeId} for {@code purpose}, at {@code address} when none is open: for a node
     * known from a FindCoordinator answer rather than from the metadata.
     */
    KafkaClientConnection supply(int nodeId, BrokerAddress address, Purpose purpose, long traceId)
    {
        final KafkaClientConnection connection = connections.get(((long) nodeId << 8) | purpose.ordinal());
        return connection != null ? connection : open(((long) nodeId << 8) | purpose.ordinal(), nodeId, address, purpose,
            traceId);
    }

    /**
     * A new connection to {@code nodeId} at {@code address} that no other stream shares (its key is its own), for a
     * stream whose requests wait at the broker for others (a group member's JoinGroup); the stream closes it.
     *
     * @return the connection, or null when it could not be opened
     */
    KafkaClientConnection open(int nodeId, BrokerAddress address, Purpose purpose, long traceId)
    {
        return open(Long.MIN_VALUE + ++unshared, nodeId, address, purpose, traceId);
    }

    private KafkaClientConnection open(long key, int nodeId, BrokerAddress address, Purpose purpose, long traceId)
    {
        KafkaClientConnection connection = new KafkaClientConnection(this, nodeId, purpose, key);
        connections.put(key, connection);
        opened.increment();
        connection.connect(traceId, address);
        return connection.isClosed() ? null : connection;
    }

    void close(long traceId)
    {
        for (KafkaClientConnection connection : new ArrayList<>(connections.values()))
        {
            connection.close(traceId);
        }
    }

    void remove(KafkaClientConnection connection)
    {
        connections.remove(connection.key(), connection);
    }

    int bootstrapServers()
    {
        return servers.size();
    }

    BrokerAddress nextBootstrapServer()
    {
        final BrokerAddress server = servers.get(nextServer);
        nextServer = (nextServer + 1) % servers.size();
        return server;
    }

    MessageConsumer doNetBegin(long initialId, long traceId, BrokerAddress address, MessageConsumer sender)
    {
        final TcpBeginExFW beginEx = tcpBeginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
            .typeId(TCP_TYPE_ID)
            .sourceHost((String) null)
            .sourcePort(0)
            .destinationHost(address.host())
            .destinationPort(address.port())
            .build();
        final MutableDirectBuffer writeBuffer = context.writeBuffer();
        final BeginFW begin = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(routedId).routedId(exitId).streamId(initialId)
            .sequence(0).acknowledge(0).maximum(0)
            .traceId(traceId)
            .extension(beginEx.buffer(), beginEx.offset(), beginEx.sizeof())
            .build();
        return context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), sender);
    }

    void event(long traceId, String event, String detail)
    {
        context.event(routedId, traceId, event, "bindings." + bindingName + ": " + detail);
    }

    EngineContext context()
    {
        return context;
    }

    StreamFrames frames()
    {
        return frames;
    }

    long routedId()
    {
        return routedId;
    }

    long exitId()
    {
        return exitId;
    }

    KafkaSaslConfig sasl()
    {
        return sasl;
    }

    KafkaClientTimeouts timeouts()
    {
        return timeouts;
    }

    MutableDirectBuffer encodeBuffer()
    {
        return encodeBuffer;
    }

    ResponseHeaderDecoder responseHeader()
    {
        return responseHeader;
    }

    AtomicCounter malformed()
    {
        return malformed;
    }

    KafkaMetrics metrics()
    {
        return metrics;
    }
}
