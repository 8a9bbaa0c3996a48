/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.cache.CacheCursor;
import io.zilla.bindings.kafka.cache.CacheEntry;
import io.zilla.bindings.kafka.cache.CacheFilter;
import io.zilla.bindings.kafka.cache.CachePartition;
import io.zilla.bindings.kafka.cache.CacheTopic;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.metrics.Metrics;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.Array32FW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.stream.KafkaBytesFW;
import io.zilla.specs.kafka.types.stream.KafkaConditionFW;
import io.zilla.specs.kafka.types.stream.KafkaFilterFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A cache_client's FETCH (one partition) or MERGED (every partition; its fetch side) stream, read from the cache in
 * place: one {@link CacheCursor} per partition over the segments the topic's owner writes, moved as far as the reply's
 * window allows each time the owner rings this worker (after a batch) or the application gives credit. Records go out
 * as kind client sends them (the same extensions, fragments and progress), so a mapping cannot tell the two apart.
 * <p>
 * Partitions take turns one record at a time; a record in fragments keeps the reply to itself until its last fragment.
 * A stream without credit stops where it is: it holds the segment its cursor is in, and nothing else, and holds back
 * nobody.
 */
final class KafkaCacheReaderStream extends KafkaClientAppStream implements KafkaCacheReaders.Reader
{
    private static final int FLAG_FIN = 0x01;
    private static final int FLAG_INIT = 0x02;
    private static final short UNKNOWN_TOPIC_OR_PARTITION = 3;
    private static final short MESSAGE_TOO_LARGE = 10;
    private static final short OFFSET_OUT_OF_RANGE = 1;
    private static final long EARLIEST = -2L;
    private static final long LATEST = -1L;
    /**
     * How long a MERGED stream's reply waits for the cache to read every partition it starts at latest: a partition's
     * end is known once its first fetch answered (an empty partition's first answer waits the fetch's 500 ms), and a
     * stream that began before would start such a partition at the end the cache has when it can read it, missing
     * what was written meanwhile. Past the wait (a partition without a leader) the reply begins with what is readable.
     */
    private static final long LIVE_BEGIN_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** About what a frame's header takes of the ring, beside its payload and extension. */
    private static final int FRAME_SIZE = 128;
    /** The start offsets of a stream that names none (most): read only, so shared rather than a map per stream. */
    private static final Long2LongHashMap NO_START_OFFSETS = new Long2LongHashMap(Long.MIN_VALUE);

    private final KafkaCacheClientFactory factory;
    private final CacheTopic topic;
    private final boolean merged;
    private final int fetchPartition;
    private final Long2LongHashMap startOffsets;
    private final long defaultOffset;
    private final CacheFilter filter;
    // a MERGED stream's Begin extension, until its reply begins with it (then let go: an idle stream holds no copy)
    private MutableDirectBuffer beginEx;
    private final int beginExLength;
    private final KafkaCacheRelay produce;

    private CacheCursor[] cursors = new CacheCursor[0];
    private long[] progress = new long[0];
    private long[] reported = new long[0];
    private boolean[] pending = new boolean[0];
    private int count;
    private int turn;
    private int fragmentPartition = -1;
    private int fragmentSent;
    private boolean closed;
    private long written;
    private int attached;
    // a merged stream tells every partition's progress once all can be read, moved or not: with the high watermarks in
    // it, its application knows where the topic ends even when no record comes (http-kafka answers a GET there)
    private boolean progressTold;
    private int slot = -1;
    private int topicVersion = -1;
    private final long openedAt = System.nanoTime();

