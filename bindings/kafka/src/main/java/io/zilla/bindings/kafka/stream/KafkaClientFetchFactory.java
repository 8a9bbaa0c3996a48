/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.metrics.Metrics;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.ApiVersionRanges;
import io.zilla.specs.kafka.codec.DecodedRecord;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.codec.RecordBatchDecoder;
import io.zilla.specs.kafka.codec.RecordBatches;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaBytesFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFetchBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaFetchDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFetchFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaIsolation;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;

/**
 * FETCH streams: an application reads one partition from an offset (-2 earliest, -1 latest, resolved with
 * ListOffsets at the leader), with filters and an isolation level. The reply begins with the resolved offset, then
 * carries one Data per record the filters pass (the value as payload, in fragments when the credit or a frame is
 * smaller than it), and a Flush when the position moved past records the application does not get.
 * <p>
 * The streams of a worker led by one broker share one sessionless Fetch (v12) at a time on the leader's fetch
 * connection ({@link FetchBroker}), which asks for at most what one buffer slot holds; each partition's records
 * bytes are copied into a slot of its stream and read there in place with the {@link RecordBatchDecoder} as the
 * application's window takes them, then the stream is in the next Fetch again, from its next offset. Per record
 * nothing is allocated.
 * <p>
 * A record batch larger than a slot (a producer's batch.size above it, or one large record) still comes whole: the
 * broker returns the first batch of the first partition with records whatever the byte limits say (KIP-74), and a
 * stream answered with none while its partition has some goes first in the next Fetch. Its stream then holds its
 * records on the heap ({@link HeldBytes}), grown to a power of two up to {@code maxBatchBytes}
 * ({@link io.zilla.bindings.kafka.KafkaBinding#CLIENT_FETCH_MAX_BATCH_BYTES}), and keeps that buffer for its life:
 * no allocation per Fetch. A batch above the bound resets the stream.
 */
final class KafkaClientFetchFactory
{
    static final int SIGNAL_RETRY = 1;

    static final long RETRY_BACKOFF_MIN = 100L;
    static final long RETRY_BACKOFF_MAX = 2_000L;

    /** Retriable failures in a row before the stream is reset: with the backoff, about a minute. */
    static final int MAX_ATTEMPTS = 40;

    /** How long a Fetch waits at the broker for a first byte. */
    static final int MAX_WAIT_MS = 500;

    static final short OFFSET_OUT_OF_RANGE = 1;
    static final short CORRUPT_MESSAGE = 2;
    static final short MESSAGE_TOO_LARGE = 10;

    private static final long EARLIEST = -2L;
    private static final long LATEST = -1L;
    private static final int FLAG_FIN = 0x01;
    private static final int FLAG_INIT = 0x02;
    /** Where {@code deferred} lies in a KafkaDataEx fetch: after the type id (int32) and the kind (uint8). */
    private static final int DEFERRED_OFFSET = Integer.BYTES + Byte.BYTES;
    /** Room kept in a Fetch response's slot for everything but the records: headers, the topic name, fields. */
    private static final int RESPONSE_OVERHEAD = 1024;

    private final KafkaClientAppFrames io;
    private final FlushFW.Builder flushRW = new FlushFW.Builder();
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
    private final KafkaDataExFW.Builder dataExRW = new KafkaDataExFW.Builder();
    private final KafkaFlushExFW.Builder flushExRW = new KafkaFlushExFW.Builder();
    private final Consumer<KafkaFetchDataExFW.Builder> fetchDataEx = this::fetchDataEx;
    private final Consumer<KafkaOffsetFW.Builder> recordOffset = this::recordOffset;
    private final Consumer<KafkaBytesFW.Builder> recordKey = this::recordKey;
    private final MutableDirectBuffer extensionBuffer;
    private final MutableDirectBuffer frameBuffer;

    private final StreamFrames frames;
    private final KafkaClientConnectionPool pool;
    private final KafkaClientMetadata metadata;
    private final Signaler signaler;
    private final BufferPool bufferPool;
    private final RecordBatchDecoder decoder = new RecordBatchDecoder();
    private final KafkaFetchCodec codec = new KafkaFetchCodec();
    private final int maxPayload;
    private final int maxBatchBytes;
    private final Long2ObjectHashMap<FetchStream> streams = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<FetchBroker> brokers = new Long2ObjectHashMap<>();

    // the record whose Data extension is being written, read by the builders' method references
    private FetchStream current;
    private DecodedRecord currentRecord;

    private final AtomicCounter fetchRequests;
    private final AtomicCounter fetchPartitions;
    private final KafkaMetrics metrics;

