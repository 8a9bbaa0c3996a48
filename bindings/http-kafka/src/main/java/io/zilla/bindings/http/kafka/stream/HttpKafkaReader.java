/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import java.util.Arrays;
import java.util.List;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.flyweight.Array32FW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import io.zilla.specs.kafka.types.stream.KafkaMergedFetchDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFW;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A MERGED fetch-only stream of one topic from its oldest records, with filters: it hands each record to its
 * {@link Listener} and says when it has caught up, that is when every partition's position has reached the high
 * watermark the exit first reported for it (a kafka cache_client reports every partition's once it can read them all),
 * and again after each record since.
 * The records' value bytes are the listener's to copy: the reader holds nothing, and gives its exit credit back as
 * soon as a frame is read.
 */
final class HttpKafkaReader implements MessageConsumer
{
    private static final int FIN = 0x01;
    private static final int INIT = 0x02;
    private static final int WINDOW = 65536;

    /** What the reader's owner does with what it reads. */
    interface Listener
    {
        /** A record's first fragment ({@code key} and {@code headers} valid in the call only), or a later one. */
        void onRecord(boolean first, boolean last, OctetsFW key, Array32FW<KafkaHeaderFW> headers, OctetsFW value);

        /** The partition and offset of the record whose fragments {@link #onRecord} is given now. */
        default void onPosition(int partitionId, long offset)
        {
        }

        /** Every partition is read up to its high watermark (again, after the records since). */
        void onCaughtUp(long traceId);

        /** The stream failed with Kafka's {@code error} (-1: without one). */
        void onFailed(long traceId, int error);
    }

    private final HttpKafkaProxyFactory factory;
    private final long bindingId;
    private final long exitId;
    private final Listener listener;
    private final StreamSide kafka;

    private long[] next = new long[0];
    // each partition's high watermark as first reported: where the topic ended when the reader began. Caught up means
    // read up to there; waiting for the watermark as it moves never ended while records kept coming (a GET of a topic
    // produced at 2,000 records/s waited for its deadline, then 503)
    private long[] target = new long[0];
    private boolean fragmenting;

    HttpKafkaReader(HttpKafkaProxyFactory factory, long bindingId, long exitId, Listener listener)
    {
        this.factory = factory;
        this.bindingId = bindingId;
        this.exitId = exitId;
        this.listener = listener;
        this.kafka = new StreamSide(factory.frames);
    }

    /**
     * Opens the stream on {@code topic} with the filters: {@code keys[i]} (null: any key) and the header pairs
     * {@code headers[i]} (name, value, name, value...), each filter OR-ed.
     */
    void open(long traceId, byte[] topic, List<byte[]> keys, List<byte[][]> headers)
    {
        final int length = factory.kafkaBeginExRW.wrap(factory.extensionBuffer, 0, factory.extensionBuffer.capacity())
            .typeId(HttpKafkaProxyFactory.KAFKA_TYPE_ID)
            .merged(m ->
            {
                m.capabilities(KafkaMergedCapabilities.FETCH_ONLY).topic(new UnsafeBuffer(topic), 0, topic.length);
                m.partitionsItem(p -> p.partitionId(-1).partitionOffset(-2L));
                for (int i = 0; i < keys.size(); i++)
                {
                    final byte[] key = keys.get(i);
                    final byte[][] pairs = headers.get(i);
                    m.filtersItem(f ->
                    {
                        if (key != null)
                        {
                            f.conditionsItem(c -> c.key(k -> k.value(key)));
                        }
                        for (int h = 0; h < pairs.length; h += 2)
                        {
                            final byte[] name = pairs[h];
                            final byte[] value = pairs[h + 1];
                            f.conditionsItem(c -> c.header(x -> x.name(n -> n.value(name)).value(v -> v.value(value))));
                        }
                    });
                }
            })
            .build()
            .sizeof();
        if (!factory.open(kafka, bindingId, exitId, traceId, length, this))
        {
            listener.onFailed(traceId, -1);
        }
    }

    /** Ends the stream: both directions. */
    void close(long traceId)
    {
        kafka.doInReset(traceId);
        kafka.doOutEnd(traceId);
    }

    /** The progress of every partition, put into the factory's token. */
    void progress()
    {
        factory.token.clear();
        for (int p = 0; p < next.length; p++)
        {
            if (next[p] >= 0)
            {
                factory.token.put(p, next[p]);
            }
        }
    }

    @Override
    public void accept(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!kafka.owns(buffer, index) || kafka.inClosed && msgTypeId != ResetFW.TYPE_ID)
        {
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID ->
            {
                final BeginFW begin = factory.beginRO.wrap(buffer, index, index + length);
                kafka.onInBegin(begin);
                kafka.doInWindow(begin.traceId(), kafka.inSeq, WINDOW, 0);
            }
            case DataFW.TYPE_ID -> onData(factory.dataRO.wrap(buffer, index, index + length));
            case FlushFW.TYPE_ID -> onFlush(factory.flushRO.wrap(buffer, index, index + length));
            case EndFW.TYPE_ID, AbortFW.TYPE_ID ->
            {
                final long traceId = msgTypeId == EndFW.TYPE_ID
                    ? factory.endRO.wrap(buffer, index, index + length).traceId()
                    : factory.abortRO.wrap(buffer, index, index + length).traceId();
                kafka.inClosed = true;
                close(traceId);
                listener.onFailed(traceId, -1);
            }
            case ResetFW.TYPE_ID ->
            {
                if (!kafka.outClosed)
                {
                    final ResetFW reset = factory.resetRO.wrap(buffer, index, index + length);
                    kafka.outClosed = true;
                    kafka.doInReset(reset.traceId());
                    listener.onFailed(reset.traceId(), factory.error(reset));
                }
            }
            default ->
            {
                // a fetch-only stream's initial window means nothing here
            }
        }
    }

    private void onData(DataFW data)
    {
        final long traceId = data.traceId();
        if (!kafka.onInData(data.sequence(), data.reserved()))
        {
            close(traceId);
            listener.onFailed(traceId, -1);
            return;
        }
        final int flags = data.flags();
        final OctetsFW payload = data.payload();
        if ((flags & INIT) != 0)
        {
            final OctetsFW extension = data.extension();
            final KafkaDataExFW dataEx = extension.sizeof() > 0
                ? factory.kafkaDataExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
            if (dataEx == null || dataEx.kind() != KafkaCapability.MERGED || dataEx.merged().kind() != 1)
            {
                close(traceId);
                listener.onFailed(traceId, -1);
                return;
            }
            final KafkaMergedFetchDataExFW fetch = dataEx.merged().fetch();
            fetch.progress().forEach(this::track);
            listener.onPosition(fetch.partition().partitionId(), fetch.partition().partitionOffset());
            listener.onRecord(true, (flags & FIN) != 0, fetch.key().value(), fetch.headers(), payload);
        }
        else if (fragmenting)
        {
            listener.onRecord(false, (flags & FIN) != 0, null, null, payload);
        }
        fragmenting = (flags & FIN) == 0;
        // the bytes are the listener's now: the credit goes back at once, in half windows
        if (kafka.inSeq - kafka.inAck >= WINDOW / 2)
        {
            kafka.doInWindow(traceId, kafka.inSeq, WINDOW, 0);
        }
        if (!fragmenting)
        {
            caughtUp(traceId);
        }
    }

    private void onFlush(FlushFW flush)
    {
        kafka.inSeq += flush.reserved();
        final OctetsFW extension = flush.extension();
        final KafkaFlushExFW flushEx = extension.sizeof() > 0
            ? factory.kafkaFlushExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        if (flushEx != null && flushEx.kind() == KafkaCapability.MERGED)
        {
            flushEx.merged().progress().forEach(this::track);
            if (!fragmenting)
            {
                caughtUp(flush.traceId());
            }
        }
    }

    private void track(KafkaOffsetFW offset)
    {
        final int p = offset.partitionId();
        if (p < 0)
        {
            return;
        }
        if (p >= next.length)
        {
            final int size = next.length;
            next = Arrays.copyOf(next, p + 1);
            target = Arrays.copyOf(target, p + 1);
            Arrays.fill(next, size, p + 1, -1L);
            Arrays.fill(target, size, p + 1, -1L);
        }
        next[p] = Math.max(next[p], offset.partitionOffset());
        if (target[p] < 0)
        {
            target[p] = offset.latestOffset();
        }
    }

    private void caughtUp(long traceId)
    {
        boolean caughtUp = next.length > 0;
        for (int p = 0; p < next.length && caughtUp; p++)
        {
            caughtUp = target[p] >= 0 && next[p] >= target[p];
        }
        if (caughtUp)
        {
            listener.onCaughtUp(traceId);
        }
    }
}