    /**
     * @param fetchPartition the partition of a FETCH stream, -1 for a MERGED one
     * @param offsets        a FETCH stream's partition, or a MERGED stream's start offsets (partition -1: the default)
     * @param defaultOffset  where a MERGED stream's partitions start when it names no default (-1 latest, -2 earliest)
     */
    KafkaCacheReaderStream(KafkaCacheClientFactory factory, KafkaClientAppFrames io, MessageConsumer sender, BeginFW begin,
        CacheTopic topic, int fetchPartition, Array32FW<KafkaOffsetFW> offsets, KafkaOffsetFW partition,
        Array32FW<KafkaFilterFW> filters, long defaultOffset, KafkaCacheRelay produce)
    {
        super(io, sender, begin.originId(), begin.routedId(), begin.streamId());
        this.produce = produce;
        this.factory = factory;
        this.topic = topic;
        this.merged = fetchPartition < 0;
        this.fetchPartition = fetchPartition;
        long fallback = defaultOffset;
        Long2LongHashMap named = null;
        if (partition != null)
        {
            named = new Long2LongHashMap(Long.MIN_VALUE);
            named.put(partition.partitionId(), partition.partitionOffset());
        }
        if (offsets != null)
        {
            final DirectBuffer buffer = offsets.buffer();
            final KafkaOffsetFW offsetRO = new KafkaOffsetFW();
            for (int at = offsets.offset() + Integer.BYTES, i = 0; i < offsets.count(); i++)
            {
                final KafkaOffsetFW offset = offsetRO.wrap(buffer, at, offsets.limit());
                if (offset.partitionId() == -1)
                {
                    fallback = offset.partitionOffset();
                }
                else
                {
                    named = named != null ? named : new Long2LongHashMap(Long.MIN_VALUE);
                    named.put(offset.partitionId(), offset.partitionOffset());
                }
                at = offset.limit();
            }
        }
        this.startOffsets = named != null ? named : NO_START_OFFSETS;
        this.defaultOffset = fallback;
        this.filter = filter(filters);
        final OctetsFW extension = begin.extension();
        this.beginEx = new UnsafeBuffer(new byte[extension.sizeof()]);
        this.beginEx.putBytes(0, extension.buffer(), extension.offset(), extension.sizeof());
        this.beginExLength = extension.sizeof();
    }

    @Override
    void onAppBegin(BeginFW begin)
    {
        initialSeq = begin.sequence();
        initialAck = begin.acknowledge();
        factory.readers().add(topic, this);
    }

    /** A MERGED stream's records to produce: to its produce half, whose Window and Reset come back as they are. */
    @Override
    void onAppData(DataFW data)
    {
        if (produce != null)
        {
            produce.onApp(DataFW.TYPE_ID, data.buffer(), data.offset(), data.sizeof());
        }
    }

    @Override
    void onAppEnd(EndFW end)
    {
        if (produce != null)
        {
            produce.onApp(EndFW.TYPE_ID, end.buffer(), end.offset(), end.sizeof());
        }
        super.onAppEnd(end);
    }

    @Override
    void onAppAbort(AbortFW abort)
    {
        if (produce != null)
        {
            produce.onApp(AbortFW.TYPE_ID, abort.buffer(), abort.offset(), abort.sizeof());
        }
        super.onAppAbort(abort);
    }

    @Override
    void onAppWindow(WindowFW window)
    {
        super.onAppWindow(window);
        factory.readers().wake(topic);
    }

    @Override
    public int onAppended(int budget)
    {
        if (closed || replyClosed)
        {
            return 0;
        }
        final long before = written;
        if (!replyBegun)
        {
            final boolean ready = merged
                ? topic.partitionCount() > 0 && (liveReadable() || System.nanoTime() - openedAt > LIVE_BEGIN_WAIT_NANOS)
                : readable(topic.partition(fetchPartition));
            if (!ready)
            {
                final boolean missing = topic.error() == UNKNOWN_TOPIC_OR_PARTITION
                    || !merged && topic.partitionCount() > 0 && fetchPartition >= topic.partitionCount();
                if (missing)
                {
                    doAbortAll(factory.supplyTraceId(), UNKNOWN_TOPIC_OR_PARTITION);
                }
                return 0;
            }
            attachPartitions();
            if (replyClosed)
            {
                return 0;
            }
            doReplyBegin(factory.supplyTraceId());
        }
        else if (attached < count || topicVersion != topic.version())
        {
            attachPartitions();
        }
        if (!replyClosed)
        {
            serve(factory.supplyTraceId(), before + budget);
        }
        // what the frames took of the ring, and a little for the look even when there was nothing to send
        return (int) Math.min(Integer.MAX_VALUE, written - before + 1);
    }

    @Override
    public int slot()
    {
        return slot;
    }

    @Override
    public void slot(int slot)
    {
        this.slot = slot;
    }

