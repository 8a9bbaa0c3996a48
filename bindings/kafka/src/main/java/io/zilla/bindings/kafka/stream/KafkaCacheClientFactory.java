/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.ArrayList;
import java.util.function.Function;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.cache.CacheRegistry;
import io.zilla.bindings.kafka.cache.CacheTopic;
import io.zilla.bindings.kafka.config.KafkaCacheOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaTopicConditionConfig;
import io.zilla.bindings.kafka.config.KafkaTopicConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.flyweight.Array32FW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaFilterFW;
import io.zilla.specs.kafka.types.stream.KafkaIsolation;
import io.zilla.specs.kafka.types.stream.KafkaMergedBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Kind {@code cache_client} on one worker (docs/bindings/kafka-cache.md): a stream's topic picks a route, whose exit
 * is a cache_server; FETCH and MERGED streams are then read from that cache in place
 * ({@link KafkaCacheReaderStream}), asking the topic's owner to fetch it if nobody has yet, and every other stream
 * goes, unchanged, to the cache_server's own exit ({@link KafkaCacheRelay}). A MERGED stream that produces has both:
 * its records go through a relay, its fetch side comes from the cache. A FETCH or MERGED stream with isolation
 * READ_COMMITTED is relayed whole: the cache keeps no transaction state to drop aborted records by.
 */
public final class KafkaCacheClientFactory implements BindingHandler
{
    /** A Data frame's header and room to spare: a frame, payload and extension, fits the write buffer. */
    private static final int FRAME_OVERHEAD = 256;
    private static final int MERGED_CAPABILITIES_OFFSET = Integer.BYTES + Byte.BYTES;

    private final BeginFW beginRO = new BeginFW();
    private final KafkaBeginExFW beginExRO = new KafkaBeginExFW();
    private final FlushFW.Builder flushRW = new FlushFW.Builder();
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();

    private final EngineContext context;
    private final BindingConfig binding;
    private final Function<BindingConfig, CacheRegistry> caches;
    private final KafkaCacheReaders readers;
    private final StreamFrames frames;
    private final KafkaClientAppFrames io;
    private final MutableDirectBuffer extensionBuffer;
    private final MutableDirectBuffer frameBuffer;
    private final int maxPayload;
    private final KafkaCacheOptionsConfig options;
    private final KafkaMetrics metrics;
    private final Long2ObjectHashMap<KafkaCacheReaderStream> streams = new Long2ObjectHashMap<>();

    KafkaCacheClientFactory(EngineContext context, BindingConfig binding, Function<BindingConfig, CacheRegistry> caches,
        KafkaCacheReaders readers)
    {
        this.context = context;
        this.binding = binding;
        this.caches = caches;
        this.readers = readers;
        this.frames = new StreamFrames(context.writeBuffer());
        this.io = new KafkaClientAppFrames(frames);
        final int capacity = context.writeBuffer().capacity();
        this.extensionBuffer = new UnsafeBuffer(new byte[capacity]);
        this.frameBuffer = new UnsafeBuffer(new byte[capacity]);
        this.maxPayload = capacity - FRAME_OVERHEAD;
        this.metrics = new KafkaMetrics(context, binding);
        this.options = binding.options() instanceof KafkaCacheOptionsConfig cache ? cache : KafkaCacheOptionsConfig.DEFAULTS;
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final OctetsFW extension = begin.extension();
        final KafkaBeginExFW beginEx = extension != null && extension.sizeof() > Integer.BYTES
            && extension.buffer().getInt(extension.offset()) == KafkaBinding.TYPE_ID
            ? beginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
            : null;
        if (beginEx == null)
        {
            context.event(binding.id(), begin.traceId(), "kafka.begin.malformed", "bindings." + binding.name()
                + ": a Begin without a kafka extension that decodes, stream refused");
            return null;
        }
        final String topic = topic(beginEx);
        final RouteConfig route = topic != null
            ? binding.resolve(c -> c instanceof KafkaTopicConditionConfig t && t.matches(topic))
            : binding.resolveAny();
        final BindingConfig server = route != null ? context.binding(route.exitId()) : null;
        if (server == null || server.kind() != KindConfig.CACHE_SERVER)
        {
            return null;
        }
        final RouteConfig serverRoute = topic != null
            ? server.resolve(c -> c instanceof KafkaTopicConditionConfig t && t.matches(topic))
            : server.resolveAny();
        if (serverRoute == null)
        {
            return null;
        }
        final long exitId = serverRoute.exitId();
        // the cache holds every record as read_uncommitted sees it, aborted ones too: read_committed is the exit's
        return switch (beginEx.kind())
        {
            case FETCH -> beginEx.fetch().isolation() == KafkaIsolation.READ_COMMITTED
                ? relay(begin, sender, exitId)
                : read(begin, sender, caches.apply(server).request(topic), beginEx.fetch().partition().partitionId(), null,
                    beginEx.fetch().partition(), beginEx.fetch().filters(), null);
            case MERGED -> beginEx.merged().isolation() == KafkaIsolation.READ_COMMITTED
                ? relay(begin, sender, exitId)
                : merged(begin, sender, caches.apply(server), topic, beginEx.merged(), exitId);
            default -> relay(begin, sender, exitId);
        };
    }