    KafkaClientFetchFactory(EngineContext context, StreamFrames frames, KafkaClientConnectionPool pool,
        KafkaClientMetadata metadata, int maxBatchBytes, KafkaMetrics metrics)
    {
        this.metrics = metrics;
        this.frames = frames;
        this.io = new KafkaClientAppFrames(frames);
        this.pool = pool;
        this.metadata = metadata;
        this.signaler = context.signaler();
        this.bufferPool = context.bufferPool();
        final int capacity = context.writeBuffer().capacity();
        this.extensionBuffer = new UnsafeBuffer(new byte[capacity >> 1]);
        this.frameBuffer = new UnsafeBuffer(new byte[1024]);
        // a Data frame, payload and extension, is built in the write buffer when the ring cannot take it in place
        this.maxPayload = capacity - 256;
        this.maxBatchBytes = Math.max(maxBatchBytes, bufferPool.slotCapacity());
        // what the brokers are asked: a cache in front of this client shows here as one partition per Fetch, not one
        // per subscriber
        this.fetchRequests = pool != null ? context.supplyCounter(pool.routedId(), "fetch.requests") : null;
        this.fetchPartitions = pool != null ? context.supplyCounter(pool.routedId(), "fetch.partitions") : null;
    }

    MessageConsumer newStream(BeginFW begin, KafkaFetchBeginExFW beginEx, MessageConsumer sender)
    {
        MessageConsumer receiver = null;
        final String topic = beginEx.topic().asString();
        final KafkaOffsetFW partition = beginEx.partition();
        if (metadata != null && topic != null && !topic.isEmpty() && partition.partitionId() >= 0
            && partition.partitionOffset() >= EARLIEST)
        {
            final FetchStream stream = new FetchStream(sender, begin.originId(), begin.routedId(), begin.streamId(), topic,
                partition.partitionId(), partition.partitionOffset(), KafkaFetchFilters.of(beginEx.filters()),
                beginEx.isolation() == KafkaIsolation.READ_COMMITTED ? 1 : 0);
            streams.put(stream.initialId, stream);
            receiver = stream::onAppMessage;
        }
        return receiver;
    }

    void close(long traceId)
    {
        KafkaClientAppStream.abortAll(streams, traceId);
    }

    /** The apis FETCH streams use: Fetch v12 only (see {@link KafkaFetchCodec}), ListOffsets v2 and up (isolation). */
    static void supports(ApiVersionRanges ranges)
    {
        ranges.supports(KafkaApis.FETCH, KafkaFetchCodec.VERSION, KafkaFetchCodec.VERSION);
        final ListOffsetsRequestData listOffsets = new ListOffsetsRequestData();
        ranges.supports(KafkaApis.LIST_OFFSETS, Math.max(2, listOffsets.lowestSupportedVersion()),
            listOffsets.highestSupportedVersion());
    }

    static boolean isRetriable(short error)
    {
        return switch (error)
        {
            // UNKNOWN_TOPIC_OR_PARTITION (a broker still loading its logs), LEADER_NOT_AVAILABLE,
            // NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT, NETWORK_EXCEPTION, KAFKA_STORAGE_ERROR,
            // FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH, OFFSET_NOT_AVAILABLE
            case 3, 5, 6, 7, 13, 56, 74, 75, 78 -> true;
            default -> false;
        };
    }

    // one Fetch at a time per broker and isolation level, for every stream of this worker that is ready to fetch
    private FetchBroker broker(int nodeId, int isolation)
    {
        final long key = ((long) nodeId << 1) | isolation;
        FetchBroker broker = brokers.get(key);
        if (broker == null)
        {
            broker = new FetchBroker(nodeId, isolation);
            brokers.put(key, broker);
        }
        return broker;
    }

    private void fetchDataEx(KafkaFetchDataExFW.Builder builder)
    {
        builder.deferred(0)
            .timestamp(currentRecord.timestamp())
            .producerId(decoder.producerId())
            .partition(recordOffset)
            .key(recordKey);
    }

    private void recordOffset(KafkaOffsetFW.Builder builder)
    {
        builder.partitionId(current.partitionId)
            .partitionOffset(currentRecord.offset())
            .stableOffset(current.stableOffset)
            .latestOffset(current.latestOffset);
    }

    private void recordKey(KafkaBytesFW.Builder builder)
    {
        final OctetsFW key = currentRecord.key();
        if (key != null)
        {
            builder.value(key);
        }
    }

