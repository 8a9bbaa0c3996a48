/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.List;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.config.KafkaClientOptionsConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.RecordCompression;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The streams of one kafka client binding on one worker: each application-side stream names its capability in its
 * {@code KafkaBeginEx} and goes to that capability's factory. They share this worker's broker connections
 * ({@link KafkaClientConnectionPool}) and metadata cache ({@link KafkaClientMetadata}). A capability not built yet
 * is refused (the engine resets the stream) with a {@code kafka.capability.unsupported} event.
 */
public final class KafkaClientFactory implements BindingHandler
{
    private final BeginFW beginRO = new BeginFW();
    private final KafkaBeginExFW beginExRO = new KafkaBeginExFW();

    private final EngineContext context;
    private final BindingConfig binding;
    private final KafkaClientConnectionPool pool;
    private final KafkaClientFetchFactory fetch;
    private final KafkaClientGroupFactory group;
    private final KafkaClientOffsetFetchFactory offsetFetch;
    private final KafkaClientOffsetCommitFactory offsetCommit;
    private final KafkaClientMetaFactory meta;
    private final KafkaClientProduceFactory produce;
    private final KafkaClientInitProducerIdFactory initProducerId;
    private final KafkaClientDescribeFactory describe;

    KafkaClientFactory(EngineContext context, BindingConfig binding, int metadataMaxAge, KafkaClientTimeouts timeouts,
        int produceMaxInFlight)
    {
        this.context = context;
        this.binding = binding;
        final KafkaClientOptionsConfig options = (KafkaClientOptionsConfig) binding.options();
        final RouteConfig route = binding.resolveAny();
        final List<BrokerAddress> servers = options != null
            ? options.servers().stream().map(KafkaClientFactory::address).toList()
            : List.of();
        final StreamFrames frames = new StreamFrames(context.writeBuffer());
        final Int2ObjectHashMap<BrokerAddress> nodes = new Int2ObjectHashMap<>();
        this.pool = servers.isEmpty() || route == null
            ? null
            : new KafkaClientConnectionPool(context, frames, binding.name(), binding.id(), route.exitId(), servers,
                options.sasl(), timeouts, nodes::get);
        final KafkaClientMetadata metadata = pool != null
            ? new KafkaClientMetadata(pool, nodes, System::currentTimeMillis)
            : null;
        this.fetch = new KafkaClientFetchFactory(context, frames, pool, metadata);
        this.group = new KafkaClientGroupFactory(context, frames, pool);
        this.offsetFetch = new KafkaClientOffsetFetchFactory(context, frames, pool);
        this.offsetCommit = new KafkaClientOffsetCommitFactory(context, frames, pool);
        this.meta = new KafkaClientMetaFactory(context, frames, metadata, metadataMaxAge);
        this.produce = new KafkaClientProduceFactory(context, frames, pool, metadata, binding.id(),
            options != null ? options.compression() : RecordCompression.NONE, produceMaxInFlight);
        this.initProducerId = new KafkaClientInitProducerIdFactory(context, frames, pool);
        this.describe = new KafkaClientDescribeFactory(context, frames, pool, metadataMaxAge);
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final OctetsFW extension = begin.extension();
        final KafkaBeginExFW beginEx = pool != null && extension != null && extension.sizeof() > 0
            ? beginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
            : null;
        MessageConsumer receiver = null;
        if (beginEx != null && beginEx.typeId() == KafkaBinding.TYPE_ID)
        {
            if (beginEx.kind() == KafkaCapability.GROUP)
            {
                receiver = group.newStream(begin, beginEx.group(), sender);
            }
            else if (beginEx.kind() == KafkaCapability.OFFSET_FETCH)
            {
                receiver = offsetFetch.newStream(begin, beginEx.offsetFetch(), sender);
            }
            else if (beginEx.kind() == KafkaCapability.OFFSET_COMMIT)
            {
                receiver = offsetCommit.newStream(begin, beginEx.offsetCommit(), sender);
            }
            else if (beginEx.kind() == KafkaCapability.FETCH)
            {
                receiver = fetch.newStream(begin, beginEx.fetch(), sender);
            }
            else if (beginEx.kind() == KafkaCapability.META)
            {
                receiver = meta.newStream(begin, beginEx.meta(), sender);
            }
            else if (beginEx.kind() == KafkaCapability.PRODUCE)
            {
                receiver = produce.newStream(begin, beginEx.produce(), sender);
            }
            else if (beginEx.kind() == KafkaCapability.INIT_PRODUCER_ID)
            {
                receiver = initProducerId.newStream(begin, beginEx.initProducerId(), sender);
            }
            else if (beginEx.kind() == KafkaCapability.DESCRIBE)
            {
                receiver = describe.newStream(begin, beginEx.describe(), sender);
            }
            else
            {
                context.event(binding.id(), begin.traceId(), "kafka.capability.unsupported", "bindings." + binding.name()
                    + ": capability " + beginEx.rawKind() + " is not built yet, stream refused");
            }
        }
        return receiver;
    }

    void close()
    {
        final long traceId = context.supplyTraceId();
        fetch.close(traceId);
        meta.close(traceId);
        group.close(traceId);
        offsetFetch.close(traceId);
        offsetCommit.close(traceId);
        produce.close(traceId);
        initProducerId.close(traceId);
        describe.close(traceId);
        if (pool != null)
        {
            pool.close(traceId);
        }
    }

    // host:port, as the schema requires
    private static BrokerAddress address(String server)
    {
        final int colon = server.lastIndexOf(':');
        return new BrokerAddress(server.substring(0, colon), Integer.parseInt(server.substring(colon + 1)));
    }
}
