/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.ArrayList;
import java.util.List;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.cache.CacheConfig;
import io.zilla.bindings.kafka.cache.CacheHeadersBuilder;
import io.zilla.bindings.kafka.cache.CachePartition;
import io.zilla.bindings.kafka.cache.CacheRegistry;
import io.zilla.bindings.kafka.cache.CacheTopic;
import io.zilla.bindings.kafka.config.KafkaCacheOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaTopicConditionConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.signal.Doorbell;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.metrics.Metrics;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.flyweight.Array32FW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaBytesFW;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import io.zilla.specs.kafka.types.stream.KafkaConfigFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFetchDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFW;
import io.zilla.specs.kafka.types.stream.KafkaPartitionFW;
import io.zilla.specs.kafka.types.stream.KafkaResetExFW;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Kind {@code cache_server} on one worker: the topics of its cache that this worker owns (docs/bindings/kafka-cache.md).
 * For each, one META stream and one FETCH stream per partition go to the binding's exit (a kind client), and every
 * record that comes back is appended to the partition's segments, where the cache_clients of every worker read it in
 * place. After a batch, the topic's readers are rung, once per worker.
 * <p>
 * The cache_server takes no streams of its own: a cache_client reads the cache directly and sends what the cache does
 * not serve (produce, groups, offsets) straight to this binding's exit. Its only stream is a ticker to itself, which
 * carries its timer: retries of streams that failed, and retention while no record arrives.
 */
public final class KafkaCacheServerFactory implements BindingHandler
{
    /** The credit given to each FETCH stream: records are appended as they come, so it is taken back at once. */
    static final int FETCH_WINDOW = 256 * 1024;

    private static final long TICK_MILLIS = 250L;
    private static final long EVICT_MILLIS = 1_000L;
    private static final long RETRY_MIN_MILLIS = 100L;
    private static final long RETRY_MAX_MILLIS = 5_000L;
    private static final int SIGNAL_TICK = 1;
    private static final int FLAG_FIN = 0x01;
    private static final int FLAG_INIT = 0x02;
    private static final short OFFSET_OUT_OF_RANGE = 1;
    private static final short UNKNOWN_TOPIC_OR_PARTITION = 3;
    private static final UnsafeBuffer EMPTY = new UnsafeBuffer(new byte[0]);
    private static final String CLEANUP_POLICY = "cleanup.policy";

    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final FlushFW flushRO = new FlushFW();
    private final ResetFW resetRO = new ResetFW();
    private final EndFW endRO = new EndFW();
    private final AbortFW abortRO = new AbortFW();
    private final KafkaBeginExFW beginExRO = new KafkaBeginExFW();
    private final KafkaDataExFW dataExRO = new KafkaDataExFW();
    private final KafkaFlushExFW flushExRO = new KafkaFlushExFW();
    private final KafkaResetExFW resetExRO = new KafkaResetExFW();
    private final KafkaHeaderFW headerRO = new KafkaHeaderFW();
    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
    private final CacheHeadersBuilder headersRW = new CacheHeadersBuilder();
    private final UnsafeBuffer keyView = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer valueView = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer headersView = new UnsafeBuffer(0, 0);

    private final EngineContext context;
    private final BindingConfig binding;
    private final CacheRegistry registry;
    private final KafkaCacheOptionsConfig options;
    private final StreamFrames frames;
    private final MutableDirectBuffer extensionBuffer;
    private final MutableDirectBuffer headersBuffer;
    private final Doorbell requests;
    private final KafkaMetrics metrics;
    // a list, walked by index: the ticker walks it 4 times a second, and an iterator would be garbage each time
    private final List<ServerTopic> topics = new ArrayList<>();
    private final long tickerId;
    private MessageConsumer ticker;
    private boolean closed;