    private final class FetchStream extends KafkaClientAppStream implements KafkaClientTopic.Listener
    {
        private final String name;
        private final byte[] nameBytes;
        private final int partitionId;
        private final long requestedOffset;
        private final KafkaFetchFilters filters;
        private final int isolation;
        private final ListOffsetsRequest listOffsets = new ListOffsetsRequest();
        private final LongHashSet abortedProducers = new LongHashSet();
        // built once per stream: capturing lambdas would be allocated per Flush
        private final Consumer<KafkaOffsetFW.Builder> flushPartition = this::flushPartition;
        private final Consumer<KafkaFetchFlushExFW.Builder> flushFetch = f -> f.partition(flushPartition);

        private KafkaClientTopic topic;
        private boolean resolved;
        private long nextOffset;
        private long reportedOffset;
        private boolean answered;
        private long stableOffset = -1L;
        private long latestOffset = -1L;

        private boolean inflight;
        private FetchBroker fetching;
        private long timerId = Signaler.NO_CANCEL_ID;
        private int attempts;
        private int unknownRetries;
        private long backoff = RETRY_BACKOFF_MIN;

        // the records of the last Fetch, until the application has taken them: in a slot, or on the heap for a batch
        // larger than one
        private final HeldBytes records;
        private boolean passedOver;
        private int recordsLimit;
        private int batchPosition;
        private int fragment;
        private long[] abortedIds = new long[4];
        private long[] abortedOffsets = new long[4];
        private int aborted;

        private boolean closed;

        FetchStream(MessageConsumer app, long originId, long routedId, long initialId, String name, int partitionId,
            long requestedOffset, KafkaFetchFilters filters, int isolation)
        {
            super(io, app, originId, routedId, initialId);
            this.name = name;
            this.nameBytes = name.getBytes(UTF_8);
            this.partitionId = partitionId;
            this.requestedOffset = requestedOffset;
            this.filters = filters;
            this.isolation = isolation;
            this.resolved = requestedOffset >= 0;
            this.nextOffset = requestedOffset;
            this.reportedOffset = requestedOffset;
            this.records = new HeldBytes(bufferPool, replyId);
        }

        // a FETCH stream carries no Data or Flush from the application: the defaults ignore them
        @Override
        void onAppBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            frames.window(app, originId, routedId, initialId, initialSeq, initialAck, 0, traceId, 0L, 0);
            if (resolved)
            {
                doReplyBegin(traceId);
            }
            topic = metadata.subscribe(name, this, traceId);
            if (topic.known())
            {
                onTopicMetadata(topic, traceId);
            }
        }

        @Override
        void onAppWindow(WindowFW window)
        {
            super.onAppWindow(window);
            doReplyRecords(window.traceId());
        }

        @Override
        void onSignal(SignalFW signal)
        {
            timerId = Signaler.NO_CANCEL_ID;
            if (!closed && signal.signalId() == SIGNAL_RETRY)
            {
                proceed(signal.traceId());
            }
        }

        @Override
        public void onTopicMetadata(KafkaClientTopic topic, long traceId)
        {
            final short error = topic.error();
            if (closed || inflight || fetching != null || timerId != Signaler.NO_CANCEL_ID)
            {
                // a retry is due, or a request is under way: the answer is read when it needs it
            }
            else if (error == KafkaClientTopic.NONE)
            {
                unknownRetries = 0;
                proceed(traceId);
            }
            else if (error == KafkaClientMetadata.UNKNOWN_TOPIC_OR_PARTITION && unknownRetries < 3)
            {
                unknownRetries++;
                scheduleRetry(traceId);
            }
            else if (isRetriable(error) && error != KafkaClientMetadata.UNKNOWN_TOPIC_OR_PARTITION)
            {
                scheduleRetry(traceId);
            }
            else
            {
                doAbortAll(traceId, error);
            }
        }

        /** Sends what comes next (ListOffsets, or a Fetch) unless something is under way or the records wait. */
        private void proceed(long traceId)
        {
            if (closed || inflight || fetching != null || timerId != Signaler.NO_CANCEL_ID || !records.isEmpty())
            {
                return;
            }
            if (!topic.known() || topic.error() != KafkaClientTopic.NONE)
            {
                // the answer calls onTopicMetadata, which comes back here or waits for a retry
                metadata.refresh(name, traceId);
                return;
            }
            if (!hasPartition())
            {
                doAbortAll(traceId, KafkaClientMetadata.UNKNOWN_TOPIC_OR_PARTITION);
                return;
            }
            final int leader = topic.leader(partitionId);
            if (leader >= 0 && resolved)
            {
                fetching = broker(leader, isolation);
                fetching.join(this, traceId);
            }
            else
            {
                final KafkaClientConnection connection = leader < 0 ? null
                    : pool.supply(leader, KafkaClientConnectionPool.Purpose.CONTROL, traceId);
                if (connection == null)
                {
                    onRetriable(traceId, KafkaClientMetadata.LEADER_NOT_AVAILABLE);
                }
                else
                {
                    inflight = true;
                    connection.send(listOffsets, traceId);
                }
            }
        }