    @Override
    void doReplyBegin(long traceId)
    {
        if (replyBegun)
        {
            return;
        }
        if (merged)
        {
            doReplyBegin(traceId, beginEx, 0, beginExLength);
            beginEx = null;
        }
        else
        {
            final CachePartition partition = topic.partition(fetchPartition);
            final MutableDirectBuffer buffer = factory.extensionBuffer();
            final int limit = factory.fetchBeginEx(topic.name(), fetchPartition, count > fetchPartition
                ? progress[fetchPartition] : LATEST, partition != null ? partition.stableOffset() : -1L,
                partition != null ? partition.highWatermark() : -1L);
            doReplyBegin(traceId, buffer, 0, limit);
        }
    }

    @Override
    void onAppClosing(long traceId)
    {
        release();
    }

    @Override
    void onCleanup()
    {
        release();
        factory.onClosed(this);
    }

    // cursors for the partitions the owner has published since; a MERGED stream starts a partition found later at its
    // beginning, as kind client does, so that nothing written to it before the stream saw it is missed
    private void attachPartitions()
    {
        topicVersion = topic.version();
        final int known = merged ? topic.partitionCount() : fetchPartition + 1;
        if (known > count)
        {
            cursors = Arrays.copyOf(cursors, known);
            progress = Arrays.copyOf(progress, known);
            reported = Arrays.copyOf(reported, known);
            pending = Arrays.copyOf(pending, known);
            for (int p = count; p < known; p++)
            {
                progress[p] = startOffsets.containsKey(p) ? startOffsets.get(p) : count > 0 ? EARLIEST : defaultOffset;
                reported[p] = progress[p];
            }
            count = known;
        }
        for (int p = merged ? 0 : fetchPartition; p < count; p++)
        {
            if (cursors[p] != null && topic.partition(p) != cursors[p].partition())
            {
                // the cache started the partition over (the topic was created again): this stream's offsets are
                // beyond its end now, which Kafka answers with OFFSET_OUT_OF_RANGE
                doAbortAll(factory.supplyTraceId(), OFFSET_OUT_OF_RANGE);
                return;
            }
            if (cursors[p] == null)
            {
                final CachePartition partition = topic.partition(p);
                if (readable(partition))
                {
                    if (progress[p] >= 0L && progress[p] > partition.highWatermark()
                        && partition.fetchedOffset() >= partition.highWatermark())
                    {
                        // beyond the end of a partition the cache is caught up with: as Kafka answers it
                        doAbortAll(factory.supplyTraceId(), OFFSET_OUT_OF_RANGE);
                        return;
                    }
                    final CacheCursor cursor = new CacheCursor(partition, factory.readers().entry()).filter(filter);
                    final long start = resolve(partition, progress[p]);
                    cursor.seek(start);
                    cursors[p] = cursor;
                    attached++;
                    progress[p] = start;
                    reported[p] = start;
                }
            }
        }
    }

    // every partition this stream starts at latest can be read: its end is known (the owner rings while one is not)
    private boolean liveReadable()
    {
        for (int p = 0; p < topic.partitionCount(); p++)
        {
            final long start = startOffsets.containsKey(p) ? startOffsets.get(p) : defaultOffset;
            if (start == LATEST && !readable(topic.partition(p)))
            {
                return false;
            }
        }
        return true;
    }

    // a partition is read once the cache knows where it starts and its high watermark (the first fetch answered)
    private static boolean readable(CachePartition partition)
    {
        return partition != null && partition.readable();
    }

    // -2 the oldest record the cache holds (or, while it holds none, where it starts), -1 the partition's end: its high
    // watermark, which is ahead of the cache while the cache still catches up
    private static long resolve(CachePartition partition, long offset)
    {
        final long fetched = Math.max(partition.fetchedOffset(), 0L);
        final long oldest = partition.startOffset();
        final long resolved;
        if (offset == EARLIEST)
        {
            resolved = oldest >= 0L ? Math.min(oldest, fetched) : fetched;
        }
        else if (offset < 0L)
        {
            resolved = Math.max(fetched, partition.highWatermark());
        }
        else
        {
            resolved = offset;
        }
        return resolved;
    }

