/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.Array32FW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.RecordBatches;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFetchDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFilterFW;
import io.zilla.specs.kafka.types.stream.KafkaFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import io.zilla.specs.kafka.types.stream.KafkaIsolation;
import io.zilla.specs.kafka.types.stream.KafkaMergedBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import io.zilla.specs.kafka.types.stream.KafkaMergedDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedFetchDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedProduceDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFW;
import io.zilla.specs.kafka.types.stream.KafkaPartitionFW;
import io.zilla.specs.kafka.types.stream.KafkaProduceDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaResetExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * MERGED streams: one application stream per topic over all its partitions, to fetch and to produce. Built by
 * composition: the merged stream opens streams to this very binding (originId = routedId = the binding's id, through
 * the worker's ring like any stream) and speaks the other capabilities' contracts to them: a META stream to learn the
 * partitions (and hear of new ones), a FETCH stream per partition with the merged stream's filters and isolation, and a
 * PRODUCE stream per partition on first use. The protocol work stays in those capabilities' factories.
 * <p>
 * Fetch: each record of a partition becomes one reply Data with {@code KafkaMergedDataEx fetch} (the partition, the
 * record's offset, and every partition's progress after it); a partition's Flush becomes a merged Flush. The
 * application's reply window is shared out to the partitions' fetch streams ({@link #doFetchCredit}); a fragmented
 * record keeps the reply to itself until its last fragment, and the frames other partitions send meanwhile wait in a
 * {@link KafkaMergedFrameQueue}. Produce: each application record goes to the produce stream of the partition it names,
 * or of its key's murmur2 partition ({@link KafkaMurmur2}), or round robin for a null key; its credit comes back to the
 * application only once that stream acknowledged it, in the application's order.
 */
final class KafkaClientMergedFactory
{
    static final short UNKNOWN_SERVER_ERROR = -1;
    static final short UNKNOWN_TOPIC_OR_PARTITION = 3;
    static final short INVALID_RECORD = 87;

    /** The most batches a merged stream's produce window holds (those its partitions may have in flight): about 1 MiB. */
    static final int PRODUCE_WINDOW_BATCHES = 32;

    /** The padding of each produced record, as a produce stream asks: its key, headers and framing. */
    static final int RECORD_FRAMING = KafkaClientProduceFactory.RECORD_FRAMING;

    private static final long EARLIEST = -2L;
    private static final long LATEST = -1L;
    private static final int FLAG_FIN = 0x01;
    private static final int FLAG_INIT = 0x02;
    private static final int NO_PARTITION = -1;
    /** Where {@code deferred} lies in a KafkaDataEx merged fetch: type id (int32), kind (uint8), merged kind (uint8). */
    private static final int MERGED_DEFERRED_OFFSET = Integer.BYTES + Byte.BYTES + Byte.BYTES;
    /** The room of a Data frame's fixed fields and the ring's record header, kept free of payload and extension. */
    private static final int FRAME_OVERHEAD = 256;
    /**
     * What a merged fetch extension adds at most to a fetch one, beside the progress: the merged kind, the array's
     * length and count, and some room.
     */
    private static final int MERGED_GROWTH = 64;
    /**
     * A partition's progress in a merged fetch extension: id (int32), offset, stable and latest offsets (int64), its
     * metadata (a string16, null: its length only).
     */
    private static final int PROGRESS_SIZE = Integer.BYTES + 3 * Long.BYTES + Short.BYTES;
    /** The credit a META stream's reply gets: its Data carry no payload. */
    private static final int META_CREDIT = 4096;

    // what the internal streams read their frames with: the app stream reads with io's
    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final EndFW endRO = new EndFW();
    private final AbortFW abortRO = new AbortFW();
    private final ResetFW resetRO = new ResetFW();
    private final WindowFW windowRO = new WindowFW();
    private final FlushFW flushRO = new FlushFW();
    private final KafkaBeginExFW kafkaBeginExRO = new KafkaBeginExFW();
    private final KafkaDataExFW kafkaDataExRO = new KafkaDataExFW();
    private final KafkaFlushExFW kafkaFlushExRO = new KafkaFlushExFW();
    private final KafkaResetExFW kafkaResetExRO = new KafkaResetExFW();
    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final FlushFW.Builder flushRW = new FlushFW.Builder();
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
    private final KafkaDataExFW.Builder dataExRW = new KafkaDataExFW.Builder();
    private final KafkaFlushExFW.Builder flushExRW = new KafkaFlushExFW.Builder();
    private final KafkaClientAppFrames io;

    // the extensions built per record and per Flush, by builders fed from these fields: no lambda is made per frame
    private final Consumer<KafkaMergedDataExFW.Builder> mergedFetch = m -> m.fetch(this::mergedFetchDataEx);
    private final Consumer<KafkaMergedFlushExFW.Builder> mergedFlush = this::mergedFlushEx;
    private final Consumer<KafkaOffsetFW.Builder> progressItem = this::progressItem;
    private final Consumer<KafkaProduceDataExFW.Builder> produceData = this::produceDataEx;
    private MergedStream current;
    private KafkaFetchDataExFW currentFetch;
    private KafkaMergedProduceDataExFW currentProduce;
    private int currentPartition;
    private int currentDeferred;

    private final EngineContext context;
    private final StreamFrames frames;
    private final long bindingId;
    private final MutableDirectBuffer beginBuffer;
    private final MutableDirectBuffer extensionBuffer;
    private final MutableDirectBuffer flushBuffer;
    private final int maxFrame;
    private final int encodeCapacity;
    private final int produceMaxInFlight;
    private final Long2ObjectHashMap<MergedStream> streams = new Long2ObjectHashMap<>();

    KafkaClientMergedFactory(EngineContext context, StreamFrames frames, KafkaClientConnectionPool pool, long bindingId,
        int produceMaxInFlight)
    {
        this.context = context;
        this.produceMaxInFlight = Math.max(1, produceMaxInFlight);
        this.encodeCapacity = pool != null ? pool.encodeBuffer().capacity() : 0;
        this.frames = frames;
        this.io = new KafkaClientAppFrames(frames);
        this.bindingId = bindingId;
        final int capacity = context.writeBuffer().capacity();
        this.beginBuffer = new UnsafeBuffer(new byte[capacity]);
        this.extensionBuffer = new UnsafeBuffer(new byte[capacity]);
        this.flushBuffer = new UnsafeBuffer(new byte[capacity]);
        // a Data frame, payload and extension, must fit the write buffer when the ring cannot take it in place
        this.maxFrame = capacity - FRAME_OVERHEAD;
    }

    MessageConsumer newStream(BeginFW begin, KafkaMergedBeginExFW beginEx, MessageConsumer sender)
    {
        MessageConsumer receiver = null;
        final String topic = beginEx.topic().asString();
        if (topic != null && !topic.isEmpty())
        {
            final OctetsFW extension = begin.extension();
            final MergedStream stream = new MergedStream(sender, begin.originId(), begin.routedId(), begin.streamId(), topic,
                beginEx, extension);
            streams.put(stream.initialId, stream);
            receiver = stream::onAppMessage;
        }
        return receiver;
    }

    void close(long traceId)
    {
        KafkaClientAppStream.abortAll(streams, traceId);
    }

    private void mergedFetchDataEx(KafkaMergedFetchDataExFW.Builder builder)
    {
        final KafkaFetchDataExFW fetch = currentFetch;
        builder.deferred(fetch.deferred())
            .timestamp(fetch.timestamp())
            .producerId(fetch.producerId())
            .partition(fetch.partition());
        for (int i = 0; i < current.partitionCount; i++)
        {
            currentPartition = i;
            builder.progressItem(progressItem);
        }
        builder.key(fetch.key());
    }

    private void mergedFlushEx(KafkaMergedFlushExFW.Builder builder)
    {
        for (int i = 0; i < current.partitionCount; i++)
        {
            currentPartition = i;
            builder.progressItem(progressItem);
        }
    }

    private void progressItem(KafkaOffsetFW.Builder builder)
    {
        final int partition = currentPartition;
        builder.partitionId(partition)
            .partitionOffset(current.progress[partition])
            .stableOffset(current.stableOffsets[partition])
            .latestOffset(current.latestOffsets[partition]);
    }

    private void produceDataEx(KafkaProduceDataExFW.Builder builder)
    {
        final KafkaMergedProduceDataExFW produce = currentProduce;
        builder.deferred(produce.deferred())
            .timestamp(produce.timestamp())
            .sequence(-1)
            .key(produce.key());
    }

    /** Copies an array of headers in place of the empty one that ends an extension just built: the same item bytes. */
    private int spliceHeaders(int limit, Array32FW<KafkaHeaderFW> headers)
    {
        final int countOffset = limit - Integer.BYTES;
        final int newLimit = countOffset + headers.sizeof();
        if (newLimit > extensionBuffer.capacity())
        {
            return -1;
        }
        extensionBuffer.putBytes(countOffset, headers.buffer(), headers.offset(), headers.sizeof());
        return newLimit;
    }

    private static short resetError(KafkaResetExFW resetEx)
    {
        return resetEx != null && resetEx.typeId() == KafkaBinding.TYPE_ID ? resetEx.error() : UNKNOWN_SERVER_ERROR;
    }

    private final class MergedStream extends KafkaClientAppStream
    {
        private final String topic;
        private final int topicLength;
        private final boolean fetching;
        private final boolean producing;
        private final KafkaAckMode ackMode;
        private final MutableDirectBuffer beginEx;
        private final Long2LongHashMap startOffsets = new Long2LongHashMap(Long.MIN_VALUE);
        private final long defaultOffset;
        private final KafkaMergedFrameQueue held = new KafkaMergedFrameQueue();
        private final KafkaMergedFrameQueue pending = new KafkaMergedFrameQueue();
        private final KafkaMergedFrameQueue.Handler heldHandler = this::onHeldFrame;
        private final KafkaMergedFrameQueue.Handler pendingHandler = this::onPendingFrame;

        private MetaStream meta;
        private int partitionCount;
        private FetchPartition[] fetches = new FetchPartition[0];
        private ProducePartition[] produces = new ProducePartition[0];
        private long[] progress = new long[0];
        private long[] stableOffsets = new long[0];
        private long[] latestOffsets = new long[0];

        // fetch: the partition whose fragmented record has the reply, and where the credit share starts next time
        private int fragmenting = NO_PARTITION;
        private int fragmentRemaining;
        private int rotation;

        // produce: the partition of the record the application is sending, and the next for a null key
        private int recordPartition = NO_PARTITION;
        private int roundRobin;
        private boolean produceEnded;
        // produce: the batches the partitions' produce streams may have in flight (at most PRODUCE_WINDOW_BATCHES), so
        // that each fills its requests; it grows by the fragments of a record forwarded before its last, which a produce
        // stream holds apart (a record larger than a batch), so that a record of any size can be sent
        private int produceWindow;
        // produce: the most payload a frame may carry, one batch (less the first allowance), which a partition's window
        // always comes back to: a larger frame could wait for good, so it is refused
        private int produceFrameMax;

        // produce: the application's frames forwarded and not yet acknowledged, in the application's order
        private int[] ackPartitions = new int[64];
        private long[] ackProduceSeqs = new long[64];
        private long[] ackMergedSeqs = new long[64];
        private int ackHead;
        private int ackCount;

        private boolean initialEnded;
        private boolean closed;

        MergedStream(MessageConsumer app, long originId, long routedId, long initialId, String topic,
            KafkaMergedBeginExFW beginEx, OctetsFW extension)
        {
            super(io, app, originId, routedId, initialId);
            this.topic = topic;
            this.topicLength = topic.getBytes(StandardCharsets.UTF_8).length;
            final KafkaMergedCapabilities capabilities = beginEx.capabilities();
            this.fetching = capabilities != KafkaMergedCapabilities.PRODUCE_ONLY;
            this.producing = capabilities != KafkaMergedCapabilities.FETCH_ONLY;
            this.ackMode = beginEx.ackMode() != null ? beginEx.ackMode() : KafkaAckMode.IN_SYNC_REPLICAS;
            // kept for the reply Begin (the same extension) and for the filters each fetch stream is given
            this.beginEx = new UnsafeBuffer(new byte[extension.sizeof()]);
            this.beginEx.putBytes(0, extension.buffer(), extension.offset(), extension.sizeof());
            // the entry of partition -1 is the default of the partitions not listed; none: latest
            final long[] found = {LATEST};
            beginEx.partitions().forEach(p ->
            {
                if (p.partitionId() == -1)
                {
                    found[0] = p.partitionOffset();
                }
                else if (p.partitionId() >= 0)
                {
                    startOffsets.put(p.partitionId(), p.partitionOffset());
                }
            });
            this.defaultOffset = found[0];
        }

        // a Flush from the application carries nothing a merged stream needs: the default ignores it
        @Override
        void onAppBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            // no credit before the partitions are known: a record's partition may depend on their count
            doInitialWindow(traceId);
            meta = new MetaStream(this);
            if (!meta.open(traceId))
            {
                doAbortAll(traceId, UNKNOWN_SERVER_ERROR);
            }
        }

        @Override
        void onAppEnd(EndFW end)
        {
            final long traceId = end.traceId();
            initialEnded = true;
            held.clear();
            fragmenting = NO_PARTITION;
            for (FetchPartition fetch : fetches)
            {
                if (fetch != null)
                {
                    fetch.doEnd(traceId);
                }
            }
            if (meta != null)
            {
                meta.doEnd(traceId);
            }
            endProduceIfFlushed(traceId);
            endIfDone(traceId);
        }

        // an Abort or a Reset (the End above drains instead) aborts the internal streams: the default then aborts or resets
        @Override
        void onAppClosing(long traceId)
        {
            doAbortInternals(traceId);
        }

        @Override
        void onAppWindow(WindowFW window)
        {
            super.onAppWindow(window);
            if (!closed && !initialEnded)
            {
                doHeldFrames();
            }
            doFetchCredit(window.traceId());
        }

        /** An internal stream failed: so does the merged stream, with the error its application must know. */
        void onInternalFailed(long traceId, short error)
        {
            if (!closed)
            {
                doAbortAll(traceId, error);
            }
        }

        void onPartitions(int count, long traceId)
        {
            if (closed || count <= partitionCount)
            {
                // Kafka never takes partitions away: only more of them is news
                return;
            }
            final boolean first = partitionCount == 0;
            final int previous = partitionCount;
            fetches = Arrays.copyOf(fetches, count);
            produces = Arrays.copyOf(produces, count);
            progress = Arrays.copyOf(progress, count);
            stableOffsets = Arrays.copyOf(stableOffsets, count);
            latestOffsets = Arrays.copyOf(latestOffsets, count);
            for (int p = previous; p < count; p++)
            {
                // a partition added while the stream lives is read from its start: nothing written to it is missed
                final long start = startOffsets.get(p);
                progress[p] = !first ? EARLIEST : start != Long.MIN_VALUE ? start : defaultOffset;
                stableOffsets[p] = -1L;
                latestOffsets[p] = -1L;
            }
            partitionCount = count;
            if (first)
            {
                doReplyBegin(traceId);
                if (producing && !initialEnded)
                {
                    // the window of a produce stream of this topic, as KafkaClientProduceFactory offers it (a batch), so
                    // that a record the application may send, in fragments or not, always fits a partition's window
                    final int batch = Math.min(context.bufferPool().slotCapacity() >> 1,
                        encodeCapacity - 2 * KafkaProduceRequests.ENVELOPE_MAX - topicLength);
                    // less what a produce stream's first padding takes beyond this one's (its allowance for keys and
                    // headers), so that a frame of the whole window fits a partition's window too: without it, a first
                    // fragment that took the whole window waited for good (a large record from http-kafka)
                    produceFrameMax = Math.max(batch - RecordBatches.RECORDS_OFFSET
                        - KafkaClientProduceFactory.KEY_AND_HEADERS_ALLOWANCE, 0);
                    // one batch for all partitions held the records in flight to about 31 KiB, whatever the partitions
                    // (REST over 16 partitions at 4% of kafka-clients' rate): the batches every partition's produce
                    // stream may have in flight let each fill its requests, as kafka-clients' buffer.memory does
                    initialMax = produceFrameMax
                        * (int) Math.min((long) count * produceMaxInFlight, PRODUCE_WINDOW_BATCHES);
                    produceWindow = initialMax;
                    doInitialWindow(traceId);
                }
            }
            if (fetching && !initialEnded && !first)
            {
                reclaimShares(count, traceId);
            }
            if (fetching && !initialEnded)
            {
                for (int p = previous; p < count; p++)
                {
                    final FetchPartition fetch = new FetchPartition(this, p, progress[p]);
                    fetches[p] = fetch;
                    if (!fetch.open(traceId))
                    {
                        doAbortAll(traceId, UNKNOWN_SERVER_ERROR);
                        return;
                    }
                }
            }
        }

        // ---- fetch ----

        /**
         * Credit given is never taken back, so the partitions that hold more than their share of the window now that
         * there are more partitions (an idle partition keeps what it was given) get a new fetch stream from their
         * progress: what the old one sends from now on is dropped, and the new one starts exactly after what the
         * application got. A partition with a fragmented record under way or frames waiting keeps its stream.
         */
        private void reclaimShares(int count, long traceId)
        {
            final int share = Math.max(replyMax / count, replyPad + 1);
            for (int p = 0; p < partitionCount && p < fetches.length; p++)
            {
                final FetchPartition fetch = fetches[p];
                if (fetch != null && fetch.ready() && fetch.outstanding() > share && fragmenting != p && !held.holds(p))
                {
                    fetch.retired = true;
                    fetch.doEnd(traceId);
                    final FetchPartition renewed = new FetchPartition(this, p, progress[p]);
                    fetches[p] = renewed;
                    if (!renewed.open(traceId))
                    {
                        doAbortAll(traceId, UNKNOWN_SERVER_ERROR);
                        return;
                    }
                }
            }
        }

        void onFetchBegin(FetchPartition fetch, long offset, long traceId)
        {
            if (offset >= 0 && !fetch.retired)
            {
                progress[fetch.partitionId] = offset;
            }
            doFetchCredit(traceId);
        }

        void onFetchFrame(FetchPartition fetch, int msgTypeId, DirectBuffer buffer, int index, int length, int payload,
            long traceId)
        {
            if (closed || initialEnded || replyClosed || fetch.retired)
            {
                return;
            }
            final int partition = fetch.partitionId;
            final int reserved = msgTypeId == DataFW.TYPE_ID ? Math.max(payload, 0) + replyPad : 0;
            if (!held.holds(partition) && (fragmenting == NO_PARTITION || fragmenting == partition)
                && fits(reserved + splitPadding(msgTypeId, length)))
            {
                doFetchForward(msgTypeId, buffer, index, length, partition, reserved, traceId);
            }
            else
            {
                held.add(msgTypeId, buffer, index, length, partition, reserved);
            }
            doHeldFrames();
            doFetchCredit(traceId);
        }

        // the frames held go on as the fragmented record that kept them ends, and as the application gives credit
        private void doHeldFrames()
        {
            while (!held.isEmpty() && held.drain(heldHandler, false) > 0)
            {
                // until none can go
            }
        }

        /**
         * Whether the application's window takes a frame now. The credit shared out to the fetch streams never
         * exceeds it, so this holds but for the padding changing meanwhile and for the padding of a frame split in two
         * (see {@link #splitPadding}, which the callers add); checked all the same, so that no frame ever goes beyond
         * the window: one that would waits with the frames held.
         */
        private boolean fits(int reserved)
        {
            return replySeq + reserved <= replyAck + replyMax;
        }

        /**
         * The padding a fetched frame may cost beyond what its fetch stream reserved: a frame whose merged extension
         * would outgrow the write buffer goes in two, and the second pays the application's padding too.
         */
        private int splitPadding(int msgTypeId, int length)
        {
            return msgTypeId == DataFW.TYPE_ID && length + MERGED_GROWTH + PROGRESS_SIZE * partitionCount > maxFrame
                ? replyPad
                : 0;
        }

        /**
         * What more a fetch stream may be given: so that what it holds (a frame's payload and padding) leaves room in
         * the window for the padding of a split frame, else such a frame would never fit the window.
         */
        private long room(FetchPartition fetch)
        {
            return (long) replyMax - replyPad - fetch.outstanding();
        }

        private boolean onHeldFrame(int msgTypeId, DirectBuffer buffer, int index, int length, int partition, int reserved)
        {
            final boolean free = (fragmenting == NO_PARTITION || fragmenting == partition)
                && fits(reserved + splitPadding(msgTypeId, length));
            if (free)
            {
                doFetchForward(msgTypeId, buffer, index, length, partition, reserved, context.supplyTraceId());
            }
            return free;
        }

        /**
         * Shares out the application's credit not yet given: all of it to the partition whose fragmented record has
         * the reply (so that it ends), or else to each fetch stream up to an equal share of the window, starting
         * from a partition that turns each time, so that none starves.
         */
        private void doFetchCredit(long traceId)
        {
            if (!replyBegun || replyClosed || initialEnded || closed)
            {
                return;
            }
            long available = replyAck + replyMax - replySeq - held.reserved();
            int streams = 0;
            for (FetchPartition fetch : fetches)
            {
                if (fetch != null)
                {
                    available -= fetch.outstanding();
                    streams++;
                }
            }
            if (available <= 0 || streams == 0)
            {
                return;
            }
            if (fragmenting != NO_PARTITION)
            {
                // what the rest of the record needs, no more: credit given is not taken back
                final FetchPartition fetch = fetches[fragmenting];
                final long wanted = fetch != null
                    ? Math.min(fragmentRemaining + replyPad - fetch.outstanding(), room(fetch))
                    : 0L;
                if (fetch != null && fetch.ready() && wanted > 0)
                {
                    fetch.doCredit(traceId, (int) Math.min(wanted, available), replyPad);
                }
                return;
            }
            // a share of the window for each partition, whether it is ready yet or not, so that none takes it all
            final int share = Math.max(replyMax / streams, replyPad + 1);
            final int count = fetches.length;
            for (int k = 0; k < count && available > 0; k++)
            {
                final FetchPartition fetch = fetches[(rotation + k) % count];
                if (fetch != null && fetch.ready())
                {
                    final long wanted = Math.min(share - fetch.outstanding(), room(fetch));
                    if (wanted > 0)
                    {
                        final int credit = (int) Math.min(wanted, available);
                        fetch.doCredit(traceId, credit, replyPad);
                        available -= credit;
                    }
                }
            }
            rotation = count > 0 ? (rotation + 1) % count : 0;
        }

        private void doFetchForward(int msgTypeId, DirectBuffer buffer, int index, int length, int partition, int reserved,
            long traceId)
        {
            if (msgTypeId == DataFW.TYPE_ID)
            {
                doFetchData(dataRO.wrap(buffer, index, index + length), partition, reserved, traceId);
            }
            else if (msgTypeId == FlushFW.TYPE_ID)
            {
                final FlushFW flush = flushRO.wrap(buffer, index, index + length);
                final OctetsFW extension = flush.extension();
                final KafkaFlushExFW flushEx = extension.sizeof() > 0
                    ? kafkaFlushExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                    : null;
                if (flushEx != null && flushEx.kind() == KafkaCapability.FETCH)
                {
                    onPartitionOffset(partition, flushEx.fetch().partition(), 0L);
                    doReplyFlush(traceId);
                }
            }
        }

        private void onPartitionOffset(int partition, KafkaOffsetFW offset, long past)
        {
            progress[partition] = offset.partitionOffset() + past;
            stableOffsets[partition] = offset.stableOffset();
            latestOffsets[partition] = offset.latestOffset();
        }

        private void doFetchData(DataFW data, int partition, int reserved, long traceId)
        {
            final int flags = data.flags();
            final OctetsFW payload = data.payload();
            int extensionLength = 0;
            if ((flags & FLAG_INIT) != 0)
            {
                final OctetsFW extension = data.extension();
                final KafkaDataExFW dataEx = extension.sizeof() > 0
                    ? kafkaDataExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                    : null;
                if (dataEx == null || dataEx.kind() != KafkaCapability.FETCH)
                {
                    doAbortAll(traceId, UNKNOWN_SERVER_ERROR);
                    return;
                }
                final KafkaFetchDataExFW fetch = dataEx.fetch();
                currentDeferred = fetch.deferred();
                onPartitionOffset(partition, fetch.partition(), 1L);
                extensionLength = writeFetchDataEx(fetch);
                if (extensionLength < 0)
                {
                    doAbortAll(traceId, KafkaClientFetchFactory.MESSAGE_TOO_LARGE);
                    return;
                }
            }
            final int length = payload != null ? payload.sizeof() : 0;
            // the merged extension is larger than the fetch one: a frame that would outgrow the write buffer is split
            final int first = Math.min(length, Math.max(maxFrame - extensionLength, 0));
            if (first < length && extensionLength > 0)
            {
                final int deferred = extensionBuffer.getInt(MERGED_DEFERRED_OFFSET, ByteOrder.nativeOrder());
                extensionBuffer.putInt(MERGED_DEFERRED_OFFSET, deferred + length - first, ByteOrder.nativeOrder());
                doReplyData(traceId, flags & ~FLAG_FIN, first + replyPad, payload.buffer(), payload.offset(), first,
                    extensionLength);
                doReplyData(traceId, flags & ~FLAG_INIT, reserved - first, payload.buffer(), payload.offset() + first,
                    length - first, 0);
            }
            else
            {
                doReplyData(traceId, flags, reserved, payload != null ? payload.buffer() : null,
                    payload != null ? payload.offset() : 0, length, extensionLength);
            }
            if ((flags & FLAG_FIN) != 0)
            {
                fragmenting = NO_PARTITION;
                fragmentRemaining = 0;
            }
            else if ((flags & FLAG_INIT) != 0)
            {
                fragmenting = partition;
                fragmentRemaining = currentDeferred;
            }
            else
            {
                fragmentRemaining -= length;
            }
        }

        private int writeFetchDataEx(KafkaFetchDataExFW fetch)
        {
            int limit;
            try
            {
                current = this;
                currentFetch = fetch;
                final KafkaDataExFW dataEx = dataExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .merged(mergedFetch)
                    .build();
                limit = spliceHeaders(dataEx.limit(), fetch.headers());
            }
            catch (IndexOutOfBoundsException ex)
            {
                limit = -1;
            }
            finally
            {
                current = null;
                currentFetch = null;
            }
            return limit;
        }

        private void doReplyData(long traceId, int flags, int reserved, DirectBuffer payload, int offset, int length,
            int extensionLength)
        {
            frames.data(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, flags, 0L, reserved,
                payload, offset, length, extensionLength > 0 ? extensionBuffer : null, 0, extensionLength);
            replySeq += reserved;
        }

        private void doReplyFlush(long traceId)
        {
            if (replyBegun && !replyClosed)
            {
                current = this;
                final KafkaFlushExFW flushEx = flushExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .merged(mergedFlush)
                    .build();
                current = null;
                final FlushFW flush = flushRW.wrap(flushBuffer, 0, flushBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(replyId)
                    .sequence(replySeq).acknowledge(replyAck).maximum(replyMax)
                    .traceId(traceId)
                    .extension(flushEx.buffer(), flushEx.offset(), flushEx.sizeof())
                    .build();
                app.accept(FlushFW.TYPE_ID, flush.buffer(), flush.offset(), flush.sizeof());
            }
        }

        // ---- produce ----

        @Override
        void onAppData(DataFW data)
        {
            // the frame as it came, to forward or to queue
            final DirectBuffer buffer = data.buffer();
            final int index = data.offset();
            final int length = data.sizeof();
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            if (!producing || initialEnded || data.sequence() != initialSeq || initialSeq + reserved > initialAck + initialMax)
            {
                doAbortAll(traceId, INVALID_RECORD);
                return;
            }
            initialSeq += reserved;
            final OctetsFW payload = data.payload();
            if (payload != null && payload.sizeof() > produceFrameMax)
            {
                doAbortAll(traceId, KafkaClientProduceFactory.MESSAGE_TOO_LARGE);
                return;
            }
            final int flags = data.flags();
            if ((flags & FLAG_INIT) != 0)
            {
                final KafkaMergedProduceDataExFW produce = mergedProduceDataEx(data.extension());
                recordPartition = produce != null ? partition(produce) : NO_PARTITION;
            }
            final int partition = recordPartition;
            if (partition == NO_PARTITION)
            {
                doAbortAll(traceId, INVALID_RECORD);
            }
            else if (partition >= partitionCount)
            {
                doAbortAll(traceId, UNKNOWN_TOPIC_OR_PARTITION);
            }
            else if (!pending.isEmpty() || !doProduceForward(buffer, index, length, partition, traceId))
            {
                pending.add(DataFW.TYPE_ID, buffer, index, length, partition, reserved);
            }
        }

        private KafkaMergedProduceDataExFW mergedProduceDataEx(OctetsFW extension)
        {
            final KafkaDataExFW dataEx = extension.sizeof() > 0
                ? kafkaDataExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                : null;
            return dataEx != null && dataEx.typeId() == KafkaBinding.TYPE_ID && dataEx.kind() == KafkaCapability.MERGED
                && dataEx.merged().kind() == KafkaMergedDataExFW.KIND_PRODUCE
                ? dataEx.merged().produce()
                : null;
        }

        /** The partition a record names, or its key's (Kafka's default partitioner), or the next one for a null key. */
        private int partition(KafkaMergedProduceDataExFW produce)
        {
            int partition = produce.partitionId();
            if (partition < 0)
            {
                final OctetsFW key = produce.key().value();
                if (key != null)
                {
                    partition = KafkaMurmur2.partition(key.buffer(), key.offset(), key.sizeof(), partitionCount);
                }
                else
                {
                    partition = roundRobin;
                    roundRobin = (roundRobin + 1) % partitionCount;
                }
            }
            return partition;
        }

        private boolean onPendingFrame(int msgTypeId, DirectBuffer buffer, int index, int length, int partition, int reserved)
        {
            return !closed && doProduceForward(buffer, index, length, partition, context.supplyTraceId());
        }

        /** Forwards an application Data to its partition's produce stream if that has credit for it; opens it if new. */
        private boolean doProduceForward(DirectBuffer buffer, int index, int length, int partition, long traceId)
        {
            ProducePartition produce = produces[partition];
            if (produce == null)
            {
                produce = new ProducePartition(this, partition);
                produces[partition] = produce;
                if (!produce.open(traceId))
                {
                    doAbortAll(traceId, UNKNOWN_SERVER_ERROR);
                }
                return false;
            }
            final DataFW data = dataRO.wrap(buffer, index, index + length);
            final OctetsFW payload = data.payload();
            final int payloadLength = payload != null ? payload.sizeof() : 0;
            boolean forwarded = false;
            if (produce.accepts(payloadLength))
            {
                final int flags = data.flags();
                int extensionLength = 0;
                if ((flags & FLAG_INIT) != 0)
                {
                    extensionLength = writeProduceDataEx(mergedProduceDataEx(data.extension()));
                }
                if (extensionLength < 0)
                {
                    doAbortAll(traceId, KafkaClientProduceFactory.MESSAGE_TOO_LARGE);
                }
                else
                {
                    produce.doData(traceId, flags, payload, extensionLength);
                    pushAck(partition, produce.initialSeq, data.sequence() + data.reserved());
                    forwarded = true;
                    if ((flags & FLAG_FIN) == 0)
                    {
                        initialMax += data.reserved();
                        doInitialWindow(traceId);
                    }
                }
            }
            return forwarded;
        }

        private int writeProduceDataEx(KafkaMergedProduceDataExFW produce)
        {
            int limit;
            try
            {
                currentProduce = produce;
                final KafkaDataExFW dataEx = dataExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .produce(produceData)
                    .build();
                limit = spliceHeaders(dataEx.limit(), produce.headers());
            }
            catch (IndexOutOfBoundsException ex)
            {
                limit = -1;
            }
            finally
            {
                currentProduce = null;
            }
            return limit;
        }

        private void pushAck(int partition, long produceSeq, long mergedSeq)
        {
            if (ackCount == ackPartitions.length)
            {
                // grows with the records in flight, bounded by the credit given: rare, never per record in steady state
                final int capacity = ackPartitions.length << 1;
                final int[] partitions = new int[capacity];
                final long[] produceSeqs = new long[capacity];
                final long[] mergedSeqs = new long[capacity];
                for (int i = 0; i < ackCount; i++)
                {
                    final int from = (ackHead + i) % ackPartitions.length;
                    partitions[i] = ackPartitions[from];
                    produceSeqs[i] = ackProduceSeqs[from];
                    mergedSeqs[i] = ackMergedSeqs[from];
                }
                ackPartitions = partitions;
                ackProduceSeqs = produceSeqs;
                ackMergedSeqs = mergedSeqs;
                ackHead = 0;
            }
            final int tail = (ackHead + ackCount) % ackPartitions.length;
            ackPartitions[tail] = partition;
            ackProduceSeqs[tail] = produceSeq;
            ackMergedSeqs[tail] = mergedSeq;
            ackCount++;
        }

        /** A produce stream gave credit, or acknowledged records: acknowledge the application's in its order. */
        void onProduceWindow(long traceId)
        {
            long acknowledged = initialAck;
            while (ackCount > 0)
            {
                final ProducePartition produce = produces[ackPartitions[ackHead]];
                if (produce.initialAck < ackProduceSeqs[ackHead])
                {
                    break;
                }
                acknowledged = ackMergedSeqs[ackHead];
                ackHead = (ackHead + 1) % ackPartitions.length;
                ackCount--;
            }
            if (acknowledged > initialAck)
            {
                // the edge stays where it was at least; the window is back to a batch once the records are acknowledged
                final long edge = initialAck + initialMax;
                initialAck = acknowledged;
                initialMax = (int) Math.max(produceWindow, edge - initialAck);
                doInitialWindow(traceId);
            }
            while (!pending.isEmpty() && pending.drain(pendingHandler, true) > 0)
            {
                // as far as the partitions' credit goes, in order
            }
            endProduceIfFlushed(traceId);
        }

        private void endProduceIfFlushed(long traceId)
        {
            if (initialEnded && !produceEnded && pending.isEmpty())
            {
                produceEnded = true;
                for (ProducePartition produce : produces)
                {
                    if (produce != null)
                    {
                        produce.doEnd(traceId);
                    }
                }
            }
        }

        // ---- lifecycle ----

        /** Ends the reply once the application ended and every internal stream has ended its reply. */
        void endIfDone(long traceId)
        {
            if (initialEnded && !closed && produceEnded && internalsClosed())
            {
                doReplyBegin(traceId);
                doReplyEnd(traceId);
                initialClosed = true;
                cleanup();
            }
        }

        private boolean internalsClosed()
        {
            boolean done = meta == null || meta.replyClosed;
            for (FetchPartition fetch : fetches)
            {
                done &= fetch == null || fetch.replyClosed;
            }
            for (ProducePartition produce : produces)
            {
                done &= produce == null || produce.replyClosed;
            }
            return done;
        }

        // the reply's Begin has the application's own extension
        @Override
        void doReplyBegin(long traceId)
        {
            if (!replyBegun)
            {
                doReplyBegin(traceId, beginEx, 0, beginEx.capacity());
            }
        }

        private void doInitialWindow(long traceId)
        {
            if (!initialClosed)
            {
                frames.window(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, 0L,
                    RECORD_FRAMING);
            }
        }

        @Override
        void doAbortAll(long traceId, short error)
        {
            doAbortInternals(traceId);
            super.doAbortAll(traceId, error);
        }

        private void doAbortInternals(long traceId)
        {
            if (meta != null)
            {
                meta.doAbortAll(traceId);
            }
            for (FetchPartition fetch : fetches)
            {
                if (fetch != null)
                {
                    fetch.doAbortAll(traceId);
                }
            }
            for (ProducePartition produce : produces)
            {
                if (produce != null)
                {
                    produce.doAbortAll(traceId);
                }
            }
        }

        @Override
        void onCleanup()
        {
            if (!closed)
            {
                closed = true;
                held.clear();
                pending.clear();
                streams.remove(initialId);
            }
        }
    }

    /**
     * A stream this binding opens to itself for a merged stream: the opener's side of the initial direction and the
     * receiver's side of the reply, as any application of a capability sees them.
     */
    private abstract class InternalStream
    {
        final MergedStream merged;
        final long initialId;
        final long replyId;
        MessageConsumer receiver;

        long initialSeq;
        long initialAck;
        int initialMax;
        int initialPad;

        long replySeq;
        long replyAck;
        int replyMax;

        boolean initialClosed;
        boolean replyBegun;
        boolean replyClosed;
        boolean retired;

        InternalStream(MergedStream merged)
        {
            this.merged = merged;
            this.initialId = context.supplyInitialId(bindingId);
            this.replyId = initialId & ~1L;
        }

        final boolean doBegin(long traceId, DirectBuffer extension, int offset, int length)
        {
            final BeginFW begin = beginRW.wrap(beginBuffer, 0, beginBuffer.capacity())
                .originId(bindingId).routedId(bindingId).streamId(initialId)
                .sequence(0L).acknowledge(0L).maximum(0)
                .traceId(traceId)
                .extension(extension, offset, length)
                .build();
            receiver = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), this::onMessage);
            if (receiver == null)
            {
                initialClosed = true;
                replyClosed = true;
            }
            return receiver != null;
        }

        private void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID ->
                {
                    final BeginFW begin = beginRO.wrap(buffer, index, index + length);
                    replyBegun = true;
                    replySeq = begin.sequence();
                    replyAck = begin.acknowledge();
                    onReplyBegin(begin);
                }
                case DataFW.TYPE_ID ->
                {
                    final DataFW data = dataRO.wrap(buffer, index, index + length);
                    replySeq += data.reserved();
                    final OctetsFW payload = data.payload();
                    onReplyFrame(msgTypeId, buffer, index, length, payload != null ? payload.sizeof() : -1, data.traceId());
                }
                case FlushFW.TYPE_ID ->
                    onReplyFrame(msgTypeId, buffer, index, length, -1, flushRO.wrap(buffer, index, index + length).traceId());
                case EndFW.TYPE_ID ->
                {
                    replyClosed = true;
                    merged.endIfDone(endRO.wrap(buffer, index, index + length).traceId());
                }
                case AbortFW.TYPE_ID ->
                {
                    replyClosed = true;
                    final long traceId = abortRO.wrap(buffer, index, index + length).traceId();
                    doAbortAll(traceId);
                    if (!retired)
                    {
                        merged.onInternalFailed(traceId, UNKNOWN_SERVER_ERROR);
                    }
                }
                case WindowFW.TYPE_ID ->
                {
                    final WindowFW window = windowRO.wrap(buffer, index, index + length);
                    initialAck = Math.max(initialAck, window.acknowledge());
                    initialMax = window.maximum();
                    initialPad = window.padding();
                    onInitialWindow(window.traceId());
                }
                case ResetFW.TYPE_ID ->
                {
                    final ResetFW reset = resetRO.wrap(buffer, index, index + length);
                    initialClosed = true;
                    final OctetsFW extension = reset.extension();
                    final KafkaResetExFW resetEx = extension.sizeof() > 0
                        ? kafkaResetExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                        : null;
                    doAbortAll(reset.traceId());
                    if (!retired)
                    {
                        merged.onInternalFailed(reset.traceId(), resetError(resetEx));
                    }
                }
                default ->
                {
                    // nothing else comes back to an opener
                }
            }
        }

        void onReplyBegin(BeginFW begin)
        {
        }

        void onReplyFrame(int msgTypeId, DirectBuffer buffer, int index, int length, int payload, long traceId)
        {
            doWindow(traceId, replyMax, 0);
        }

        void onInitialWindow(long traceId)
        {
        }

        final void doWindow(long traceId, int maximum, int padding)
        {
            if (receiver != null && !replyClosed)
            {
                replyAck = replySeq;
                replyMax = maximum;
                frames.window(receiver, bindingId, bindingId, replyId, replySeq, replyAck, replyMax, traceId, 0L, padding);
            }
        }

        final void doEnd(long traceId)
        {
            if (receiver != null && !initialClosed)
            {
                initialClosed = true;
                frames.end(receiver, bindingId, bindingId, initialId, initialSeq, initialAck, initialMax, traceId);
            }
        }

        final void doAbortAll(long traceId)
        {
            if (receiver == null)
            {
                return;
            }
            if (!initialClosed)
            {
                initialClosed = true;
                frames.abort(receiver, bindingId, bindingId, initialId, initialSeq, initialAck, initialMax, traceId);
            }
            if (!replyClosed)
            {
                replyClosed = true;
                frames.reset(receiver, bindingId, bindingId, replyId, replySeq, replyAck, replyMax, traceId, null, 0, 0);
            }
        }
    }

    /** The partitions of the merged stream's topic, and news of more. */
    private final class MetaStream extends InternalStream
    {
        MetaStream(MergedStream merged)
        {
            super(merged);
        }

        boolean open(long traceId)
        {
            final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .typeId(KafkaBinding.TYPE_ID)
                .meta(m -> m.topic(merged.topic))
                .build();
            return doBegin(traceId, beginEx.buffer(), beginEx.offset(), beginEx.sizeof());
        }

        @Override
        void onReplyBegin(BeginFW begin)
        {
            doWindow(begin.traceId(), META_CREDIT, 0);
        }

        @Override
        void onReplyFrame(int msgTypeId, DirectBuffer buffer, int index, int length, int payload, long traceId)
        {
            doWindow(traceId, META_CREDIT, 0);
            if (msgTypeId == DataFW.TYPE_ID)
            {
                final OctetsFW extension = dataRO.wrap(buffer, index, index + length).extension();
                final KafkaDataExFW dataEx = extension.sizeof() > 0
                    ? kafkaDataExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                    : null;
                if (dataEx != null && dataEx.kind() == KafkaCapability.META)
                {
                    // Kafka numbers a topic's partitions from 0 to the count less 1
                    final Array32FW<KafkaPartitionFW> partitions = dataEx.meta().partitions();
                    merged.onPartitions(partitions.count(), traceId);
                }
            }
        }
    }

    /** One partition's FETCH stream: its frames go to the merged reply, within the credit the merged stream gives. */
    private final class FetchPartition extends InternalStream
    {
        private final int partitionId;
        private final long offset;
        private long budget;

        FetchPartition(MergedStream merged, int partitionId, long offset)
        {
            super(merged);
            this.partitionId = partitionId;
            this.offset = offset;
        }

        boolean open(long traceId)
        {
            final KafkaMergedBeginExFW mergedBeginEx = kafkaBeginExRO.wrap(merged.beginEx, 0, merged.beginEx.capacity()).merged();
            final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .typeId(KafkaBinding.TYPE_ID)
                .fetch(f -> f.topic(merged.topic)
                    .partition(p -> p.partitionId(partitionId).partitionOffset(offset))
                    .isolation(mergedBeginEx.isolation() != null ? mergedBeginEx.isolation() : KafkaIsolation.READ_UNCOMMITTED))
                .build();
            // the filters, an empty array32 now, then the isolation: the merged stream's filters go in verbatim
            final Array32FW<KafkaFilterFW> filters = mergedBeginEx.filters();
            final int filtersOffset = beginEx.limit() - Integer.BYTES - Byte.BYTES;
            final byte isolation = extensionBuffer.getByte(beginEx.limit() - Byte.BYTES);
            extensionBuffer.putBytes(filtersOffset, filters.buffer(), filters.offset(), filters.sizeof());
            extensionBuffer.putByte(filtersOffset + filters.sizeof(), isolation);
            final int limit = filtersOffset + filters.sizeof() + Byte.BYTES;
            return doBegin(traceId, extensionBuffer, 0, limit);
        }

        boolean ready()
        {
            return replyBegun && !replyClosed;
        }

        /** The credit given and not used yet. */
        long outstanding()
        {
            return ready() ? budget - replySeq : 0L;
        }

        void doCredit(long traceId, int credit, int padding)
        {
            budget = Math.max(budget, replySeq) + credit;
            doWindow(traceId, (int) (budget - replySeq), padding);
        }

        @Override
        void onReplyBegin(BeginFW begin)
        {
            budget = replySeq;
            final OctetsFW extension = begin.extension();
            final KafkaBeginExFW beginEx = extension.sizeof() > 0
                ? kafkaBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                : null;
            final long resolved = beginEx != null && beginEx.kind() == KafkaCapability.FETCH
                ? beginEx.fetch().partition().partitionOffset()
                : -1L;
            merged.onFetchBegin(this, resolved, begin.traceId());
        }

        @Override
        void onReplyFrame(int msgTypeId, DirectBuffer buffer, int index, int length, int payload, long traceId)
        {
            merged.onFetchFrame(this, msgTypeId, buffer, index, length, payload, traceId);
        }
    }

    /** One partition's PRODUCE stream, opened on the first record for it, with the merged stream's acks. */
    private final class ProducePartition extends InternalStream
    {
        private final int partitionId;

        ProducePartition(MergedStream merged, int partitionId)
        {
            super(merged);
            this.partitionId = partitionId;
        }

        boolean open(long traceId)
        {
            final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .typeId(KafkaBinding.TYPE_ID)
                .produce(p -> p
                    .transaction((String) null)
                    .producerId(-1L)
                    .producerEpoch((short) -1)
                    .topic(merged.topic)
                    .partition(o -> o.partitionId(partitionId).partitionOffset(-1L))
                    .ackMode(merged.ackMode))
                .build();
            return doBegin(traceId, beginEx.buffer(), beginEx.offset(), beginEx.sizeof());
        }

        /** Whether a frame of {@code length} payload bytes fits the credit: none before the stream's first Window. */
        boolean accepts(int length)
        {
            return replyBegun && !initialClosed && initialMax > 0
                && initialSeq - initialAck + length + initialPad <= initialMax;
        }

        void doData(long traceId, int flags, OctetsFW payload, int extensionLength)
        {
            final int length = payload != null ? payload.sizeof() : 0;
            final int reserved = length + initialPad;
            frames.data(receiver, bindingId, bindingId, initialId, initialSeq, initialAck, initialMax, traceId, flags, 0L,
                reserved, payload != null ? payload.buffer() : null, payload != null ? payload.offset() : 0, length,
                extensionLength > 0 ? extensionBuffer : null, 0, extensionLength);
            initialSeq += reserved;
        }

        @Override
        void onReplyBegin(BeginFW begin)
        {
            doWindow(begin.traceId(), 0, 0);
        }

        @Override
        void onInitialWindow(long traceId)
        {
            merged.onProduceWindow(traceId);
        }
    }
}