        private boolean hasPartition()
        {
            boolean found = false;
            for (int i = 0; i < topic.partitions() && !found; i++)
            {
                found = topic.partitionId(i) == partitionId;
            }
            return found;
        }

        private void onRetriable(long traceId, short error)
        {
            if (++attempts > MAX_ATTEMPTS)
            {
                pool.event(traceId, "kafka.fetch.failed", "topic " + name + " partition " + partitionId + ": error "
                    + error + " after " + MAX_ATTEMPTS + " attempts, stream reset");
                doAbortAll(traceId, error);
            }
            else
            {
                metadata.refresh(name, traceId);
                scheduleRetry(traceId);
            }
        }

        private void onFailed(long traceId, short error)
        {
            if (error == OFFSET_OUT_OF_RANGE || !isRetriable(error))
            {
                doAbortAll(traceId, error);
            }
            else
            {
                onRetriable(traceId, error);
            }
        }

        private void onListed(long traceId, long offset)
        {
            attempts = 0;
            backoff = RETRY_BACKOFF_MIN;
            resolved = true;
            nextOffset = offset;
            reportedOffset = offset;
            doReplyBegin(traceId);
            proceed(traceId);
        }

        private void onFetched(long traceId)
        {
            final short error = codec.error();
            if (error != KafkaClientTopic.NONE)
            {
                onFailed(traceId, error);
                return;
            }
            attempts = 0;
            backoff = RETRY_BACKOFF_MIN;
            latestOffset = codec.highWatermark();
            stableOffset = codec.lastStableOffset();
            final int length = codec.recordsLimit() - codec.recordsOffset();
            if (length > maxBatchBytes)
            {
                // a single batch larger than the bound: the broker returns a first batch whole, whatever max bytes says
                pool.event(traceId, "kafka.fetch.too.large", "topic " + name + " partition " + partitionId + ": a batch of "
                    + length + " bytes at offset " + nextOffset + " exceeds " + KafkaBinding.CLIENT_FETCH_MAX_BATCH_BYTES
                    + " (" + maxBatchBytes + "), stream reset");
                doAbortAll(traceId, MESSAGE_TOO_LARGE);
            }
            else if (length > 0)
            {
                if (length > records.capacity())
                {
                    // once per stream, or a few times as larger batches come: the heap buffer stays with the stream
                    records.ensureCapacity(Math.min(maxBatchBytes, Math.max(length, Integer.highestOneBit(length - 1) << 1)));
                }
                if (!records.append(codec.buffer(), codec.recordsOffset(), length))
                {
                    pool.event(traceId, "kafka.fetch.overflow", "no buffer slot free for a fetch of " + name);
                    scheduleRetry(traceId);
                }
                else
                {
                    recordsLimit = records.limit();
                    batchPosition = records.offset();
                    fragment = 0;
                    passedOver = false;
                    keepAborted();
                    doReplyRecords(traceId);
                }
            }
            else
            {
                // the broker waited up to max wait for nothing, or left the partition out: its next batch is larger
                // than the bytes left (a broker answers part of a batch as no records), then it goes first next time
                final long readable = isolation == 1 ? stableOffset : latestOffset;
                passedOver = readable > nextOffset;
                if (!answered)
                {
                    // the first answer tells the high watermark even without records: a cache knows then that it is
                    // caught up (a Flush at the same position is progress by nothing to anyone else)
                    answered = true;
                    doReplyFlush(traceId);
                }
                proceed(traceId);
            }
        }

        private void keepAborted()
        {
            aborted = 0;
            if (isolation == 1)
            {
                final int count = codec.aborted();
                if (abortedIds.length < count)
                {
                    abortedIds = new long[count];
                    abortedOffsets = new long[count];
                }
                for (int i = 0; i < count; i++)
                {
                    abortedIds[i] = codec.abortedProducerId(i);
                    abortedOffsets[i] = codec.abortedFirstOffset(i);
                }
                aborted = count;
            }
        }