    private void serve(long traceId, long limit)
    {
        boolean moved = true;
        while (moved && !replyClosed && written < limit)
        {
            moved = false;
            if (fragmentPartition >= 0)
            {
                if (!sendRecord(fragmentPartition, traceId))
                {
                    break;
                }
                moved = true;
            }
            for (int k = 0; k < count && !replyClosed && written < limit; k++)
            {
                final int p = (turn + k) % count;
                final CacheCursor cursor = cursors[p];
                if (cursor == null)
                {
                    continue;
                }
                if (!pending[p])
                {
                    // read before the cursor: every record below it is in the segments by then, so a cursor already
                    // there has nothing to look for (the common case with many readers and a record now and then)
                    final long fetched = cursor.partition().fetchedOffset();
                    if (cursor.nextOffset() >= fetched)
                    {
                        progress[p] = Math.max(progress[p], fetched);
                        continue;
                    }
                    if (!cursor.next())
                    {
                        progress[p] = Math.max(progress[p], Math.max(cursor.nextOffset(), fetched));
                        continue;
                    }
                    pending[p] = true;
                }
                if (!sendRecord(p, traceId))
                {
                    moved = false;
                    break;
                }
                moved = true;
            }
            turn = count > 0 ? (turn + 1) % count : 0;
            if (fragmentPartition >= 0)
            {
                break;
            }
        }
        flushProgress(traceId);
    }

    /**
     * Sends the partition's current record, or the rest of it, as far as the credit goes.
     *
     * @return whether all of it went
     */
    private boolean sendRecord(int p, long traceId)
    {
        final CacheEntry entry = cursors[p].entry();
        final DirectBuffer value = entry.value();
        final int valueLength = value != null ? value.capacity() : 0;
        final int open = replyMax - (int) (replySeq - replyAck);
        final int credit = open - replyPad;
        final int remaining = valueLength - fragmentSent;
        if (!replyBegun || open <= 0 || credit < 0 || credit == 0 && remaining > 0)
        {
            return false;
        }
        final MutableDirectBuffer extension = factory.extensionBuffer();
        int extensionLength = 0;
        if (fragmentSent == 0)
        {
            progress[p] = entry.offset() + 1;
            extensionLength = writeDataEx(p, entry, extension);
            if (extensionLength < 0)
            {
                factory.event(traceId, "kafka.fetch.too.large", "topic " + topic.name() + " partition " + p
                    + ": the key and headers of the record at offset " + entry.offset() + " exceed a frame");
                doAbortAll(traceId, MESSAGE_TOO_LARGE);
                return false;
            }
        }
        final int length = Math.min(remaining, Math.min(credit, factory.maxPayload() - extensionLength));
        final int flags = (fragmentSent == 0 ? FLAG_INIT : 0) | (length == remaining ? FLAG_FIN : 0);
        if (fragmentSent == 0)
        {
            extension.putInt(merged ? KafkaCacheExtensions.MERGED_DEFERRED_OFFSET : KafkaCacheExtensions.FETCH_DEFERRED_OFFSET,
                remaining - length, ByteOrder.nativeOrder());
        }
        final int reserved = length + replyPad;
        factory.frames().data(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, flags, 0L, reserved,
            value, fragmentSent, length, fragmentSent == 0 ? extension : null, 0, extensionLength);
        replySeq += reserved;
        written += FRAME_SIZE + length + extensionLength;
        fragmentSent += length;
        final boolean sent = (flags & FLAG_FIN) != 0;
        if (sent)
        {
            fragmentSent = 0;
            fragmentPartition = -1;
            pending[p] = false;
            reported[p] = progress[p];
            // read from the cache: every reader of a record counts it, the cache fetched it once (kafka.cache.fetched)
            Metrics.increment(factory.metrics().cacheReads);
        }
        else
        {
            fragmentPartition = p;
        }
        return sent;
    }

    private int writeDataEx(int p, CacheEntry entry, MutableDirectBuffer buffer)
    {
        final CachePartition partition = cursors[p].partition();
        final long stable = partition.stableOffset();
        final long latest = partition.highWatermark();
        int limit;
        if (merged)
        {
            limit = KafkaCacheExtensions.mergedDataHead(buffer, entry.timestamp(), p, entry.offset(), stable, latest, count);
            limit = progressItems(buffer, limit);
        }
        else
        {
            limit = KafkaCacheExtensions.fetchDataHead(buffer, entry.timestamp(), p, entry.offset(), stable, latest);
        }
        return limit < 0 || limit > factory.maxPayload()
            ? -1
            : KafkaCacheExtensions.keyAndHeaders(buffer, limit, entry.key(), entry.headers());
    }

