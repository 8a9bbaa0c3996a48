/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.metrics.Metrics;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.SignalFW;
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
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * PRODUCE streams: an application produces records to one partition. The reply begins once the partition's leader
 * is known, and a Window gives credit; each initial Data is one record (KafkaDataEx produce: timestamp, key,
 * headers; the value as payload, in fragments when it is larger than a frame). Records go into a record batch in a
 * region of the stream's buffer-pool slots; a batch at least half full goes to the leader's produce connection as
 * soon as fewer than {@code maxInFlight} Produce requests of this stream are unacknowledged, one less full once none
 * is, so that records coming meanwhile are batched (Nagle's rule: no linger, a lone record goes at once).
 * <p>
 * Regions: half a slot each, two per slot, at least {@code maxInFlight + 2}: one per batch in flight (kept until
 * acknowledged, so that it can be sent again, byte for byte, after a retriable error), the one filling, and at
 * least one spare for a batch closed early, when a record's key and headers do not fit the room its batch has left:
 * such a batch waits, closed, to be sent in turn, and the record begins the next batch in a free region. The window
 * is {@code initialAck + credit of the batches in flight + one batch}: the acknowledged credit only moves when the
 * broker acknowledged a batch (acks 1 or all) or once it was written (acks 0), and the maximum grows by a batch's
 * credit when it is sent, so the records not sent yet (closed batches and the filling one) have one batch of credit.
 * Each record costs its value plus {@link #RECORD_FRAMING}, the most its framing takes; its key's and headers' bytes
 * take the room the records before it left, or close the batch.
 * <p>
 * Ordering: the batches of the stream are sent in order; on a retriable error every unacknowledged batch is sent
 * again in order, once no response is awaited any more, after the metadata refresh and a backoff. With a producer id
 * the batches carry sequences, consecutive across the batches in flight, numbered per producer, epoch and partition
 * on this worker; a batch sent again keeps its sequence. A plain stream may reorder on a retry as kafka-clients does
 * with more than one request in flight: a batch that failed goes again after a later one that succeeded.
 * <p>
 * With the binding's {@code compression} (other than none), the records of the batch filling go to the encoder's own
 * scratch buffer and are compressed into their region when the batch is sent. A batch's credit is then one batch
 * less {@link #COMPRESSION_MARGIN}, the room kept for what a codec adds to records it cannot compress (framing, block
 * headers), so that a full batch of incompressible records still fits its region once compressed.
 */
final class KafkaClientProduceFactory
{
    static final int SIGNAL_RETRY = 1;

    /** The most bytes a varint (zig-zag int) of a record takes. */
    static final int VARINT32_MAX = 5;

    /** The most bytes a varlong (zig-zag long) of a record takes. */
    static final int VARINT64_MAX = 10;

    /**
     * The padding of each record: the most its framing takes in a batch beyond its value, computed from Kafka's record
     * format: length (varint), attributes (1 byte), timestamp delta (varlong), offset delta, key length, value length
     * and header count (varints), 36 bytes. The key's and headers' own bytes are not in it (they are in the extension,
     * outside the credit): they take the room the records before them left, and a record whose key and headers do not
     * fit closes its batch early and begins the next one, in a spare region (see the class comment).
     */
    static final int RECORD_FRAMING = VARINT32_MAX + Byte.BYTES + VARINT64_MAX + 4 * VARINT32_MAX;

    /**
     * The room for a record's key and headers that the padding allows before the stream has seen a record: the
     * application sends its first window in one burst at the first padding, so that padding must bound what its records
     * bring beyond their values. From the first record on, the padding is the framing plus the largest key and headers
     * seen so far (a new Window says so), so that the credit follows the bytes the records really take.
     */
    static final int KEY_AND_HEADERS_ALLOWANCE = 512 - RECORD_FRAMING;

    /**
     * The regions beyond one per batch in flight and the one filling: batches closed early (a record's key and headers
     * did not fit) wait there to be sent.
     */
    static final int SPARE_REGIONS = 1;

    static final long RETRY_BACKOFF_MIN = 100L;
    static final long RETRY_BACKOFF_MAX = 2_000L;

    /** How many times a batch is sent again before the stream is reset: about a minute with the backoff. */
    static final int MAX_RETRIES = 30;

    /**
     * How many times a batch the leader answered UNKNOWN_TOPIC_OR_PARTITION is sent again, about 3 s with the backoff:
     * the partition was in the metadata when the stream began, so a leader that does not know it yet is behind the
     * metadata (a topic just created, a partition moved to a broker still loading its logs), which kafka-clients
     * retries too; a topic deleted under the stream fails in seconds, not a minute.
     */
    static final int MAX_UNKNOWN_RETRIES = 5;

    /** The broker's time to get the acks before it answers REQUEST_TIMED_OUT. */
    static final int PRODUCE_TIMEOUT_MS = 30_000;

    static final short MESSAGE_TOO_LARGE = 10;
    static final short OUT_OF_ORDER_SEQUENCE_NUMBER = 45;
    static final short DUPLICATE_SEQUENCE_NUMBER = 46;
    static final short INVALID_RECORD = 87;

    /**
     * The room a compressed batch keeps for the codec's own bytes: on a window (about 31 KiB) of random records,
     * gzip adds 13 bytes, snappy (xerial framing) 26, lz4 (Kafka's frame) 15 and zstd 12
     * ({@code KafkaClientProduceCompressionTest} checks each stays under a quarter of this); 1 KiB leaves a wide
     * margin.
     */
    static final int COMPRESSION_MARGIN = 1024;

    /**
     * The largest record a stream takes, its key and headers included: one that does not fit a batch region (a large
     * record) is put together on the heap and sent as a batch of its own, from the heap.
     */
    static final int LARGE_RECORD_MAX = 16 << 20;

    private static final int FLAG_FIN = 0x01;
    private static final int FLAG_INIT = 0x02;

    private final KafkaClientAppFrames io;
    private final KafkaDataExFW dataExRO = new KafkaDataExFW();
    private final OctetsFW valueRO = new OctetsFW();
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
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
    private final AtomicCounter inflightPeak;
    private final int maxInFlight;
    private final int requestPartitions;
    private final KafkaMetrics metrics;
    private final Object2IntHashMap<String> sequences = new Object2IntHashMap<>(0);
    private final Long2ObjectHashMap<ProduceStream> streams = new Long2ObjectHashMap<>();

    KafkaClientProduceFactory(EngineContext context, StreamFrames frames, KafkaClientConnectionPool pool,
        KafkaClientMetadata metadata, long bindingId, RecordCompression compression, KafkaClientSettings settings,
        KafkaMetrics metrics)
    {
        this.metrics = metrics;
        this.maxInFlight = Math.max(1, settings.produceMaxInFlight());
        this.requestPartitions = Math.max(1, settings.produceRequestPartitions());
        this.compression = compression;
        this.frames = frames;
        this.io = new KafkaClientAppFrames(frames);
        this.pool = pool;
        this.metadata = metadata;
        this.bufferPool = context.bufferPool();
        this.signaler = context.signaler();
        this.encodeCapacity = pool != null ? pool.encodeBuffer().capacity() : 0;
        this.extensionBuffer = new UnsafeBuffer(new byte[context.writeBuffer().capacity() >> 2]);
        this.requests = context.supplyCounter(bindingId, "produce.requests");
        this.records = context.supplyCounter(bindingId, "produce.records");
        this.retried = context.supplyCounter(bindingId, "produce.retries");
        this.inflightPeak = context.supplyCounter(bindingId, "produce.inflight.peak");
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
        KafkaClientAppStream.abortAll(streams, traceId);
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

    private final class ProduceStream extends KafkaClientAppStream implements KafkaClientTopic.Listener
    {
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
        private final int[] slots;
        private final ArrayDeque<Batch> free;
        private final ArrayDeque<Batch> unacked;
        private final ArrayDeque<Batch> closedBatches;
        private int fragmentSlot = BufferPool.NO_SLOT;
        private int fragmentValueOffset;
        private int fragmentLimit;
        private int fragmentCredit;
        // the padding of a record's fragments after its first: one frame's padding is what a record needs of the
        // region, so the window's edge keeps the rest until its batch is sent (then in unackedCredit): without it, a
        // record of 1 KiB sent in hundreds of small fragments took a batch's credit in padding and waited for good
        private int fragmentExtraPadding;
        private int extraPadding;
        // a record too large for a batch region: put together here (the slot's bytes moved over once it outgrew it)
        private ExpandableArrayBuffer largeAssembly;
        // the credit of large records taken and not sent yet: the window's edge keeps it beyond the one batch
        private int largeCredit;

        private Batch filling;
        private int unackedCredit;
        private Batch[] resending;
        private int awaitingCount;
        private boolean retrying;

        private int retries;
        private long backoff = RETRY_BACKOFF_MIN;
        private long timerId = Signaler.NO_CANCEL_ID;

        private boolean initialEnded;
        private boolean closed;

        private int recordPadding = RECORD_FRAMING + KEY_AND_HEADERS_ALLOWANCE;
        private int largestKeyAndHeaders = -1;
        private boolean paddingChanged;

        ProduceStream(MessageConsumer app, long originId, long routedId, long initialId, String name, int partitionId,
            long producerId, short producerEpoch, short acks)
        {
            super(io, app, originId, routedId, initialId);
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
            this.slots = new int[(maxInFlight + 2 + SPARE_REGIONS) >> 1];
            Arrays.fill(slots, BufferPool.NO_SLOT);
            final int regions = slots.length << 1;
            this.free = new ArrayDeque<>(regions);
            this.unacked = new ArrayDeque<>(regions);
            this.closedBatches = new ArrayDeque<>(regions);
            this.resending = new Batch[regions];
            for (int region = 0; region < regions; region++)
            {
                free.add(new Batch(region));
            }
        }

        // a Flush carries nothing a produce stream needs, and the reply's Window only its credit: the defaults
        @Override
        void onAppBegin(BeginFW begin)
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

        @Override
        void onAppData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            if (data.sequence() != initialSeq || initialSeq + reserved > initialAck + initialMax
                || slots[0] == BufferPool.NO_SLOT)
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
                    onRecord(dataEx.produce(), payload, reserved, 0, traceId);
                }
            }
            else
            {
                onFragment(data, flags, payload, reserved, traceId);
            }
        }

        // a value in fragments is put together in a slot of its own, after a copy of the first fragment's extension; a
        // record that cannot fit an empty batch, as deferred says, or one whose size deferred does not say (0), on the
        // heap instead, the window growing by each fragment's credit so that its application can send all of it: one
        // that grew past a batch in the slot could wait for good for credit that only its next fragment would bring
        private void onFragment(DataFW data, int flags, OctetsFW payload, int reserved, long traceId)
        {
            final int length = payload != null ? payload.sizeof() : 0;
            if ((flags & FLAG_INIT) != 0)
            {
                final KafkaDataExFW dataEx = produceDataEx(data.extension());
                final long total = dataEx != null ? (long) dataEx.sizeof() + length + Math.max(dataEx.produce().deferred(), 0)
                    : 0L;
                if (dataEx == null || total > LARGE_RECORD_MAX)
                {
                    doAbortAll(traceId, MESSAGE_TOO_LARGE, "a fragmented record that cannot be put together");
                    return;
                }
                largeAssembly = null;
                if (total + RECORD_FRAMING > recordsCapacity || dataEx.produce().deferred() <= 0)
                {
                    largeAssembly = new ExpandableArrayBuffer((int) total + Integer.BYTES);
                }
                else
                {
                    fragmentSlot = fragmentSlot == BufferPool.NO_SLOT ? bufferPool.acquire(initialId) : fragmentSlot;
                    if (fragmentSlot == BufferPool.NO_SLOT)
                    {
                        doAbortAll(traceId, MESSAGE_TOO_LARGE, "a fragmented record that cannot be put together");
                        return;
                    }
                }
                assembly().putBytes(0, dataEx.buffer(), dataEx.offset(), dataEx.sizeof());
                fragmentValueOffset = dataEx.sizeof();
                fragmentLimit = fragmentValueOffset;
                fragmentCredit = 0;
                fragmentExtraPadding = 0;
            }
            else if (fragmentSlot == BufferPool.NO_SLOT && largeAssembly == null)
            {
                doAbortAll(traceId, INVALID_RECORD, "a fragment without its first");
                return;
            }
            if ((long) fragmentLimit + length > LARGE_RECORD_MAX)
            {
                doAbortAll(traceId, MESSAGE_TOO_LARGE, "a fragmented record larger than " + LARGE_RECORD_MAX + " bytes");
                return;
            }
            if (largeAssembly == null && fragmentLimit + length + RECORD_FRAMING > recordsCapacity)
            {
                doAbortAll(traceId, MESSAGE_TOO_LARGE, "a fragmented record longer than its deferred said");
                return;
            }
            final MutableDirectBuffer assembly = assembly();
            if (length > 0)
            {
                assembly.putBytes(fragmentLimit, payload.buffer(), payload.offset(), length);
                fragmentLimit += length;
            }
            fragmentCredit += reserved;
            if (largeAssembly != null)
            {
                largeCredit += reserved;
            }
            else if ((flags & FLAG_INIT) == 0)
            {
                fragmentExtraPadding += reserved - length;
                extraPadding += reserved - length;
            }
            if ((flags & FLAG_FIN) != 0)
            {
                final KafkaDataExFW dataEx = dataExRO.wrap(assembly, 0, fragmentValueOffset);
                final OctetsFW value = valueRO.wrap(assembly, fragmentValueOffset, fragmentLimit);
                final int credit = fragmentCredit;
                if (largeAssembly != null)
                {
                    onLargeRecord(dataEx.produce(), value, credit, traceId);
                    largeAssembly = null;
                }
                else
                {
                    onRecord(dataEx.produce(), value, credit, fragmentExtraPadding, traceId);
                    fragmentExtraPadding = 0;
                    releaseFragmentSlot();
                }
            }
            else if (largeAssembly != null || (flags & FLAG_INIT) == 0)
            {
                initialMax = window();
                doInitialWindow(traceId);
            }
        }

        private MutableDirectBuffer assembly()
        {
            return largeAssembly != null ? largeAssembly : bufferPool.buffer(fragmentSlot);
        }

        // the window: the batches in flight, the large records not sent yet, the extra padding of fragmented records not
        // sent yet, and one batch for the records to come
        private int window()
        {
            return unackedCredit + largeCredit + extraPadding + recordsCapacity;
        }

        // a record that does not fit a batch region: a batch of its own on the heap, after the batches before it
        private void onLargeRecord(KafkaProduceDataExFW record, OctetsFW value, int credit, long traceId)
        {
            if (filling != null)
            {
                closeFilling(traceId);
            }
            final Batch batch = new Batch(-1);
            final int capacity = RecordBatches.RECORDS_OFFSET + RECORD_FRAMING + record.key().sizeof()
                + record.headers().sizeof() + value.sizeof() + KafkaProduceRequests.ENVELOPE_MAX;
            batch.heap = new UnsafeBuffer(new byte[capacity]);
            batch.credit = credit;
            batch.valueBytes = value.sizeof();
            batch.baseSequence = sequenceKey != null ? sequences.getValue(sequenceKey) : RecordBatches.NO_SEQUENCE;
            final RecordBatchEncoder large = new RecordBatchEncoder();
            final long timestamp = record.timestamp() != 0L ? record.timestamp() : System.currentTimeMillis();
            final boolean appended = large.begin(batch.heap, 0, capacity - Integer.BYTES, RecordCompression.NONE,
                producerId, producerEpoch, batch.baseSequence, false)
                && large.append(timestamp, record.key(), value, record.headers());
            final int length = appended ? large.finish() : -1;
            if (length <= 0)
            {
                doAbortAll(traceId, MESSAGE_TOO_LARGE, "a record of " + value.sizeof() + " bytes that does not encode");
                return;
            }
            batch.length = length;
            batch.records = 1;
            if (sequenceKey != null)
            {
                sequences.put(sequenceKey, nextSequence(batch.baseSequence, 1));
            }
            closedBatches.add(batch);
            records.increment();
            sendFillingIfAllowed(traceId);
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

        private void onRecord(KafkaProduceDataExFW record, OctetsFW value, int credit, int extra, long traceId)
        {
            if (filling == null)
            {
                beginFillingBatch();
            }
            final long timestamp = record.timestamp() != 0L ? record.timestamp() : System.currentTimeMillis();
            boolean appended = encoder.append(timestamp, record.key(), value, record.headers());
            if (!appended && encoder.recordCount() > 0 && !free.isEmpty())
            {
                // its key and headers do not fit the room the records before it left: it begins the next batch
                closeFilling(traceId);
                if (filling == null && !closed)
                {
                    beginFillingBatch();
                    appended = encoder.append(timestamp, record.key(), value, record.headers());
                }
            }
            if (appended)
            {
                filling.credit += credit;
                filling.extraPadding += extra;
                filling.valueBytes += value != null ? value.sizeof() : 0;
                records.increment();
                followKeyAndHeaders(record);
                sendFillingIfAllowed(traceId);
                if (paddingChanged)
                {
                    // after the record is in its batch: the Window may bring the application's next records at once
                    doInitialWindow(traceId);
                }
            }
            else if (!closed)
            {
                doAbortAll(traceId, MESSAGE_TOO_LARGE, "a record whose key and headers outgrow the room its credit left");
            }
        }

        // the padding follows the largest key and headers seen, so that a window's records fit the regions they take
        private void followKeyAndHeaders(KafkaProduceDataExFW record)
        {
            final int keyAndHeaders = record.key().sizeof() + record.headers().sizeof();
            if (keyAndHeaders > largestKeyAndHeaders)
            {
                largestKeyAndHeaders = keyAndHeaders;
                final int padding = Math.min(RECORD_FRAMING + keyAndHeaders, recordsCapacity >> 1);
                paddingChanged |= padding != recordPadding;
                recordPadding = padding;
            }
        }

        // the window keeps the filling batch's records within one batch: a region is free for it whenever it is empty
        private void beginFillingBatch()
        {
            if (encoder == null)
            {
                // compressed, the encoder's scratch buffer holds the records: bounded by the credit, as the region is
                encoder = compression == RecordCompression.NONE
                    ? new RecordBatchEncoder()
                    : new RecordBatchEncoder(recordsCapacity);
            }
            filling = free.poll();
            filling.credit = 0;
            filling.extraPadding = 0;
            filling.valueBytes = 0L;
            filling.baseSequence = sequenceKey != null ? sequences.getValue(sequenceKey) : RecordBatches.NO_SEQUENCE;
            filling.acked = false;
            final int offset = regionOffset(filling.region);
            encoder.begin(regionBuffer(filling.region), offset, offset + batchCapacity, compression, producerId,
                producerEpoch, filling.baseSequence, false);
        }

        @Override
        void onAppEnd(EndFW end)
        {
            initialEnded = true;
            final long traceId = end.traceId();
            sendFillingIfAllowed(traceId);
            if (!replyBegun && !closed)
            {
                // an End before the partition's leader was known: the reply begins only to end
                doReplyBegin(traceId);
            }
            endIfDone(traceId);
        }

        @Override
        void onSignal(SignalFW signal)
        {
            timerId = Signaler.NO_CANCEL_ID;
            if (!closed && signal.signalId() == SIGNAL_RETRY)
            {
                if (!replyBegun)
                {
                    metadata.refresh(name, signal.traceId());
                }
                else if (retrying)
                {
                    doResendUnacked(signal.traceId());
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
                if (!acquireSlots())
                {
                    doAbortAll(traceId, KafkaClientRequest.NETWORK_EXCEPTION, "no buffer slots free for the batches");
                }
                else
                {
                    retries = 0;
                    backoff = RETRY_BACKOFF_MIN;
                    doReplyBegin(traceId);
                    // one batch of credit to begin with: it grows by each batch sent while it is in flight
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

        private boolean acquireSlots()
        {
            boolean acquired = true;
            for (int i = 0; i < slots.length && acquired; i++)
            {
                slots[i] = bufferPool.acquire(initialId);
                acquired = slots[i] != BufferPool.NO_SLOT;
            }
            return acquired;
        }

        // the batches closed (full, or early), then the filling one, go in order as long as fewer than maxInFlight
        // batches are unacknowledged and no retry is due; the filling one once none is (Nagle's rule), or once it is
        // half full: records that come faster than a round trip share a request (a Produce per record or two had the
        // broker's CPU, not the link, set REST's rate over one partition), a lone record still goes at once, and a
        // stream at full credit keeps several batches in flight (the window holds one batch not sent: a batch waiting
        // to be full would wait for its acknowledgement)
        private void sendFillingIfAllowed(long traceId)
        {
            while (!closedBatches.isEmpty() && !closed && !retrying && unacked.size() < maxInFlight)
            {
                // closed full, or early, or a large record's
                final Batch batch = closedBatches.poll();
                batch.eager = true;
                doSendBatch(batch, traceId);
            }
            if (filling != null && !closed && !retrying && closedBatches.isEmpty()
                && (unacked.isEmpty() || filling.credit >= recordsCapacity >> 1 && unacked.size() < maxInFlight))
            {
                final boolean eager = filling.credit >= recordsCapacity >> 1;
                closeFilling(traceId);
                if (!closedBatches.isEmpty())
                {
                    final Batch batch = closedBatches.poll();
                    batch.eager = eager;
                    doSendBatch(batch, traceId);
                }
            }
        }

        private void doSendBatch(Batch batch, long traceId)
        {
            unacked.add(batch);
            unackedCredit += batch.credit;
            extraPadding -= batch.extraPadding;
            if (batch.heap != null)
            {
                largeCredit -= batch.credit;
            }
            batch.send(traceId);
            // the credit of the batch sent is taken again by the next filling batch, in the region left free; the
            // Window after the send, so that records it brings at once cannot overtake this batch
            initialMax = window();
            doInitialWindow(traceId);
        }

        // the filling batch is finished (compressed, with its header) and waits its turn to be sent
        private void closeFilling(long traceId)
        {
            final Batch batch = filling;
            filling = null;
            final int length = encoder.finish();
            if (length > 0)
            {
                batch.length = length;
                batch.records = encoder.recordCount();
                if (sequenceKey != null)
                {
                    sequences.put(sequenceKey, nextSequence(batch.baseSequence, batch.records));
                }
                closedBatches.add(batch);
            }
            else if (length == RecordBatchEncoder.NO_SPACE)
            {
                // the codec failed, or grew the records beyond the margin: never dropped silently
                free.add(batch);
                doAbortAll(traceId, MESSAGE_TOO_LARGE, "a batch that does not compress with " + compression
                    + " into its room");
            }
            else
            {
                free.add(batch);
            }
        }

        // every unacknowledged batch again, in order, once no response is awaited any more
        private void doResendUnacked(long traceId)
        {
            retrying = false;
            // a copy: with acks 0 a batch is acknowledged, and leaves the queue, while it is sent
            final int count = unacked.size();
            if (count > resending.length)
            {
                // large batches are in flight beside the regions' batches
                resending = new Batch[count];
            }
            unacked.toArray(resending);
            for (int i = 0; i < count && !retrying && !closed; i++)
            {
                final Batch batch = resending[i];
                if (!batch.acked && !batch.awaiting)
                {
                    // each batch of the round, once: one that finds no leader, and fails at once, counts too
                    Metrics.increment(metrics.produceRetries);
                    batch.eager = true;
                    batch.send(traceId);
                }
            }
            Arrays.fill(resending, null);
            sendFillingIfAllowed(traceId);
        }

        private void onBatchAcknowledged(Batch batch, long traceId)
        {
            if (!batch.acked)
            {
                // what Kafka has: a record counts once it is acknowledged, at the stream's acks, and once only
                Metrics.add(metrics.produceRecords, batch.records);
                Metrics.add(metrics.produceBytes, batch.valueBytes);
            }
            batch.acked = true;
            retries = 0;
            backoff = RETRY_BACKOFF_MIN;
            // a plain stream's later batch may succeed while an earlier one waits for its retry: the acknowledgement
            // moves over a batch only once every batch before it is acknowledged too, as the application reads it as
            // a position in its sequence (MERGED acknowledges its records by it), and the later batch's region stays
            // taken; its credit stays counted in the maximum, so the window's edge is the same either way
            while (!unacked.isEmpty() && unacked.peek().acked)
            {
                final Batch released = unacked.poll();
                initialAck += released.credit;
                unackedCredit -= released.credit;
                if (released.heap == null)
                {
                    free.add(released);
                }
            }
            initialMax = window();
            doInitialWindow(traceId);
            if (retrying && awaitingCount == 0)
            {
                // the last answer awaited before the unacknowledged batches go again
                scheduleRetry(traceId, KafkaClientRequest.NETWORK_EXCEPTION);
            }
            sendFillingIfAllowed(traceId);
            endIfDone(traceId);
        }

        private void onBatchFailed(Batch batch, short error, long traceId)
        {
            final boolean unknownForNow = error == KafkaClientMetadata.UNKNOWN_TOPIC_OR_PARTITION
                && retries < MAX_UNKNOWN_RETRIES;
            if (isRetriable(error) || unknownForNow
                || error == OUT_OF_ORDER_SEQUENCE_NUMBER && (retrying || unacked.peek() != batch))
            {
                // OUT_OF_ORDER_SEQUENCE_NUMBER behind a batch that failed: the broker refused it for that one's gap
                final boolean first = !retrying;
                retrying = true;
                if (first)
                {
                    retries++;
                    retried.increment();
                    metadata.refresh(name, traceId);
                }
                if (retries > MAX_RETRIES)
                {
                    doAbortAll(traceId, error, "produce to " + name + "-" + partitionId + " failed after " + MAX_RETRIES
                        + " retries");
                }
                else if (awaitingCount == 0)
                {
                    scheduleRetry(traceId, error);
                }
            }
            else
            {
                doAbortAll(traceId, error, "produce to " + name + "-" + partitionId + " failed after " + retries
                    + " retries");
            }
        }

        private void endIfDone(long traceId)
        {
            if (initialEnded && !closed && unacked.isEmpty() && closedBatches.isEmpty() && filling == null)
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
            return (region & 1) * (bufferPool.slotCapacity() >> 1);
        }

        private MutableDirectBuffer regionBuffer(int region)
        {
            return bufferPool.buffer(slots[region >> 1]);
        }

        @Override
        void doReplyBegin(long traceId)
        {
            if (!replyBegun)
            {
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
                doReplyBegin(traceId, beginEx);
            }
        }

        private void doInitialWindow(long traceId)
        {
            if (!initialClosed)
            {
                paddingChanged = false;
                frames.window(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, 0L,
                    recordPadding);
            }
        }

        private void doAbortAll(long traceId, short error, String why)
        {
            pool.event(traceId, "kafka.produce.failed", "produce stream to " + name + "-" + partitionId + " reset with error "
                + error + ": " + why);
            doAbortAll(traceId, error);
        }

        private void releaseFragmentSlot()
        {
            if (fragmentSlot != BufferPool.NO_SLOT)
            {
                bufferPool.release(fragmentSlot);
                fragmentSlot = BufferPool.NO_SLOT;
            }
        }

        @Override
        void onCleanup()
        {
            if (!closed)
            {
                closed = true;
                cancelTimer();
                releaseFragmentSlot();
                for (int i = 0; i < slots.length; i++)
                {
                    if (slots[i] != BufferPool.NO_SLOT)
                    {
                        bufferPool.release(slots[i]);
                        slots[i] = BufferPool.NO_SLOT;
                    }
                }
                if (topic != null)
                {
                    metadata.unsubscribe(topic, this);
                    topic = null;
                }
                streams.remove(initialId);
            }
        }

        /** One batch of the stream in its region: a request to the leader's produce connection, sent again on retry. */
        private final class Batch implements KafkaClientRequest, KafkaProduceGroups.Member
        {
            private final int region;
            // a large record's batch: its own heap buffer instead of a region
            private MutableDirectBuffer heap;
            private int length;
            private int credit;
            private int extraPadding;
            private int records;
            private long valueBytes;
            private int baseSequence = RecordBatches.NO_SEQUENCE;
            private boolean awaiting;
            private boolean acked;
            // sent for its size (full or half full), or again: its request need not wait for the connection's answers
            private boolean eager;

            Batch(int region)
            {
                this.region = region;
            }

            void send(long traceId)
            {
                final int leaderId = topic != null ? topic.leader(partitionId) : -1;
                final KafkaClientConnection connection = leaderId >= 0
                    ? pool.supply(leaderId, KafkaClientConnectionPool.Purpose.PRODUCE, traceId)
                    : null;
                awaiting = true;
                countAwaiting(+1);
                final KafkaProduceGroups groups = connection != null
                    ? connection.produceGroups(requests, maxInFlight, requestPartitions)
                    : null;
                if (groups != null && heap != null)
                {
                    // its bytes follow from its own buffer, as the request's tail: a request of its own
                    groups.sendAlone(this, traceId);
                }
                else if (groups != null)
                {
                    groups.send(this, traceId);
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
                // only a large record's batch goes as a request of its own (the others in KafkaProduceGroups)
                int limit = ENCODE_FAILED;
                if (live())
                {
                    limit = KafkaProduceRequests.encodeHead(version, buffer, offset, maxLimit, topicBytes, acks,
                        PRODUCE_TIMEOUT_MS, partitionId, length);
                    if (limit != ENCODE_FAILED)
                    {
                        requests.increment();
                    }
                }
                return limit;
            }

            @Override
            public int tailLength(short version)
            {
                // the batch, then the tagged fields after it, zeros in the heap buffer beyond the batch
                return length + KafkaProduceRequests.suffixLength(version);
            }

            @Override
            public DirectBuffer tail()
            {
                return heap;
            }

            @Override
            public boolean awaitsResponse()
            {
                return acks != 0;
            }

            @Override
            public void onWritten(long traceId)
            {
                if (acks == 0 && !closed && awaiting)
                {
                    onAnswered();
                    onBatchAcknowledged(this, traceId);
                }
            }

            @Override
            public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
            {
                final int error = KafkaProduceRequests.readError(version, buffer, offset, limit);
                final boolean readable = error != KafkaProduceRequests.MALFORMED;
                if (readable)
                {
                    onProduced(error, traceId);
                }
                return readable;
            }

            @Override
            public void onProduced(int error, long traceId)
            {
                if (!closed && awaiting)
                {
                    onAnswered();
                    if (error == KafkaClientTopic.NONE || error == DUPLICATE_SEQUENCE_NUMBER)
                    {
                        onBatchAcknowledged(this, traceId);
                    }
                    else
                    {
                        onBatchFailed(this, (short) error, traceId);
                    }
                }
            }

            @Override
            public byte[] topic()
            {
                return topicBytes;
            }

            @Override
            public int partitionId()
            {
                return partitionId;
            }

            @Override
            public DirectBuffer batchBuffer()
            {
                return regionBuffer(region);
            }

            @Override
            public int batchOffset()
            {
                return regionOffset(region);
            }

            @Override
            public int batchLength()
            {
                return length;
            }

            @Override
            public short acks()
            {
                return acks;
            }

            @Override
            public boolean live()
            {
                return !closed && awaiting;
            }

            @Override
            public boolean eager()
            {
                return eager;
            }

            @Override
            public void onFailed(short error, long traceId)
            {
                if (!closed && awaiting)
                {
                    onAnswered();
                    onBatchFailed(this, error, traceId);
                }
            }

            private void onAnswered()
            {
                awaiting = false;
                countAwaiting(-1);
            }
        }

        private void countAwaiting(int delta)
        {
            awaitingCount += delta;
            inflightPeak.proposeMax(awaitingCount);
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