        /**
         * Gives the application the records held, as its credit allows; once every one is taken (or skipped), frees
         * the slot, reports progress past records it did not get with a Flush, and fetches again.
         */
        private void doReplyRecords(long traceId)
        {
            boolean blocked = false;
            while (!closed && !blocked && !records.isEmpty())
            {
                final MutableDirectBuffer buffer = records.buffer();
                decoder.wrap(buffer, batchPosition, recordsLimit);
                if (!decoder.nextBatch())
                {
                    if (decoder.error() != RecordBatchDecoder.NO_ERROR)
                    {
                        onCorrupt(traceId);
                    }
                    else
                    {
                        onDrained(traceId);
                    }
                    break;
                }
                if (!skipBatch())
                {
                    while (!blocked && decoder.nextRecord())
                    {
                        final DecodedRecord record = decoder.record();
                        if (record.offset() < nextOffset)
                        {
                            continue;
                        }
                        if (filters.matches(record))
                        {
                            blocked = !doReplyRecord(record, traceId);
                        }
                        if (!blocked)
                        {
                            nextOffset = record.offset() + 1;
                        }
                    }
                    if (!blocked && decoder.error() != RecordBatchDecoder.NO_ERROR)
                    {
                        onCorrupt(traceId);
                        break;
                    }
                }
                if (!blocked)
                {
                    // past the batch, even where compaction left no record at its last offset
                    nextOffset = Math.max(nextOffset, decoder.nextOffset());
                    batchPosition += RecordBatches.LOG_OVERHEAD + buffer.getInt(batchPosition + 8, BIG_ENDIAN);
                }
            }
        }

        /** Whether the current batch is none of the application's: a control batch, an aborted one, or one passed. */
        private boolean skipBatch()
        {
            boolean skip = decoder.lastOffset() < nextOffset;
            if (isolation == 1 && decoder.producerId() >= 0)
            {
                // KafkaConsumer's way: a producer's transaction is aborted from its first offset to its abort marker
                final long lastOffset = decoder.lastOffset();
                for (int i = 0; i < aborted; i++)
                {
                    if (abortedOffsets[i] <= lastOffset)
                    {
                        abortedProducers.add(abortedIds[i]);
                        abortedOffsets[i] = Long.MAX_VALUE;
                    }
                }
                if (decoder.isControl() && decoder.controlType() == RecordBatches.CONTROL_ABORT)
                {
                    abortedProducers.remove(decoder.producerId());
                }
                skip |= decoder.isTransactional() && !decoder.isControl()
                    && abortedProducers.contains(decoder.producerId());
            }
            return skip || decoder.isControl();
        }

        private void onDrained(long traceId)
        {
            // an emptied slot goes back to the pool; a heap buffer stays with the stream
            records.consume(records.size());
            answered = true;
            if (nextOffset > reportedOffset)
            {
                doReplyFlush(traceId);
            }
            proceed(traceId);
        }

        private void onCorrupt(long traceId)
        {
            pool.event(traceId, "kafka.fetch.corrupt", "topic " + name + " partition " + partitionId + ": batch at offset "
                + nextOffset + " unreadable (decoder error " + decoder.error() + "), stream reset");
            doAbortAll(traceId, CORRUPT_MESSAGE);
        }

        /**
         * Sends the record, or the rest of its value, as far as the credit goes.
         *
         * @return whether all of it went
         */
        private boolean doReplyRecord(DecodedRecord record, long traceId)
        {
            final OctetsFW value = record.value();
            final int valueLength = value != null ? value.sizeof() : 0;
            boolean sent = false;
            boolean progress = true;
            while (!sent && progress)
            {
                final int open = replyMax - (int) (replySeq - replyAck);
                final int credit = open - replyPad;
                final int remaining = valueLength - fragment;
                int extensionLength = 0;
                if (replyBegun && open > 0 && credit >= 0 && (credit > 0 || remaining == 0) && fragment == 0)
                {
                    extensionLength = writeDataEx(record);
                    if (extensionLength < 0)
                    {
                        pool.event(traceId, "kafka.fetch.too.large", "topic " + name + " partition " + partitionId
                            + ": the key and headers of the record at offset " + record.offset() + " exceed a frame");
                        doAbortAll(traceId, MESSAGE_TOO_LARGE);
                        return false;
                    }
                }
                final int length = Math.min(remaining, Math.min(credit, maxPayload - extensionLength));
                progress = replyBegun && open > 0 && length >= 0 && (length > 0 || remaining == 0);
                if (progress)
                {
                    final int flags = (fragment == 0 ? FLAG_INIT : 0) | (length == remaining ? FLAG_FIN : 0);
                    if (fragment == 0)
                    {
                        extensionBuffer.putInt(DEFERRED_OFFSET, remaining - length, ByteOrder.nativeOrder());
                    }
                    final int reserved = length + replyPad;
                    frames.data(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, flags, 0L, reserved,
                        value != null ? value.buffer() : null, value != null ? value.offset() + fragment : 0, length,
                        fragment == 0 ? extensionBuffer : null, 0, extensionLength);
                    replySeq += reserved;
                    fragment += length;
                    sent = (flags & FLAG_FIN) != 0;
                }
            }
            if (sent)
            {
                fragment = 0;
                reportedOffset = record.offset() + 1;
                Metrics.increment(metrics.fetchRecords);
                Metrics.add(metrics.fetchBytes, valueLength);
            }
            return sent;
        }