    private int progressItems(MutableDirectBuffer buffer, int limit)
    {
        int at = limit;
        for (int i = 0; i < count; i++)
        {
            if (at + KafkaCacheExtensions.offsetSize() > buffer.capacity())
            {
                return -1;
            }
            final CachePartition partition = cursors[i] != null ? cursors[i].partition() : null;
            at = KafkaCacheExtensions.offset(buffer, at, i, progress[i], partition != null ? partition.stableOffset() : -1L,
                partition != null ? partition.highWatermark() : -1L);
        }
        return at;
    }

    // positions moved past records this stream does not get (filtered, transaction markers): one Flush says so
    private void flushProgress(long traceId)
    {
        if (!replyBegun || replyClosed || fragmentPartition >= 0)
        {
            return;
        }
        boolean moved = merged && !progressTold && count > 0 && attached == count;
        for (int p = merged ? 0 : fetchPartition; p < count; p++)
        {
            moved |= !pending[p] && progress[p] > reported[p];
        }
        if (!moved)
        {
            return;
        }
        progressTold |= merged && attached == count;
        final MutableDirectBuffer buffer = factory.extensionBuffer();
        final int limit;
        if (merged)
        {
            limit = progressItems(buffer, KafkaCacheExtensions.mergedFlushHead(buffer, count));
        }
        else
        {
            final CachePartition partition = cursors[fetchPartition].partition();
            limit = KafkaCacheExtensions.fetchFlush(buffer, fetchPartition, progress[fetchPartition],
                partition.stableOffset(), partition.highWatermark());
        }
        if (limit > 0)
        {
            factory.flush(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, buffer, limit);
            written += FRAME_SIZE + limit;
            for (int p = 0; p < count; p++)
            {
                if (!pending[p])
                {
                    reported[p] = progress[p];
                }
            }
        }
    }

    private void release()
    {
        if (!closed)
        {
            closed = true;
            factory.readers().remove(topic, this);
            if (produce != null)
            {
                produce.close(factory.supplyTraceId());
            }
            for (CacheCursor cursor : cursors)
            {
                if (cursor != null)
                {
                    cursor.close();
                }
            }
        }
    }

    // the stream's filters, OR-ed, each an AND of key and header equalities; null when any passes everything
    private static CacheFilter filter(Array32FW<KafkaFilterFW> filters)
    {
        if (filters == null || filters.count() == 0)
        {
            return null;
        }
        final CacheFilter filter = new CacheFilter();
        final KafkaFilterFW filterRO = new KafkaFilterFW();
        final KafkaConditionFW conditionRO = new KafkaConditionFW();
        final DirectBuffer buffer = filters.buffer();
        for (int at = filters.offset() + Integer.BYTES, i = 0; i < filters.count(); i++)
        {
            final KafkaFilterFW each = filterRO.wrap(buffer, at, filters.limit());
            final Array32FW<KafkaConditionFW> conditions = each.conditions();
            if (conditions.count() == 0)
            {
                return null;
            }
            if (i > 0)
            {
                filter.or();
            }
            for (int c = conditions.offset() + Integer.BYTES, j = 0; j < conditions.count(); j++)
            {
                final KafkaConditionFW condition = conditionRO.wrap(buffer, c, conditions.limit());
                if (condition.kind() == 0)
                {
                    filter.key(copy(condition.key()));
                }
                else
                {
                    final KafkaHeaderFW header = condition.header();
                    filter.header(copy(header.name()), copy(header.value()));
                }
                c = condition.limit();
            }
            at = each.limit();
        }
        return filter;
    }

    private static DirectBuffer copy(KafkaBytesFW bytes)
    {
        if (bytes.length() < 0)
        {
            return null;
        }
        final byte[] copy = new byte[bytes.length()];
        if (copy.length > 0)
        {
            bytes.value().buffer().getBytes(bytes.value().offset(), copy);
        }
        return new UnsafeBuffer(copy);
    }
}
