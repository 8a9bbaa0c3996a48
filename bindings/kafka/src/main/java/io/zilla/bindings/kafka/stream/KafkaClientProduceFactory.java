/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.codec.RecordBatchEncoder;
import io.zilla.specs.kafka.codec.RecordBatches;
import io.zilla.specs.kafka.codec.RecordCompression;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaProduceBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaProduceDataExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * PRODUCE streams: an application produces records to one partition. The reply begins once the partition's leader
 * is known, and a Window gives credit; each initial Data is one record (KafkaDataEx produce: timestamp, key,
 * headers; the value as payload, in fragments when it is larger than a frame). Records go into a record batch in a
 * buffer-pool slot; the batch goes to the leader's produce connection as soon as no Produce of this stream is in
 * flight, so records that come meanwhile are batched, within the credit (Nagle). The credit of records comes back
 * only once the broker acknowledged them (acks 1 or all), or once they were written (acks 0).
 * <p>
 * The slot holds two batches of at most half a slot each: the one in flight (kept until acknowledged, so that it can
 * be sent again, byte for byte, after NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE or a failed connection) and the
 * one filling. The credit offered is one batch, and each record costs its value plus {@link #RECORD_FRAMING}, which
 * covers its key, headers and framing, so the records taken always fit. With a producer id the batches carry
 * sequences, numbered per producer, epoch and partition on this worker; a batch sent again keeps its sequence.
 * <p>
 * With the binding's {@code compression} (other than none), the records of the batch filling go to the encoder's own
 * scratch buffer and are compressed into their half of the slot when the batch is sent. The credit is then one batch
 * less {@link #COMPRESSION_MARGIN}, the room kept for what a codec adds to records it cannot compress (framing, block
 * headers), so that a full window of incompressible records still fits its half once compressed.
 */
final class KafkaClientProduceFactory
{
    static final int SIGNAL_RETRY = 1;

    /** The padding of each record: the credit its key, headers and framing use, beyond its value. */
    static final int RECORD_FRAMING = 512;

    static final long RETRY_BACKOFF_MIN = 100L;
    static final long RETRY_BACKOFF_MAX = 2_000L;

    /** How many times a batch is sent again before the stream is reset: about a minute with the backoff. */
    static final int MAX_RETRIES = 30;

    /** The broker's time to get the acks before it answers REQUEST_TIMED_OUT. */
    static final int PRODUCE_TIMEOUT_MS = 30_000;

    static final short MESSAGE_TOO_LARGE = 10;
    static final short DUPLICATE_SEQUENCE_NUMBER = 46;
    static final short INVALID_RECORD = 87;

    /**
     * The room a compressed batch keeps for the codec's own bytes: on a window (about 31 KiB) of random records,
     * gzip adds 13 bytes, snappy (xerial framing) 26, lz4 (Kafka's frame) 15 and zstd 12
     * ({@code KafkaClientProduceCompressionTest} checks each stays under a quarter of this); 1 KiB leaves a wide
     * margin.
     */
    static final int COMPRESSION_MARGIN = 1024;

    private static final int FLAG_FIN = 0x01;
    private static final int FLAG_INIT = 0x02;

    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final EndFW endRO = new EndFW();
    private final AbortFW abortRO = new AbortFW();
    private final ResetFW resetRO = new ResetFW();
    private final WindowFW windowRO = new WindowFW();
    private final SignalFW signalRO = new SignalFW();
    private final KafkaDataExFW dataExRO = new KafkaDataExFW();
    private final OctetsFW valueRO = new OctetsFW();
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
    private final KafkaClientReset reset = new KafkaClientReset();
    private final MutableDirectBuffer extensionBuffer;

    private final StreamFrames frames;
    private final KafkaClientConnectionPool pool;
    private final KafkaClientMetadata metadata;
    private final BufferPool bufferPool;
    private final Signaler signaler;
    private final int encodeCapacity;
    private final RecordCompression compression;
    private final AtomicCounter requests;
    private final AtomicCounter records;
    private final AtomicCounter retried;
    private final Object2IntHashMap<String> sequences = new Object2IntHashMap<>(0);
    private final Long2ObjectHashMap<ProduceStream> streams = new Long2ObjectHashMap<>();

    KafkaClientProduceFactory(EngineContext context, StreamFrames frames, KafkaClientConnectionPool pool,
        KafkaClientMetadata metadata, long bindingId, RecordCompression compression)
    {
        this.compression = compression;
        this.frames = frames;
        this.pool = pool;
        this.metadata = metadata;
        this.bufferPool = context.bufferPool();
        this.signaler = context.signaler();
        this.encodeCapacity = pool != null ? pool.encodeBuffer().capacity() : 0;
        this.extensionBuffer = new UnsafeBuffer(new byte[context.writeBuffer().capacity() >> 2]);
        this.requests = context.supplyCounter(bindingId, "produce.requests");
        this.records = context.supplyCounter(bindingId, "produce.records");
        this.retried = context.supplyCounter(bindingId, "produce.retries");
    }

    MessageConsumer newStream(BeginFW begin, KafkaProduceBeginExFW beginEx, MessageConsumer sender)
    {
        MessageConsumer receiver = null;
        final String topic = beginEx.topic().asString();
        final String transaction = beginEx.transaction().asString();
        if (metadata != null && topic != null && !topic.isEmpty() && transaction == null)
        {
            final ProduceStream stream = new ProduceStream(sender, begin.originId(), begin.routedId(), begin.streamId(),
                topic, beginEx.partition().partitionId(), beginEx.producerId(), beginEx.producerEpoch(),
                acks(beginEx.ackMode()));
            streams.put(stream.initialId, stream);
            receiver = stream::onAppMessage;
        }
        else if (pool != null && transaction != null)
        {
            pool.event(begin.traceId(), "kafka.produce.refused", "transactional produce to " + topic
                + " is not built yet, stream refused");
        }
        return receiver;
    }

    void close(long traceId)
    {
        for (ProduceStream stream : new ArrayList<>(streams.values()))
        {
            stream.doAbortAll(traceId, KafkaClientRequest.NETWORK_EXCEPTION);
        }
    }

    static boolean isRetriable(int error)
    {
        return switch (error)
        {
            // LEADER_NOT_AVAILABLE, NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT, NETWORK_EXCEPTION,
            // NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, KAFKA_STORAGE_ERROR
            case 5, 6, 7, 13, 19, 20, 56 -> true;
            default -> false;
        };
    }

    // Kafka's sequences wrap to 0 after Integer.MAX_VALUE
    static int nextSequence(int sequence, int increment)
    {
        return sequence > Integer.MAX_VALUE - increment ? increment - (Integer.MAX_VALUE - sequence) - 1 : sequence + increment;
    }

    private final class ProduceStream implements KafkaClientTopic.Listener, KafkaClientRequest
    {
        private final MessageConsumer app;
        private final long originId;
        private final long routedId;
        private final long initialId;
        private final long replyId;
        private final String name;
        private final byte[] topicBytes;
        private final int partitionId;
        private final long producerId;
        private final short producerEpoch;
        private final short acks;
        private final String sequenceKey;
        private final int batchCapacity;
        private final int recordsCapacity;

        private KafkaClientTopic topic;
        private RecordBatchEncoder encoder;
        private int slot = BufferPool.NO_SLOT;
        private int fragmentSlot = BufferPool.NO_SLOT;
        private int fragmentValueOffset;
        private int fragmentLimit;
        private int fragmentCredit;

        private int inflightRegion = -1;
        private int inflightLength;
        private int inflightCredit;
        private int inflightRecords;
        private boolean inflightSent;

        private int pendingRegion = -1;
        private int pendingCredit;
        private int pendingBaseSequence = RecordBatches.NO_SEQUENCE;

        private int retries;
        private long backoff = RETRY_BACKOFF_MIN;
        private long timerId = Signaler.NO_CANCEL_ID;

        private long initialSeq;
        private long initialAck;
        private int initialMax;

        private long replySeq;
        private long replyAck;
        private int replyMax;

        private boolean replyBegun;
        private boolean initialEnded;
        private boolean initialClosed;
        private boolean replyClosed;
        private boolean closed;

        ProduceStream(MessageConsumer app, long originId, long routedId, long initialId, String name, int partitionId,
            long producerId, short producerEpoch, short acks)
        {
            this.app = app;
            this.originId = originId;
            this.routedId = routedId;
            this.initialId = initialId;
            this.replyId = initialId & ~1L;
            this.name = name;
            this.topicBytes = name.getBytes(StandardCharsets.UTF_8);
            this.partitionId = partitionId;
            this.producerId = producerId;
            this.producerEpoch = producerEpoch;
            this.acks = acks;
            this.sequenceKey = producerId >= 0 ? producerId + "/" + producerEpoch + "/" + name + "/" + partitionId : null;
            // a Produce request (its header and envelope, then one batch) must fit the connection's encode buffer
            this.batchCapacity = Math.min(bufferPool.slotCapacity() >> 1,
                encodeCapacity - 2 * KafkaProduceRequests.ENVELOPE_MAX - topicBytes.length);
            // the uncompressed records of a batch: its credit
            this.recordsCapacity = batchCapacity - RecordBatches.RECORDS_OFFSET
                - (compression != RecordCompression.NONE ? COMPRESSION_MARGIN : 0);
        }

        void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onAppBegin(beginRO.wrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onAppData(dataRO.wrap(buffer, index, index + length));
                case EndFW.TYPE_ID -> onAppEnd(endRO.wrap(buffer, index, index + length));
                case AbortFW.TYPE_ID -> onAppAbort(abortRO.wrap(buffer, index, index + length));
                case WindowFW.TYPE_ID -> onAppWindow(windowRO.wrap(buffer, index, index + length));
                case ResetFW.TYPE_ID -> onAppReset(resetRO.wrap(buffer, index, index + length));
                case SignalFW.TYPE_ID -> onSignal(signalRO.wrap(buffer, index, index + length));
                default ->
                {
                    // a Flush carries nothing a produce stream needs
                }
            }
        }

        private void onAppBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            if (recordsCapacity <= RECORD_FRAMING)
            {
                doAbortAll(traceId, MESSAGE_TOO_LARGE, "no room for a batch: the topic name or the buffer slot");
            }
            else
            {
                topic = metadata.subscribe(name, this, traceId);
                if (topic.known() && topic.error() == KafkaClientTopic.NONE)
                {
                    onTopicMetadata(topic, traceId);
                }
                else if (topic.known())
                {
                    metadata.refresh(name, traceId);
                }
            }
        }

        private void onAppData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            if (data.sequence() != initialSeq || initialSeq + reserved > initialAck + initialMax || slot == BufferPool.NO_SLOT)
            {
                doAbortAll(traceId, INVALID_RECORD, "Data beyond the offered window (sequence " + data.sequence()
                    + " of " + initialSeq + ", reserved " + reserved + ", acknowledged " + initialAck + ", maximum "
                    + initialMax + ")");
                return;
            }
            initialSeq += reserved;
            final int flags = data.flags();
            final OctetsFW payload = data.payload();
            if ((flags & (FLAG_INIT | FLAG_FIN)) == (FLAG_INIT | FLAG_FIN))
            {
                final KafkaDataExFW dataEx = produceDataEx(data.extension());
                if (dataEx == null)
                {
                    doAbortAll(traceId, INVALID_RECORD, "a record without its KafkaDataEx produce");
                }
                else
                {
                    onRecord(dataEx.produce(), payload, reserved, traceId);
                }
            }
            else
            {
                onFragment(data, flags, payload, reserved, traceId);
            }
        }

        // a value in fragments is put together in a slot of its own, after a copy of the first fragment's extension
        private void onFragment(DataFW data, int flags, OctetsFW payload, int reserved, long traceId)
        {
            final int length = payload != null ? payload.sizeof() : 0;
            if ((flags & FLAG_INIT) != 0)
            {
                final KafkaDataExFW dataEx = produceDataEx(data.extension());
                fragmentSlot = fragmentSlot == BufferPool.NO_SLOT ? bufferPool.acquire(initialId) : fragmentSlot;
                final int total = dataEx != null ? dataEx.sizeof() + length + Math.max(dataEx.produce().deferred(), 0) : 0;
                if (dataEx == null || fragmentSlot == BufferPool.NO_SLOT || total > bufferPool.slotCapacity())
                {
                    doAbortAll(traceId, MESSAGE_TOO_LARGE, "a fragmented record that cannot be put together");
                    return;
                }
                final MutableDirectBuffer assembly = bufferPool.buffer(fragmentSlot);
                assembly.putBytes(0, dataEx.buffer(), dataEx.offset(), dataEx.sizeof());
                fragmentValueOffset = dataEx.sizeof();
                fragmentLimit = fragmentValueOffset;
                fragmentCredit = 0;
            }
            else if (fragmentSlot == BufferPool.NO_SLOT)
            {
                doAbortAll(traceId, INVALID_RECORD, "a fragment without its first");
                return;
            }
            final MutableDirectBuffer assembly = bufferPool.buffer(fragmentSlot);
            if (fragmentLimit + length > bufferPool.slotCapacity())
            {
                doAbortAll(traceId, MESSAGE_TOO_LARGE, "a fragmented record longer than it said");
                return;
            }
            if (length > 0)
            {
                assembly.putBytes(fragmentLimit, payload.buffer(), payload.offset(), length);
                fragmentLimit += length;
            }
            fragmentCredit += reserved;
            if ((flags & FLAG_FIN) != 0)
            {
                final KafkaDataExFW dataEx = dataExRO.wrap(assembly, 0, fragmentValueOffset);
                final OctetsFW value = valueRO.wrap(assembly, fragmentValueOffset, fragmentLimit);
                final int credit = fragmentCredit;
                onRecord(dataEx.produce(), value, credit, traceId);
                releaseFragmentSlot();
            }
        }

        private KafkaDataExFW produceDataEx(OctetsFW extension)
        {
            final KafkaDataExFW dataEx = extension != null && extension.sizeof() > 0
                ? dataExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                : null;
            return dataEx != null && dataEx.typeId() == KafkaBinding.TYPE_ID && dataEx.kind() == KafkaCapability.PRODUCE
                ? dataEx
                : null;
        }

        private void onRecord(KafkaProduceDataExFW record, OctetsFW value, int credit, long traceId)
        {
            if (pendingRegion == -1)
            {
                beginPendingBatch();
            }
            final long timestamp = record.timestamp() != 0L ? record.timestamp() : System.currentTimeMillis();
            if (encoder.append(timestamp, record.key(), value, record.headers()))
            {
                pendingCredit += credit;
                records.increment();
                if (inflightRegion == -1)
                {
                    doSendPending(traceId);
                }
            }
            else
            {
                doAbortAll(traceId, MESSAGE_TOO_LARGE, "a record whose key and headers outgrow the room its credit left");
            }
        }

        private void beginPendingBatch()
        {
            if (encoder == null)
            {
                // compressed, the encoder's scratch buffer holds the records: bounded by the credit, as the slot is
                encoder = compression == RecordCompression.NONE
                    ? new RecordBatchEncoder()
                    : new RecordBatchEncoder(recordsCapacity);
            }
            pendingRegion = inflightRegion == 0 ? 1 : 0;
            pendingCredit = 0;
            pendingBaseSequence = sequenceKey != null ? sequences.getValue(sequenceKey) : RecordBatches.NO_SEQUENCE;
            final int offset = regionOffset(pendingRegion);
            encoder.begin(bufferPool.buffer(slot), offset, offset + batchCapacity, compression, producerId,
                producerEpoch, pendingBaseSequence, false);
        }

        private void onAppEnd(EndFW end)
        {
            initialEnded = true;
            final long traceId = end.traceId();
            if (inflightRegion == -1 && pendingRegion != -1)
            {
                doSendPending(traceId);
            }
            if (!replyBegun && !closed)
            {
                // an End before the partition's leader was known: the reply begins only to end
                doReplyBegin(traceId);
            }
            endIfDone(traceId);
        }

        private void onAppAbort(AbortFW abort)
        {
            initialClosed = true;
            doReplyAbort(abort.traceId());
            cleanup();
        }

        private void onAppReset(ResetFW reset)
        {
            replyClosed = true;
            doReset(reset.traceId(), KafkaClientTopic.NONE);
            cleanup();
        }

        private void onAppWindow(WindowFW window)
        {
            replyAck = Math.max(replyAck, window.acknowledge());
            replyMax = window.maximum();
        }

        private void onSignal(SignalFW signal)
        {
            timerId = Signaler.NO_CANCEL_ID;
            if (!closed && signal.signalId() == SIGNAL_RETRY)
            {
                if (!replyBegun)
                {
                    metadata.refresh(name, signal.traceId());
                }
                else if (inflightRegion != -1 && !inflightSent)
                {
                    doSendInflight(signal.traceId());
                }
            }
        }

        @Override
        public void onTopicMetadata(KafkaClientTopic topic, long traceId)
        {
            final short error = topic.error();
            if (replyBegun || closed)
            {
                // a batch waiting for a new leader is sent again by its retry timer, whatever the answer
                return;
            }
            if (error == KafkaClientTopic.NONE && !hasPartition(topic))
            {
                doAbortAll(traceId, KafkaClientMetadata.UNKNOWN_TOPIC_OR_PARTITION, "no partition " + partitionId);
            }
            else if (error == KafkaClientTopic.NONE && topic.leader(partitionId) >= 0)
            {
                slot = bufferPool.acquire(initialId);
                if (slot == BufferPool.NO_SLOT)
                {
                    doAbortAll(traceId, KafkaClientRequest.NETWORK_EXCEPTION, "no buffer slot free for a batch");
                }
                else
                {
                    retries = 0;
                    backoff = RETRY_BACKOFF_MIN;
                    doReplyBegin(traceId);
                    // one batch of credit: the records of the batch in flight and of the one filling fit the slot
                    initialMax = recordsCapacity;
                    doInitialWindow(traceId);
                }
            }
            else if (error == KafkaClientTopic.NONE || isRetriable(error))
            {
                // no leader elected now, or the broker could not be asked
                scheduleRetry(traceId, error == KafkaClientTopic.NONE ? KafkaClientMetadata.LEADER_NOT_AVAILABLE : error);
            }
            else
            {
                doAbortAll(traceId, error, "metadata of " + name);
            }
        }

        private boolean hasPartition(KafkaClientTopic topic)
        {
            boolean found = false;
            for (int i = 0; i < topic.partitions() && !found; i++)
            {
                found = topic.partitionId(i) == partitionId;
            }
            return found;
        }

        private void doSendPending(long traceId)
        {
            final int length = encoder.finish();
            if (length > 0)
            {
                inflightRegion = pendingRegion;
                inflightLength = length;
                inflightCredit = pendingCredit;
                inflightRecords = encoder.recordCount();
                if (sequenceKey != null)
                {
                    sequences.put(sequenceKey, nextSequence(pendingBaseSequence, inflightRecords));
                }
                pendingRegion = -1;
                pendingCredit = 0;
                doSendInflight(traceId);
            }
            else if (length == RecordBatchEncoder.NO_SPACE)
            {
                // the codec failed, or grew the records beyond the margin: never dropped silently
                pendingRegion = -1;
                doAbortAll(traceId, MESSAGE_TOO_LARGE, "a batch that does not compress with " + compression
                    + " into its room");
            }
            else
            {
                pendingRegion = -1;
            }
        }

        private void doSendInflight(long traceId)
        {
            final int leaderId = topic != null ? topic.leader(partitionId) : -1;
            final KafkaClientConnection connection = leaderId >= 0
                ? pool.supply(leaderId, KafkaClientConnectionPool.Purpose.PRODUCE, traceId)
                : null;
            inflightSent = true;
            if (connection != null)
            {
                connection.send(this, traceId);
            }
            else
            {
                onFailed(KafkaClientMetadata.LEADER_NOT_AVAILABLE, traceId);
            }
        }

        @Override
        public short apiKey()
        {
            return KafkaApis.PRODUCE;
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            int limit = ENCODE_FAILED;
            if (!closed && inflightRegion != -1)
            {
                limit = KafkaProduceRequests.encode(version, buffer, offset, maxLimit, topicBytes, acks, PRODUCE_TIMEOUT_MS,
                    partitionId, bufferPool.buffer(slot), regionOffset(inflightRegion), inflightLength);
                if (limit != ENCODE_FAILED)
                {
                    requests.increment();
                }
            }
            return limit;
        }

        @Override
        public boolean awaitsResponse()
        {
            return acks != 0;
        }

        @Override
        public void onWritten(long traceId)
        {
            if (acks == 0 && !closed)
            {
                onAcknowledged(traceId);
            }
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            final int error = KafkaProduceRequests.readError(version, buffer, offset, limit);
            final boolean readable = error != KafkaProduceRequests.MALFORMED;
            if (readable && !closed)
            {
                if (error == KafkaClientTopic.NONE || error == DUPLICATE_SEQUENCE_NUMBER)
                {
                    onAcknowledged(traceId);
                }
                else
                {
                    onFailed((short) error, traceId);
                }
            }
            return readable;
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            if (!closed)
            {
                inflightSent = false;
                if (isRetriable(error) && retries < MAX_RETRIES)
                {
                    retries++;
                    retried.increment();
                    metadata.refresh(name, traceId);
                    scheduleRetry(traceId, error);
                }
                else
                {
                    doAbortAll(traceId, error, "produce to " + name + "-" + partitionId + " failed after " + retries
                        + " retries");
                }
            }
        }

        private void onAcknowledged(long traceId)
        {
            initialAck += inflightCredit;
            inflightRegion = -1;
            inflightCredit = 0;
            inflightSent = false;
            retries = 0;
            backoff = RETRY_BACKOFF_MIN;
            doInitialWindow(traceId);
            if (pendingRegion != -1)
            {
                doSendPending(traceId);
            }
            endIfDone(traceId);
        }

        private void endIfDone(long traceId)
        {
            if (initialEnded && !closed && inflightRegion == -1 && pendingRegion == -1)
            {
                initialClosed = true;
                doReplyEnd(traceId);
                cleanup();
            }
        }

        private void scheduleRetry(long traceId, short error)
        {
            if (retries >= MAX_RETRIES && !replyBegun)
            {
                doAbortAll(traceId, error, "metadata of " + name + " after " + retries + " retries");
            }
            else
            {
                if (!replyBegun)
                {
                    retries++;
                }
                cancelTimer();
                timerId = signaler.signalAt(System.currentTimeMillis() + backoff, originId, routedId, replyId, traceId,
                    SIGNAL_RETRY, 0);
                backoff = Math.min(backoff << 1, RETRY_BACKOFF_MAX);
            }
        }

        private void cancelTimer()
        {
            if (timerId != Signaler.NO_CANCEL_ID)
            {
                signaler.cancel(timerId);
                timerId = Signaler.NO_CANCEL_ID;
            }
        }

        private int regionOffset(int region)
        {
            return region * (bufferPool.slotCapacity() >> 1);
        }

        private void doReplyBegin(long traceId)
        {
            if (!replyBegun)
            {
                replyBegun = true;
                final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .produce(p -> p
                        .transaction((String) null)
                        .producerId(producerId)
                        .producerEpoch(producerEpoch)
                        .topic(name)
                        .partition(o -> o.partitionId(partitionId).partitionOffset(-1L))
                        .ackMode(ackMode(acks)))
                    .build();
                frames.begin(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId,
                    beginEx.buffer(), beginEx.offset(), beginEx.sizeof());
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

        private void doReplyEnd(long traceId)
        {
            if (replyBegun && !replyClosed)
            {
                frames.end(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
            }
            replyClosed = true;
        }

        private void doReplyAbort(long traceId)
        {
            if (replyBegun && !replyClosed)
            {
                frames.abort(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
            }
            replyClosed = true;
        }

        private void doReset(long traceId, short error)
        {
            if (!initialClosed)
            {
                reset.reset(frames, app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, error);
            }
            initialClosed = true;
        }

        private void doAbortAll(long traceId, short error, String why)
        {
            pool.event(traceId, "kafka.produce.failed", "produce stream to " + name + "-" + partitionId + " reset with error "
                + error + ": " + why);
            doAbortAll(traceId, error);
        }

        void doAbortAll(long traceId, short error)
        {
            doReset(traceId, error);
            doReplyAbort(traceId);
            cleanup();
        }

        private void releaseFragmentSlot()
        {
            if (fragmentSlot != BufferPool.NO_SLOT)
            {
                bufferPool.release(fragmentSlot);
                fragmentSlot = BufferPool.NO_SLOT;
            }
        }

        private void cleanup()
        {
            if (initialClosed && replyClosed && !closed)
            {
                closed = true;
                cancelTimer();
                releaseFragmentSlot();
                if (slot != BufferPool.NO_SLOT)
                {
                    bufferPool.release(slot);
                    slot = BufferPool.NO_SLOT;
                }
                if (topic != null)
                {
                    metadata.unsubscribe(topic, this);
                    topic = null;
                }
                streams.remove(initialId);
            }
        }
    }

    // acks as Kafka numbers them: all (-1) unless the stream says otherwise
    private static short acks(KafkaAckMode ackMode)
    {
        return ackMode != null ? (short) ackMode.value() : (short) KafkaAckMode.IN_SYNC_REPLICAS.value();
    }

    private static KafkaAckMode ackMode(short acks)
    {
        final KafkaAckMode ackMode = KafkaAckMode.valueOf(acks);
        return ackMode != null ? ackMode : KafkaAckMode.IN_SYNC_REPLICAS;
    }
}