        /** Writes the record's KafkaDataEx fetch into the extension buffer; its headers are copied verbatim. */
        private int writeDataEx(DecodedRecord record)
        {
            int limit = -1;
            try
            {
                current = this;
                currentRecord = record;
                final KafkaDataExFW dataEx = dataExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .fetch(fetchDataEx)
                    .build();
                // the headers are the last field: an empty array32 now, its count then the record's own items
                final int headersLength = record.headersLimit() - record.headersOffset();
                final int countOffset = dataEx.limit() - Integer.BYTES;
                if (countOffset + Integer.BYTES + headersLength <= extensionBuffer.capacity())
                {
                    extensionBuffer.putInt(countOffset, record.headerCount(), ByteOrder.nativeOrder());
                    extensionBuffer.putBytes(dataEx.limit(), record.buffer(), record.headersOffset(), headersLength);
                    limit = dataEx.limit() + headersLength;
                }
            }
            catch (IndexOutOfBoundsException ex)
            {
                // the key alone does not fit
                limit = -1;
            }
            finally
            {
                current = null;
                currentRecord = null;
            }
            return limit;
        }

        private void doReplyFlush(long traceId)
        {
            if (replyBegun && !replyClosed)
            {
                final long offset = nextOffset;
                final KafkaFlushExFW flushEx = flushExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .fetch(flushFetch)
                    .build();
                final FlushFW flush = flushRW.wrap(frameBuffer, 0, frameBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(replyId)
                    .sequence(replySeq).acknowledge(replyAck).maximum(replyMax)
                    .traceId(traceId)
                    .extension(flushEx.buffer(), flushEx.offset(), flushEx.sizeof())
                    .build();
                app.accept(FlushFW.TYPE_ID, flush.buffer(), flush.offset(), flush.sizeof());
                reportedOffset = offset;
            }
        }

        private void flushPartition(KafkaOffsetFW.Builder partition)
        {
            partition.partitionId(partitionId)
                .partitionOffset(nextOffset)
                .stableOffset(stableOffset)
                .latestOffset(latestOffset);
        }

        private void scheduleRetry(long traceId)
        {
            cancelTimer();
            timerId = signaler.signalAt(System.currentTimeMillis() + backoff, originId, routedId, replyId, traceId,
                SIGNAL_RETRY, 0);
            backoff = Math.min(backoff << 1, RETRY_BACKOFF_MAX);
        }

        private void cancelTimer()
        {
            if (timerId != Signaler.NO_CANCEL_ID)
            {
                signaler.cancel(timerId);
                timerId = Signaler.NO_CANCEL_ID;
            }
        }

        @Override
        void doReplyBegin(long traceId)
        {
            if (!replyBegun)
            {
                final long offset = nextOffset;
                final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .fetch(f -> f.topic(name)
                        .partition(p -> p.partitionId(partitionId)
                            .partitionOffset(offset)
                            .stableOffset(stableOffset)
                            .latestOffset(latestOffset))
                        .isolation(isolation == 1 ? KafkaIsolation.READ_COMMITTED : KafkaIsolation.READ_UNCOMMITTED))
                    .build();
                doReplyBegin(traceId, beginEx);
            }
        }

        @Override
        void onCleanup()
        {
            if (!closed)
            {
                closed = true;
                cancelTimer();
                if (fetching != null)
                {
                    fetching.leave(this);
                    fetching = null;
                }
                records.release();
                if (topic != null)
                {
                    metadata.unsubscribe(topic, this);
                    topic = null;
                }
                streams.remove(initialId);
            }
        }

        /** The earliest or latest offset of the partition (latest: the last stable offset under read_committed). */
        private final class ListOffsetsRequest implements KafkaClientRequest
        {
            @Override
            public short apiKey()
            {
                return KafkaApis.LIST_OFFSETS;
            }

            @Override
            public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
            {
                final ListOffsetsRequestData request = new ListOffsetsRequestData()
                    .setReplicaId(-1)
                    .setIsolationLevel((byte) isolation)
                    .setTopics(List.of(new ListOffsetsRequestData.ListOffsetsTopic()
                        .setName(name)
                        .setPartitions(List.of(new ListOffsetsRequestData.ListOffsetsPartition()
                            .setPartitionIndex(partitionId)
                            .setTimestamp(requestedOffset == LATEST ? LATEST : EARLIEST)))));
                return KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
            }

            @Override
            public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
            {
                inflight = false;
                ListOffsetsResponseData response;
                try
                {
                    response = new ListOffsetsResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
                }
                catch (RuntimeException ex)
                {
                    response = null;
                }
                if (response != null && !closed)
                {
                    short error = KafkaClientMetadata.UNKNOWN_TOPIC_OR_PARTITION;
                    long listed = -1L;
                    for (ListOffsetsResponseData.ListOffsetsTopicResponse answer : response.topics())
                    {
                        for (ListOffsetsResponseData.ListOffsetsPartitionResponse partition : answer.partitions())
                        {
                            if (name.equals(answer.name()) && partition.partitionIndex() == partitionId)
                            {
                                error = partition.errorCode();
                                listed = partition.offset();
                            }
                        }
                    }
                    if (error == KafkaClientTopic.NONE)
                    {
                        onListed(traceId, listed);
                    }
                    else
                    {
                        FetchStream.this.onFailed(traceId, error);
                    }
                }
                return response != null;
            }

            @Override
            public void onFailed(short error, long traceId)
            {
                inflight = false;
                if (!closed)
                {
                    FetchStream.this.onFailed(traceId, error == CORRUPT_MESSAGE ? NETWORK_EXCEPTION : error);
                }
            }
        }
    }

