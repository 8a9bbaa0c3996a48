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
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The streams of one kafka client binding on one worker: each application-side stream names its capability in its
 * {@code KafkaBeginEx} and goes to that capability's factory. They share this worker's broker connections
 * ({@link KafkaClientConnectionPool}) and metadata cache ({@link KafkaClientMetadata}). A kafka extension that does
 * not decode (a capability the contract does not have, or truncated) is refused (the engine resets the stream) with a
 * {@code kafka.begin.malformed} event.
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
    private final KafkaClientMergedFactory merged;
    private final KafkaClientDescribeFactory describe;
    private final KafkaClientReachability reachability;

    KafkaClientFactory(EngineContext context, BindingConfig binding, KafkaClientSettings settings)
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
        final KafkaMetrics metrics = new KafkaMetrics(context, binding);
        this.pool = servers.isEmpty() || route == null
            ? null
            : new KafkaClientConnectionPool(context, frames, binding.name(), binding.id(), route.exitId(), servers,
                options.sasl(), settings.timeouts(), nodes::get, metrics);
        final KafkaClientMetadata metadata = pool != null
            ? new KafkaClientMetadata(pool, nodes, System::currentTimeMillis)
            : null;
        this.fetch = new KafkaClientFetchFactory(context, frames, pool, metadata, settings.fetchMaxBatchBytes(),
            metrics);
        this.group = new KafkaClientGroupFactory(context, frames, pool);
        this.offsetFetch = new KafkaClientOffsetFetchFactory(context, frames, pool);
        this.offsetCommit = new KafkaClientOffsetCommitFactory(context, frames, pool);
        this.meta = new KafkaClientMetaFactory(context, frames, metadata, settings.metadataMaxAge());
        this.produce = new KafkaClientProduceFactory(context, frames, pool, metadata, binding.id(),
            options != null ? options.compression() : RecordCompression.NONE, settings, metrics);
        this.initProducerId = new KafkaClientInitProducerIdFactory(context, frames, pool);
        this.merged = new KafkaClientMergedFactory(context, frames, pool, binding.id(), settings.produceMaxInFlight());
        this.describe = new KafkaClientDescribeFactory(context, frames, pool, settings.metadataMaxAge());
        // one worker answers for the binding: the cluster is as reachable from one worker as from another
        this.reachability = pool != null && context.index() == 0
            ? new KafkaClientReachability(context, pool, binding.id(), binding.name(), servers)
            : null;
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final OctetsFW extension = begin.extension();
        final boolean kafkaExtension = pool != null && extension != null && extension.sizeof() >= Integer.BYTES
            && extension.buffer().getInt(extension.offset()) == KafkaBinding.TYPE_ID;
        final KafkaBeginExFW beginEx = kafkaExtension
            ? beginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
            : null;
        MessageConsumer receiver = null;
        if (beginEx != null)
        {
            receiver = switch (beginEx.kind())
            {
                case GROUP -> group.newStream(begin, beginEx.group(), sender);
                case OFFSET_FETCH -> offsetFetch.newStream(begin, beginEx.offsetFetch(), sender);
                case OFFSET_COMMIT -> offsetCommit.newStream(begin, beginEx.offsetCommit(), sender);
                case FETCH -> fetch.newStream(begin, beginEx.fetch(), sender);
                case META -> meta.newStream(begin, beginEx.meta(), sender);
                case PRODUCE -> produce.newStream(begin, beginEx.produce(), sender);
                case INIT_PRODUCER_ID -> initProducerId.newStream(begin, beginEx.initProducerId(), sender);
                case MERGED -> merged.newStream(begin, beginEx.merged(), sender);
                case DESCRIBE -> describe.newStream(begin, beginEx.describe(), sender);
            };
        }
        else if (kafkaExtension)
        {
            // an application's mistake, not the broker's: say so once, refuse only this stream
            final int kind = extension.sizeof() > Integer.BYTES ? extension.buffer().getByte(extension.offset() + 4) & 0xff : -1;
            context.event(binding.id(), begin.traceId(), "kafka.begin.malformed", "bindings." + binding.name()
                + ": a Begin extension of capability " + kind + " that the stream contract does not have or that is"
                + " truncated, stream refused");
        }
        return receiver;
    }

    void close()
    {
        final long traceId = context.supplyTraceId();
        merged.close(traceId);
        fetch.close(traceId);
        meta.close(traceId);
        group.close(traceId);
        offsetFetch.close(traceId);
        offsetCommit.close(traceId);
        produce.close(traceId);
        initProducerId.close(traceId);
        describe.close(traceId);
        if (reachability != null)
        {
            reachability.close();
        }
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