    void close()
    {
        final long traceId = context.supplyTraceId();
        for (KafkaCacheReaderStream stream : new ArrayList<>(streams.values()))
        {
            stream.doAbortAll(traceId, (short) 13);
        }
    }

    private MessageConsumer merged(BeginFW begin, MessageConsumer sender, CacheRegistry cache, String topic,
        KafkaMergedBeginExFW merged, long exitId)
    {
        final KafkaMergedCapabilities capabilities = merged.capabilities();
        if (capabilities == KafkaMergedCapabilities.PRODUCE_ONLY)
        {
            return relay(begin, sender, exitId);
        }
        KafkaCacheRelay produce = null;
        if (capabilities == KafkaMergedCapabilities.PRODUCE_AND_FETCH)
        {
            // the produce half goes on as a PRODUCE_ONLY merged stream of the kind client: its acknowledgements are its
            final OctetsFW extension = begin.extension();
            extensionBuffer.putBytes(0, extension.buffer(), extension.offset(), extension.sizeof());
            extensionBuffer.putByte(MERGED_CAPABILITIES_OFFSET, (byte) KafkaMergedCapabilities.PRODUCE_ONLY.value());
            produce = new KafkaCacheRelay(context, frames, sender, begin.originId(), begin.routedId(), begin.streamId(),
                exitId, true);
            if (!produce.open(begin, extensionBuffer, 0, extension.sizeof()))
            {
                return null;
            }
        }
        return read(begin, sender, cache.request(topic), -1, merged.partitions(), null, merged.filters(), produce);
    }

    private MessageConsumer read(BeginFW begin, MessageConsumer sender, CacheTopic topic, int partition,
        Array32FW<KafkaOffsetFW> offsets, KafkaOffsetFW offset, Array32FW<KafkaFilterFW> filters, KafkaCacheRelay produce)
    {
        if (partition < -1)
        {
            return null;
        }
        final KafkaCacheReaderStream stream = new KafkaCacheReaderStream(this, io, sender, begin, topic, partition, offsets,
            offset, filters, defaultOffset(topic.name()), produce);
        streams.put(stream.initialId, stream);
        return stream::onAppMessage;
    }

    private MessageConsumer relay(BeginFW begin, MessageConsumer sender, long exitId)
    {
        final KafkaCacheRelay relay = new KafkaCacheRelay(context, frames, sender, begin.originId(), begin.routedId(),
            begin.streamId(), exitId, false);
        return relay.open(begin, null, 0, 0) ? relay::onApp : null;
    }

    // a MERGED stream that names no start offset starts at latest, as with kind client, unless this binding's
    // options.topics says where (Zilla's defaultOffset: live or historical)
    private long defaultOffset(String topic)
    {
        for (KafkaTopicConfig config : options.topics())
        {
            if (config.name().equals(topic))
            {
                return config.defaultOffset().sentinel();
            }
        }
        return -1L;
    }

    // the topic a stream names, or null for a capability without one (INIT_PRODUCER_ID, GROUP)
    private static String topic(KafkaBeginExFW beginEx)
    {
        final String16FW topic = switch (beginEx.kind())
        {
            case FETCH -> beginEx.fetch().topic();
            case MERGED -> beginEx.merged().topic();
            case PRODUCE -> beginEx.produce().topic();
            case META -> beginEx.meta().topic();
            case DESCRIBE -> beginEx.describe().topic();
            case OFFSET_FETCH -> beginEx.offsetFetch().topic();
            case OFFSET_COMMIT -> beginEx.offsetCommit().topic();
            default -> null;
        };
        final String name = topic != null ? topic.asString() : null;
        return name != null && !name.isEmpty() ? name : null;
    }

    KafkaCacheReaders readers()
    {
        return readers;
    }

    long supplyTraceId()
    {
        return context.supplyTraceId();
    }

    MutableDirectBuffer extensionBuffer()
    {
        return extensionBuffer;
    }

    StreamFrames frames()
    {
        return frames;
    }

    int maxPayload()
    {
        return maxPayload;
    }

    KafkaMetrics metrics()
    {
        return metrics;
    }

    void event(long traceId, String event, String detail)
    {
        context.event(binding.id(), traceId, event, "bindings." + binding.name() + ": " + detail);
    }

    void onClosed(KafkaCacheReaderStream stream)
    {
        streams.remove(stream.initialId);
    }

    /** A FETCH reply's Begin extension: the topic, the partition at its resolved offset. */
    int fetchBeginEx(String topic, int partition, long offset, long stable, long latest)
    {
        final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
            .typeId(KafkaBinding.TYPE_ID)
            .fetch(f -> f.topic(topic).partition(p -> p.partitionId(partition).partitionOffset(offset)
                .stableOffset(stable).latestOffset(latest)))
            .build();
        return beginEx.sizeof();
    }

    /** A reply Flush with a kafka extension: progress without a record; it reserves no credit. */
    void flush(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence, long acknowledge,
        int maximum, long traceId, DirectBuffer extension, int extensionLength)
    {
        final FlushFW flush = flushRW.wrap(frameBuffer, 0, frameBuffer.capacity())
            .originId(originId).routedId(routedId).streamId(streamId)
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum)
            .traceId(traceId)
            .extension(extension, 0, extensionLength)
            .build();
        receiver.accept(FlushFW.TYPE_ID, flush.buffer(), flush.offset(), flush.sizeof());
    }
}