    /**
     * The Fetch of one broker (and isolation level) that the worker's streams share: streams ready to fetch (offset
     * resolved, no records held, led by this broker) wait here while a Fetch is under way and all go in the next one,
     * grouped by topic, in an order that turns so that the broker's byte limit favours none for long. The response
     * is read once, partition by partition, each handed to its stream.
     */
    private final class FetchBroker implements KafkaClientRequest, KafkaFetchCodec.PartitionHandler
    {
        private final int nodeId;
        private final int isolation;
        private final List<FetchStream> waiting = new ArrayList<>();
        private final List<FetchStream> requested = new ArrayList<>();
        private boolean inflight;
        private int rotation;
        private long responseTraceId;
        // where the search for the next partition of the response starts
        private int answerCursor;

        FetchBroker(int nodeId, int isolation)
        {
            this.nodeId = nodeId;
            this.isolation = isolation;
        }

        void join(FetchStream stream, long traceId)
        {
            waiting.add(stream);
            flush(traceId);
        }

        // a stream in the Fetch under way is passed over when its answer comes: it is no longer fetching from here
        void leave(FetchStream stream)
        {
            waiting.remove(stream);
        }

        private void flush(long traceId)
        {
            if (!inflight && !waiting.isEmpty())
            {
                // a partition goes once per Fetch (the broker would answer it once): another stream of it waits
                int kept = 0;
                for (int i = 0; i < waiting.size(); i++)
                {
                    final FetchStream stream = waiting.get(i);
                    if (isRequested(stream))
                    {
                        waiting.set(kept++, stream);
                    }
                    else
                    {
                        requested.add(stream);
                    }
                }
                while (waiting.size() > kept)
                {
                    waiting.remove(waiting.size() - 1);
                }
                if (requested.size() > 1)
                {
                    Collections.rotate(requested, -(rotation++ % requested.size()));
                    passedOverFirst();
                }
                inflight = true;
                final KafkaClientConnection connection = pool.supply(nodeId, KafkaClientConnectionPool.Purpose.FETCH, traceId);
                if (connection != null)
                {
                    fetchRequests.increment();
                    fetchPartitions.getAndAdd(requested.size());
                    connection.send(this, traceId);
                }
                else
                {
                    onFailed(KafkaClientMetadata.LEADER_NOT_AVAILABLE, traceId);
                }
            }
        }

        @Override
        public short apiKey()
        {
            return KafkaApis.FETCH;
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            int topics = 0;
            int size = 32;
            int overhead = RESPONSE_OVERHEAD;
            for (int i = 0; i < requested.size(); i++)
            {
                final FetchStream stream = requested.get(i);
                if (firstOfTopic(i))
                {
                    topics++;
                    size += KafkaFetchCodec.sizeofTopic(stream.nameBytes, 0);
                    overhead += stream.nameBytes.length + 16;
                }
                size += KafkaFetchCodec.PARTITION_SIZE;
                // a partition's fields in the response, and some aborted transactions
                overhead += 64;
            }
            final int maxBytes = bufferPool.slotCapacity() - overhead;
            int limit = ENCODE_FAILED;
            if (version == KafkaFetchCodec.VERSION && size <= maxLimit - offset && maxBytes > 0)
            {
                int progress = KafkaFetchCodec.encodeHead(buffer, offset, MAX_WAIT_MS, maxBytes, isolation, topics);
                for (int i = 0; i < requested.size(); i++)
                {
                    if (firstOfTopic(i))
                    {
                        final FetchStream first = requested.get(i);
                        int partitions = 0;
                        for (int j = i; j < requested.size(); j++)
                        {
                            partitions += sameTopic(first, requested.get(j)) ? 1 : 0;
                        }
                        progress = KafkaFetchCodec.encodeTopic(buffer, progress, first.nameBytes, partitions);
                        for (int j = i; j < requested.size(); j++)
                        {
                            final FetchStream stream = requested.get(j);
                            if (sameTopic(first, stream))
                            {
                                progress = KafkaFetchCodec.encodePartition(buffer, progress, stream.partitionId,
                                    stream.nextOffset, maxBytes);
                            }
                        }
                        progress = KafkaFetchCodec.encodeTopicEnd(buffer, progress);
                    }
                }
                limit = KafkaFetchCodec.encodeTail(buffer, progress);
            }
            return limit;
        }