    KafkaCacheServerFactory(EngineContext context, BindingConfig binding, CacheRegistry registry)
    {
        this.context = context;
        this.binding = binding;
        this.registry = registry;
        this.options = binding.options() instanceof KafkaCacheOptionsConfig cache ? cache : KafkaCacheOptionsConfig.DEFAULTS;
        this.frames = new StreamFrames(context.writeBuffer());
        final int capacity = context.writeBuffer().capacity();
        this.extensionBuffer = new UnsafeBuffer(new byte[capacity]);
        this.headersBuffer = new ExpandableArrayBuffer(capacity);
        this.tickerId = context.supplyInitialId(binding.id());
        this.metrics = new KafkaMetrics(context, binding);
        this.requests = context.supplyDoorbell(this::onRequests);
        registry.server(context.index(), requests);
        for (String topic : options.bootstrap())
        {
            registry.request(topic);
        }
        requests.ring();
    }

    /**
     * Only the ticker this binding opens to itself comes here: nothing else opens a stream to a cache_server (the
     * engine resets anything else).
     */
    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        return begin.streamId() == tickerId && begin.originId() == binding.id() ? (t, b, i, l) -> { } : null;
    }

    void close()
    {
        closed = true;
        final long traceId = context.supplyTraceId();
        for (ServerTopic topic : new ArrayList<>(topics))
        {
            topic.close(traceId);
        }
        topics.clear();
        requests.close();
    }

    // a topic asked for by a reader (or bootstrapped) that this worker owns
    private void onRequests()
    {
        for (CacheTopic topic = registry.pollRequest(context.index()); topic != null && !closed;
            topic = registry.pollRequest(context.index()))
        {
            final String name = topic.name();
            final RouteConfig route = binding.resolve(c -> c instanceof KafkaTopicConditionConfig t && t.matches(name));
            if (route == null)
            {
                context.event(binding.id(), context.supplyTraceId(), "kafka.cache.unrouted", "bindings." + binding.name()
                    + ": no route for topic " + name + ", not fetched");
                topic.error(UNKNOWN_TOPIC_OR_PARTITION);
                topic.appended();
                continue;
            }
            final ServerTopic server = new ServerTopic(topic, route.exitId(), options.topic(name).defaultOffset().sentinel());
            topics.add(server);
            startTicker();
            server.open(context.supplyTraceId());
        }
    }

    private void startTicker()
    {
        if (ticker == null)
        {
            final BeginFW begin = beginRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .originId(binding.id()).routedId(binding.id()).streamId(tickerId)
                .sequence(0L).acknowledge(0L).maximum(0).traceId(context.supplyTraceId())
                .build();
            ticker = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), this::onTicker);
            context.signaler().signalAt(System.currentTimeMillis() + TICK_MILLIS, binding.id(), binding.id(), tickerId,
                0L, SIGNAL_TICK, 0);
        }
    }

    private void onTicker(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (msgTypeId == SignalFW.TYPE_ID && !closed)
        {
            final long now = System.currentTimeMillis();
            for (int i = 0; i < topics.size(); i++)
            {
                topics.get(i).onTick(now);
            }
            context.signaler().signalAt(now + TICK_MILLIS, binding.id(), binding.id(), tickerId, 0L, SIGNAL_TICK, 0);
        }
    }

    private static long backoff(int attempts)
    {
        return Math.min(RETRY_MAX_MILLIS, RETRY_MIN_MILLIS << Math.min(attempts, 10));
    }

    /** One topic this worker owns: its META stream and a FETCH stream per partition. */
    private final class ServerTopic
    {
        private final CacheTopic topic;
        private final long exitId;
        private final long defaultOffset;
        private final Doorbell appended;
        private final MetaStream meta;
        private final DescribeStream describe;
        private CacheConfig config;
        private int partitionCount;
        private final List<PartitionFetch> fetches = new ArrayList<>();
        private final List<CachePartition> retired = new ArrayList<>();
        private int incarnations;
        private long evictAt;

        ServerTopic(CacheTopic topic, long exitId, long defaultOffset)
        {
            this.topic = topic;
            this.exitId = exitId;
            this.defaultOffset = defaultOffset;
            // rung per record appended, run once per duty cycle: the readers are rung once per batch
            this.appended = context.supplyDoorbell(topic::appended);
            this.meta = new MetaStream(this);
            this.describe = new DescribeStream(this);
        }

        void open(long traceId)
        {
            describe.open(traceId);
            meta.open(traceId);
        }

        /** The topic's cleanup.policy, once Kafka told it (or could not): the partitions are made with it. */
        void onConfig(CacheConfig.CleanupPolicy policy, long traceId)
        {
            final boolean first = config == null;
            config = registry.config().withCleanupPolicy(policy);
            if (first)
            {
                onPartitions(partitionCount, traceId);
            }
        }

        void onPartitions(int count, long traceId)
        {
            if (topic.error() != 0)
            {
                topic.error(0);
                appended.ring();
            }
            partitionCount = Math.max(partitionCount, count);
            if (config == null)
            {
                // a compacted topic's partitions keep the latest record per key: not made before the policy is known
                return;
            }
            final boolean first = fetches.isEmpty();
            for (int id = fetches.size(); id < count; id++)
            {
                final CachePartition partition = new CachePartition(registry.directory(), topic.name(), id, config);
                final PartitionFetch fetch = new PartitionFetch(this, id, partition);
                fetches.add(fetch);
                // partitions added later start from their beginning: nothing written before they were noticed is missed
                fetch.open(first ? defaultOffset : -2L, traceId);
            }
            topic.partitions(count);
        }

        void onTick(long now)
        {
            if (meta.closed && now >= meta.retryAt)
            {
                meta.open(context.supplyTraceId());
            }
            if (describe.closed && config == null && now >= describe.retryAt)
            {
                describe.open(context.supplyTraceId());
            }
            boolean unread = false;
            for (int i = 0; i < fetches.size(); i++)
            {
                final PartitionFetch fetch = fetches.get(i);
                if (fetch.closed && now >= fetch.retryAt)
                {
                    fetch.open(fetch.restartOffset(), context.supplyTraceId());
                }
                unread |= !fetch.partition.readable();
            }
            if (unread)
            {
                // readers whose reply waits for every partition's end look again, even when nothing is appended
                appended.ring();
            }
            if (now >= evictAt)
            {
                evictAt = now + EVICT_MILLIS;
                for (int i = 0; i < fetches.size(); i++)
                {
                    fetches.get(i).partition.evict();
                }
                // a replaced partition's segments are unmapped once its last reader has left them
                for (int i = retired.size() - 1; i >= 0; i--)
                {
                    final CachePartition partition = retired.get(i);
                    partition.delete();
                    if (partition.footprint() == 0L)
                    {
                        retired.remove(i);
                    }
                }
            }
        }

        void close(long traceId)
        {
            meta.close(traceId);
            describe.close(traceId);
            for (PartitionFetch fetch : fetches)
            {
                fetch.close(traceId);
                fetch.forgetLag();
                fetch.partition.delete();
            }
            retired.forEach(CachePartition::delete);
            appended.close();
        }
    }

    /** A stream this binding opens to its exit, and what it receives back. */
    private abstract class ExitStream
    {
        final ServerTopic owner;
        long initialId;
        long replyId;
        MessageConsumer receiver;
        long replySeq;
        long replyAck;
        boolean closed = true;
        int attempts;
        long retryAt;

        ExitStream(ServerTopic owner)
        {
            this.owner = owner;
        }

        final void doBegin(long traceId, KafkaBeginExFW extension)
        {
            initialId = context.supplyInitialId(binding.id());
            replyId = initialId & ~1L;
            replySeq = 0L;
            replyAck = 0L;
            final BeginFW begin = beginRW.wrap(context.writeBuffer(), 0, context.writeBuffer().capacity())
                .originId(binding.id()).routedId(owner.exitId).streamId(initialId)
                .sequence(0L).acknowledge(0L).maximum(0).traceId(traceId)
                .extension(extension.buffer(), extension.offset(), extension.sizeof())
                .build();
            closed = false;
            receiver = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), this::onMessage);
            if (receiver == null)
            {
                onClosed(traceId, (short) -1);
            }
        }

        final void doWindow(long traceId, int maximum)
        {
            frames.window(receiver, binding.id(), owner.exitId, replyId, replySeq, replyAck, maximum, traceId, 0L, 0);
        }

        final void close(long traceId)
        {
            if (!closed)
            {
                closed = true;
                frames.end(receiver, binding.id(), owner.exitId, initialId, 0L, 0L, 0, traceId);
                frames.reset(receiver, binding.id(), owner.exitId, replyId, replySeq, replyAck, 0, traceId, null, 0, 0);
            }
        }

        private void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            if (closed)
            {
                return;
            }
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onReplyBegin(beginRO.wrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onReplyData(dataRO.wrap(buffer, index, index + length));
                case FlushFW.TYPE_ID -> onReplyFlush(flushRO.wrap(buffer, index, index + length));
                case ResetFW.TYPE_ID ->
                {
                    final ResetFW reset = resetRO.wrap(buffer, index, index + length);
                    final OctetsFW extension = reset.extension();
                    final KafkaResetExFW resetEx = extension != null && extension.sizeof() > 0
                        ? resetExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                        : null;
                    closeQuietly(reset.traceId(), resetEx != null ? resetEx.error() : (short) -1);
                }
                case EndFW.TYPE_ID -> closeQuietly(endRO.wrap(buffer, index, index + length).traceId(), (short) -1);
                case AbortFW.TYPE_ID -> closeQuietly(abortRO.wrap(buffer, index, index + length).traceId(), (short) -1);
                default ->
                {
                    // the initial Window: nothing to send on it
                }
            }
        }

        private void closeQuietly(long traceId, short error)
        {
            close(traceId);
            onClosed(traceId, error);
        }

        void onClosed(long traceId, short error)
        {
            closed = true;
            retryAt = System.currentTimeMillis() + backoff(attempts++);
        }

        /** The reply begins: its credit, the same for every stream here. */
        void onReplyBegin(BeginFW begin)
        {
            doWindow(begin.traceId(), FETCH_WINDOW);
        }

        abstract void onReplyData(DataFW data);

        /**
         * A META or DESCRIBE answer (one Data each, rare): acknowledged at once, its credit given back, its kafka
         * extension decoded, or null.
         */
        final KafkaDataExFW takeAnswer(DataFW data)
        {
            replySeq = data.sequence() + data.reserved();
            replyAck = replySeq;
            doWindow(data.traceId(), FETCH_WINDOW);
            final OctetsFW extension = data.extension();
            return extension != null && extension.sizeof() > 0
                ? dataExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                : null;
        }

        void onReplyFlush(FlushFW flush)
        {
        }
    }

    /** The topic's partitions, again whenever they change. */
    private final class MetaStream extends ExitStream
    {
        MetaStream(ServerTopic owner)
        {
            super(owner);
        }

        void open(long traceId)
        {
            final String name = owner.topic.name();
            doBegin(traceId, beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .typeId(KafkaBinding.TYPE_ID)
                .meta(m -> m.topic(name))
                .build());
        }

        @Override
        void onReplyData(DataFW data)
        {
            final KafkaDataExFW dataEx = takeAnswer(data);
            if (dataEx != null && dataEx.kind() == KafkaCapability.META)
            {
                attempts = 0;
                final Array32FW<KafkaPartitionFW> partitions = dataEx.meta().partitions();
                owner.onPartitions(partitions.count(), data.traceId());
            }
        }

        @Override
        void onClosed(long traceId, short error)
        {
            super.onClosed(traceId, error);
            if (error == UNKNOWN_TOPIC_OR_PARTITION)
            {
                // readers waiting for the topic hear of it; the topic is asked about again, it may be created later
                owner.topic.error(error);
                owner.appended.ring();
            }
        }
    }

    /**
     * The topic's cleanup.policy (DescribeConfigs), which decides whether its partitions compact. Asked once; a Kafka
     * that refuses it (an ACL, an old broker) leaves the topic to retention alone, with an event.
     */
    private final class DescribeStream extends ExitStream
    {
        DescribeStream(ServerTopic owner)
        {
            super(owner);
        }

        void open(long traceId)
        {
            final String name = owner.topic.name();
            doBegin(traceId, beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .typeId(KafkaBinding.TYPE_ID)
                .describe(d -> d.topic(name).configsItem(c -> c.name(CLEANUP_POLICY)))
                .build());
        }

        @Override
        void onReplyData(DataFW data)
        {
            final KafkaDataExFW dataEx = takeAnswer(data);
            if (dataEx != null && dataEx.kind() == KafkaCapability.DESCRIBE)
            {
                final KafkaConfigFW entry = dataEx.describe().configs()
                    .matchFirst(c -> CLEANUP_POLICY.equals(c.name().asString()));
                final String value = entry != null ? entry.value().asString() : null;
                CacheConfig.CleanupPolicy policy = CacheConfig.CleanupPolicy.DELETE;
                if (value != null)
                {
                    try
                    {
                        policy = CacheConfig.CleanupPolicy.of(value);
                    }
                    catch (IllegalArgumentException ex)
                    {
                        context.event(binding.id(), data.traceId(), "kafka.cache.config", "bindings." + binding.name()
                            + ": topic " + owner.topic.name() + ": " + ex.getMessage() + ", taken as delete");
                    }
                }
                owner.onConfig(policy, data.traceId());
            }
        }

        @Override
        void onClosed(long traceId, short error)
        {
            super.onClosed(traceId, error);
            if (owner.config == null && error != UNKNOWN_TOPIC_OR_PARTITION && error != -1)
            {
                context.event(binding.id(), traceId, "kafka.cache.config", "bindings." + binding.name() + ": topic "
                    + owner.topic.name() + ": DescribeConfigs failed with error " + error
                    + ", cleanup.policy taken as delete");
                owner.onConfig(CacheConfig.CleanupPolicy.DELETE, traceId);
            }
        }
    }

    /** One partition's records, appended to its cache partition as they come. */
    private final class PartitionFetch extends ExitStream
    {
        private final int id;
        private CachePartition partition;
        private boolean outOfRange;
        // this partition's share of kafka.cache.lag, as last added to the gauge
        private long lag;

        // a record whose value comes in several fragments, gathered here (key and headers from its first fragment)
        private ExpandableArrayBuffer assembly;
        private boolean assembling;
        private long recordOffset;
        private long recordTimestamp;
        private int keyLength;
        private int headersLength;
        private int valueLength;

        PartitionFetch(ServerTopic owner, int id, CachePartition partition)
        {
            super(owner);
            this.id = id;
            this.partition = partition;
        }

        /**
         * The partition's log starts below what the cache holds: the topic was deleted and created again (or its log
         * truncated), and the offsets cached no longer mean those records. The partition is replaced by an empty one
         * (in a directory of its own, since readers may still be in the old one's files); its readers are reset with
         * OFFSET_OUT_OF_RANGE, as Kafka answers an offset beyond a partition's end, and new readers read the new one.
         */
        private void replace(long traceId, long start)
        {
            context.event(binding.id(), traceId, "kafka.cache.truncated", "bindings." + binding.name() + ": topic "
                + owner.topic.name() + " partition " + id + " starts at " + start + ", below the cache's "
                + partition.fetchedOffset() + " (the topic was created again?): its cache starts over");
            final CachePartition old = partition;
            owner.retired.add(old);
            partition = new CachePartition(registry.directory().resolve("incarnation-" + ++owner.incarnations),
                owner.topic.name(), id, owner.config);
            owner.topic.partition(id, partition);
            old.delete();
        }

        // after a failure: from where the cache is, or from the oldest record when Kafka no longer has that offset
        long restartOffset()
        {
            final long fetched = partition.fetchedOffset();
            final long offset = outOfRange || fetched < 0L ? (fetched < 0L ? owner.defaultOffset : -2L) : fetched;
            outOfRange = false;
            return offset;
        }

        void open(long offset, long traceId)
        {
            final String name = owner.topic.name();
            assembling = false;
            doBegin(traceId, beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .typeId(KafkaBinding.TYPE_ID)
                .fetch(f -> f.topic(name).partition(p -> p.partitionId(id).partitionOffset(offset)))
                .build());
        }

        @Override
        void onReplyBegin(BeginFW begin)
        {
            final OctetsFW extension = begin.extension();
            final KafkaBeginExFW beginEx = extension != null && extension.sizeof() > 0
                ? beginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                : null;
            if (beginEx != null && beginEx.kind() == KafkaCapability.FETCH)
            {
                final KafkaOffsetFW resolved = beginEx.fetch().partition();
                if (resolved.partitionOffset() < partition.fetchedOffset())
                {
                    replace(begin.traceId(), resolved.partitionOffset());
                }
                partition.fetched(resolved.partitionOffset(), resolved.stableOffset(), resolved.latestOffset());
            }
            // the fetch is back: a later failure starts its backoff from the shortest again
            attempts = 0;
            if (owner.topic.partition(id) == null)
            {
                owner.topic.partition(id, partition);
            }
            owner.appended.ring();
            updateLag();
            super.onReplyBegin(begin);
        }

        @Override
        void onReplyData(DataFW data)
        {
            replySeq = data.sequence() + data.reserved();
            final int flags = data.flags();
            final OctetsFW payload = data.payload();
            final OctetsFW extension = data.extension();
            final KafkaDataExFW dataEx = (flags & FLAG_INIT) != 0 && extension != null && extension.sizeof() > 0
                ? dataExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                : null;
            if (dataEx != null && dataEx.kind() == KafkaCapability.FETCH)
            {
                final KafkaFetchDataExFW fetch = dataEx.fetch();
                final KafkaOffsetFW offset = fetch.partition();
                recordOffset = offset.partitionOffset();
                recordTimestamp = fetch.timestamp();
                partition.fetched(-1L, offset.stableOffset(), offset.latestOffset());
                final int headers = encodeHeaders(fetch.headers());
                if ((flags & FLAG_FIN) != 0)
                {
                    append(fetch.key(), payload, headers);
                }
                else
                {
                    beginAssembly(fetch.key(), payload, headers);
                }
            }
            else if (assembling)
            {
                continueAssembly(payload, (flags & FLAG_FIN) != 0);
            }
            // taken at once; told back once half the window is used, not per record
            if (replySeq - replyAck >= FETCH_WINDOW / 2)
            {
                replyAck = replySeq;
                doWindow(data.traceId(), FETCH_WINDOW);
            }
        }

        @Override
        void onReplyFlush(FlushFW flush)
        {
            final OctetsFW extension = flush.extension();
            final KafkaFlushExFW flushEx = extension != null && extension.sizeof() > 0
                ? flushExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                : null;
            if (flushEx != null && flushEx.kind() == KafkaCapability.FETCH)
            {
                final KafkaOffsetFW offset = flushEx.fetch().partition();
                partition.fetched(offset.partitionOffset(), offset.stableOffset(), offset.latestOffset());
                owner.appended.ring();
                updateLag();
            }
        }

        // Kafka's high watermark less the next offset to fetch: what the cache has yet to fetch, or 0 while unknown
        private void updateLag()
        {
            if (metrics.cacheLag != null)
            {
                final long highWatermark = partition.highWatermark();
                final long fetched = partition.fetchedOffset();
                final long now = highWatermark >= 0L && fetched >= 0L ? Math.max(0L, highWatermark - fetched) : 0L;
                if (now != lag)
                {
                    Metrics.add(metrics.cacheLag, now - lag);
                    lag = now;
                }
            }
        }

        // the partition is no longer cached here: its lag goes from the gauge
        void forgetLag()
        {
            Metrics.add(metrics.cacheLag, -lag);
            lag = 0L;
        }

        @Override
        void onClosed(long traceId, short error)
        {
            super.onClosed(traceId, error);
            assembling = false;
            outOfRange = error == OFFSET_OUT_OF_RANGE;
            if (outOfRange)
            {
                context.event(binding.id(), traceId, "kafka.cache.gap", "bindings." + binding.name() + ": topic "
                    + owner.topic.name() + " partition " + id + ": offset " + partition.fetchedOffset()
                    + " is no longer in Kafka, the cache goes on from the oldest record");
            }
        }

        private void append(KafkaBytesFW key, OctetsFW value, int headers)
        {
            if (recordOffset <= partition.latestOffset())
            {
                // already cached: a fetch restarted below what the cache holds
                return;
            }
            final DirectBuffer keyBuffer = view(keyView, key);
            DirectBuffer valueBuffer = null;
            if (value != null)
            {
                valueView.wrap(value.buffer(), value.offset(), value.sizeof());
                valueBuffer = valueView;
            }
            headersView.wrap(headersBuffer, 0, headers);
            appendRecord(keyBuffer, valueBuffer);
        }

        private void appendRecord(DirectBuffer key, DirectBuffer value)
        {
            try
            {
                partition.append(recordOffset, recordTimestamp, key, value, headersView);
                Metrics.increment(metrics.cacheFetched);
            }
            catch (IllegalArgumentException ex)
            {
                context.event(binding.id(), context.supplyTraceId(), "kafka.cache.refused", "bindings." + binding.name()
                    + ": topic " + owner.topic.name() + " partition " + id + " offset " + recordOffset + ": "
                    + ex.getMessage());
            }
            partition.fetched(recordOffset + 1, -1L, -1L);
            owner.appended.ring();
            updateLag();
        }

        // the first fragment: key, headers and the value's first bytes, in that order, in the assembly buffer
        private void beginAssembly(KafkaBytesFW key, OctetsFW value, int headers)
        {
            if (assembly == null)
            {
                assembly = new ExpandableArrayBuffer(FETCH_WINDOW);
            }
            keyLength = key.length();
            int limit = 0;
            if (keyLength > 0)
            {
                assembly.putBytes(0, key.value().buffer(), key.value().offset(), keyLength);
                limit = keyLength;
            }
            headersLength = headers;
            assembly.putBytes(limit, headersBuffer, 0, headers);
            valueLength = 0;
            assembling = true;
            continueAssembly(value, false);
        }

        private void continueAssembly(OctetsFW value, boolean last)
        {
            final int valueOffset = Math.max(keyLength, 0) + headersLength;
            if (value != null)
            {
                assembly.putBytes(valueOffset + valueLength, value.buffer(), value.offset(), value.sizeof());
                valueLength += value.sizeof();
            }
            if (last)
            {
                assembling = false;
                DirectBuffer key = null;
                if (keyLength >= 0)
                {
                    keyView.wrap(assembly, 0, keyLength);
                    key = keyView;
                }
                headersBuffer.putBytes(0, assembly, Math.max(keyLength, 0), headersLength);
                headersView.wrap(headersBuffer, 0, headersLength);
                valueView.wrap(assembly, valueOffset, valueLength);
                if (recordOffset > partition.latestOffset())
                {
                    appendRecord(key, valueView);
                }
            }
        }
    }

    private static DirectBuffer view(UnsafeBuffer view, KafkaBytesFW bytes)
    {
        final int length = bytes.length();
        if (length < 0)
        {
            return null;
        }
        final OctetsFW value = bytes.value();
        if (length == 0)
        {
            view.wrap(EMPTY, 0, 0);
        }
        else
        {
            view.wrap(value.buffer(), value.offset(), length);
        }
        return view;
    }

    // the record's headers (KafkaHeader items, varint lengths) in the cache's encoding, in headersBuffer from 0
    private int encodeHeaders(Array32FW<KafkaHeaderFW> headers)
    {
        headersRW.wrap(headersBuffer, 0);
        // an array32 is its count, then its items
        final DirectBuffer items = headers.buffer();
        int offset = headers.offset() + Integer.BYTES;
        final int limit = headers.limit();
        for (int i = 0; i < headers.count() && offset < limit; i++)
        {
            final KafkaHeaderFW header = headerRO.wrap(items, offset, limit);
            final KafkaBytesFW name = header.name();
            final KafkaBytesFW value = header.value();
            final OctetsFW nameBytes = name.value();
            final OctetsFW valueBytes = value.value();
            headersRW.header(nameBytes != null ? nameBytes.buffer() : items, nameBytes != null ? nameBytes.offset() : 0,
                Math.max(name.length(), 0),
                valueBytes != null ? valueBytes.buffer() : items, valueBytes != null ? valueBytes.offset() : 0,
                value.length());
            offset = header.limit();
        }
        return headersRW.length();
    }
}