        // the broker returns whole only the first batch of the first partition with records: a stream answered with
        // none though its partition has some goes first, the others keep their turn
        private void passedOverFirst()
        {
            for (int i = 0; i < requested.size(); i++)
            {
                final FetchStream stream = requested.get(i);
                if (stream.passedOver)
                {
                    if (i > 0)
                    {
                        requested.remove(i);
                        requested.add(0, stream);
                    }
                    break;
                }
            }
        }

        private boolean isRequested(FetchStream stream)
        {
            boolean requesting = false;
            for (int i = 0; i < requested.size() && !requesting; i++)
            {
                final FetchStream other = requested.get(i);
                requesting = other.partitionId == stream.partitionId && sameTopic(other, stream);
            }
            return requesting;
        }

        private boolean firstOfTopic(int index)
        {
            final FetchStream stream = requested.get(index);
            boolean first = true;
            for (int i = 0; i < index && first; i++)
            {
                first = !sameTopic(stream, requested.get(i));
            }
            return first;
        }

        // the streams of a topic share its KafkaClientTopic while any of them follows it, as every stream of a Fetch
        // does: a reference compare. The names' equals, n squared of them, took 2.6% of a worker's time in a Fetch of
        // 100 topics whose names differ only at their end (the SSE fan-out benchmark's profile)
        private static boolean sameTopic(FetchStream stream, FetchStream other)
        {
            return stream.topic != null && other.topic != null ? stream.topic == other.topic : stream.name.equals(other.name);
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            responseTraceId = traceId;
            answerCursor = 0;
            final boolean readable = codec.decode(buffer, offset, limit, this);
            if (readable)
            {
                // a partition the broker left out: the request's own error, or as good as unknown
                final short error = codec.topLevelError() != KafkaClientTopic.NONE
                    ? codec.topLevelError()
                    : KafkaClientMetadata.UNKNOWN_TOPIC_OR_PARTITION;
                fail(error, traceId);
                done(traceId);
            }
            return readable;
        }

        @Override
        public void onPartition(DirectBuffer buffer, int topicOffset, int topicLength, int partitionId)
        {
            // the broker answers in the request's order: the search starts after the last partition answered, so that a
            // response of n partitions costs n name compares, not n squared
            final int count = requested.size();
            for (int n = 0, i = answerCursor; n < count; n++, i = i + 1 < count ? i + 1 : 0)
            {
                final FetchStream stream = requested.get(i);
                if (stream != null && stream.fetching == this && stream.partitionId == partitionId
                    && sameName(buffer, topicOffset, topicLength, stream.nameBytes))
                {
                    // answered: a stream that takes its records at once joins the next Fetch from onFetched, and
                    // must not then count as left out of this one
                    requested.set(i, null);
                    answerCursor = i + 1 < count ? i + 1 : 0;
                    stream.fetching = null;
                    stream.onFetched(responseTraceId);
                    break;
                }
            }
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            fail(error == CORRUPT_MESSAGE ? NETWORK_EXCEPTION : error, traceId);
            done(traceId);
        }

        private void fail(short error, long traceId)
        {
            for (int i = 0; i < requested.size(); i++)
            {
                final FetchStream stream = requested.get(i);
                if (stream != null && stream.fetching == this)
                {
                    stream.fetching = null;
                    stream.onFailed(traceId, error);
                }
            }
        }

        // the streams that joined meanwhile, those answered with nothing among them, go in the next Fetch
        private void done(long traceId)
        {
            requested.clear();
            inflight = false;
            flush(traceId);
        }
    }

    private static boolean sameName(DirectBuffer buffer, int offset, int length, byte[] name)
    {
        boolean same = length == name.length;
        for (int i = 0; i < length && same; i++)
        {
            same = buffer.getByte(offset + i) == name[i];
        }
        return same;
    }
}
