/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One MERGED produce-only stream of a worker for a topic, exit and acks, shared by every request that produces there:
 * a request's record goes whole, from its first fragment to its last, before the next request's (the queue), and each
 * request is answered once the stream's acknowledgement passes the end of its record (Kafka acknowledges a merged
 * stream's records in the order they were written). One stream, not one per request: a merged stream holds a produce
 * stream per partition, each with buffer slots for its batches, so that a stream per request of 100 concurrent ones on
 * a connection took hundreds of slots; shared, the slots a worker takes are those of the topic's partitions, once.
 */
final class HttpKafkaProducer implements MessageConsumer
{
    /** A request that writes a record through the producer. */
    interface Writer
    {
        /** It is the writer's turn, or the stream has more credit: it writes what it can. */
        void onWritable(long traceId);

        /** Kafka acknowledged its record. */
        void onProduced(long traceId);

        /** The stream failed with Kafka's {@code error} (-1: without one) before its record was acknowledged. */
        void onProduceFailed(long traceId, int error);
    }

    /** What a producer is the worker's one of: its exit, acks and topic; a probe to look up with is set again. */
    static final class Key
    {
        private long exitId;
        private short acks;
        // the topic's name: its first length bytes
        private DirectBuffer topic;
        private int length;

        Key set(long exitId, short acks, DirectBuffer topic, int length)
        {
            this.exitId = exitId;
            this.acks = acks;
            this.topic = topic;
            this.length = length;
            return this;
        }

        byte[] topic()
        {
            final byte[] bytes = new byte[length];
            topic.getBytes(0, bytes);
            return bytes;
        }

        @Override
        public boolean equals(Object other)
        {
            return other instanceof Key key && key.exitId == exitId && key.acks == acks && key.length == length
                && sameTopic(key.topic);
        }

        private boolean sameTopic(DirectBuffer other)
        {
            boolean same = true;
            for (int i = 0; i < length && same; i++)
            {
                same = other.getByte(i) == topic.getByte(i);
            }
            return same;
        }

        @Override
        public int hashCode()
        {
            int hash = Long.hashCode(exitId) * 31 + acks;
            for (int i = 0; i < length; i++)
            {
                hash = hash * 31 + topic.getByte(i);
            }
            return hash;
        }
    }

    final Key key;
    final long bindingId;
    private final HttpKafkaProxyFactory factory;
    private final long exitId;
    private final byte[] topic;
    private final short acks;
    private final StreamSide kafka;
    private final ArrayDeque<Writer> writers = new ArrayDeque<>();
    private final ArrayDeque<Writer> unacked = new ArrayDeque<>();
    private final LongArrayQueue unackedAt = new LongArrayQueue();
    private final AtomicLong acknowledgedAt;
    private boolean writing;

    HttpKafkaProducer(HttpKafkaProxyFactory factory, Key key, long bindingId)
    {
        this.factory = factory;
        this.key = key;
        this.bindingId = bindingId;
        this.exitId = key.exitId;
        this.topic = key.topic();
        this.acks = key.acks;
        this.kafka = new StreamSide(factory.frames);
        this.acknowledgedAt = factory.freshness.topic(new String(topic, StandardCharsets.UTF_8));
    }

    void open(long traceId)
    {
        final KafkaAckMode ackMode = acks == 0 ? KafkaAckMode.NONE : acks == 1 ? KafkaAckMode.LEADER_ONLY
            : KafkaAckMode.IN_SYNC_REPLICAS;
        final int length = factory.kafkaBeginExRW.wrap(factory.extensionBuffer, 0, factory.extensionBuffer.capacity())
            .typeId(HttpKafkaProxyFactory.KAFKA_TYPE_ID)
            .merged(m -> m.capabilities(KafkaMergedCapabilities.PRODUCE_ONLY)
                .topic(new UnsafeBuffer(topic), 0, topic.length)
                .ackMode(ackMode))
            .build()
            .sizeof();
        if (!factory.open(kafka, bindingId, exitId, traceId, length, this))
        {
            fail(traceId, -1);
        }
    }

    boolean closed()
    {
        return kafka.outClosed;
    }

    /** Queues the writer: it is told {@link Writer#onWritable} when its turn comes (at once when it is first). */
    void enqueue(Writer writer, long traceId)
    {
        writers.add(writer);
        if (writers.peek() == writer)
        {
            writer.onWritable(traceId);
        }
    }

    /** Whether it is {@code writer}'s turn to write. */
    boolean first(Writer writer)
    {
        return writers.peek() == writer;
    }

    /** Whether a frame may go now: the stream's first Window came (Kafka knows the topic), with credit for its padding. */
    boolean writable()
    {
        return kafka.outMax > 0 && kafka.outCredit() >= 0;
    }

    /** The credit for one frame's payload now: only the first writer writes. */
    int credit()
    {
        return kafka.outCredit();
    }

    /** The stream's window now: the credit it comes back to once its records are acknowledged. */
    int maximum()
    {
        return kafka.outMax;
    }

    int padding()
    {
        return kafka.outPad;
    }

    /** Writes a fragment (or all) of the first writer's record: {@code payload} null for a null value. */
    void write(long traceId, int flags, DirectBuffer payload, int offset, int length, DirectBuffer extension,
        int extensionLength)
    {
        writing = (flags & 0x01) == 0;
        final int reserved = (payload != null ? length : 0) + kafka.outPad;
        factory.frames.data(kafka.target, kafka.originId, kafka.routedId, kafka.outboundId, kafka.outSeq, kafka.outAck,
            kafka.outMax, traceId, flags, 0L, reserved, payload, offset, length, extension, 0, extensionLength);
        kafka.outSeq += reserved;
    }

    /** The first writer wrote its record's last fragment: it waits for the acknowledgement, the next writes. */
    void written(Writer writer, long traceId)
    {
        writers.remove(writer);
        unacked.add(writer);
        unackedAt.addLong(kafka.outSeq);
        acknowledged(traceId);
        final Writer next = writers.peek();
        if (next != null && !kafka.outClosed)
        {
            next.onWritable(traceId);
        }
    }

    /**
     * A writer gives up (its deadline passed, its client went away): out of the queue when it has not begun its record;
     * one that is part way through its record cannot take the fragments back, so the stream fails for everyone.
     */
    void cancel(Writer writer, long traceId)
    {
        if (writers.peek() == writer && writing)
        {
            fail(traceId, -1);
            return;
        }
        final boolean first = writers.peek() == writer;
        writers.remove(writer);
        // a writer whose record is written stays for its acknowledgement, which it ignores once answered
        final Writer next = writers.peek();
        if (first && next != null)
        {
            next.onWritable(traceId);
        }
    }

    @Override
    public void accept(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!kafka.owns(buffer, index))
        {
            return;
        }
        switch (msgTypeId)
        {
            case WindowFW.TYPE_ID ->
            {
                final WindowFW window = factory.windowRO.wrap(buffer, index, index + length);
                kafka.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
                acknowledged(window.traceId());
                final Writer first = writers.peek();
                if (first != null)
                {
                    first.onWritable(window.traceId());
                }
            }
            case ResetFW.TYPE_ID ->
            {
                final ResetFW reset = factory.resetRO.wrap(buffer, index, index + length);
                kafka.outClosed = true;
                final int error = factory.error(reset);
                factory.context.event(bindingId, reset.traceId(), "http-kafka.produce.failed", "the produce stream of "
                    + new String(topic, StandardCharsets.UTF_8) + " failed with Kafka error " + error);
                fail(reset.traceId(), error);
            }
            case BeginFW.TYPE_ID ->
            {
                final BeginFW begin = factory.beginRO.wrap(buffer, index, index + length);
                kafka.onInBegin(begin);
            }
            case EndFW.TYPE_ID -> fail(factory.endRO.wrap(buffer, index, index + length).traceId(), -1);
            case AbortFW.TYPE_ID -> fail(factory.abortRO.wrap(buffer, index, index + length).traceId(), -1);
            default ->
            {
                // the reply of a produce-only stream carries nothing
            }
        }
    }

    private void acknowledged(long traceId)
    {
        if (!unackedAt.isEmpty() && unackedAt.peekLong() <= kafka.outAck)
        {
            acknowledgedAt.set(System.currentTimeMillis());
        }
        while (!unackedAt.isEmpty() && unackedAt.peekLong() <= kafka.outAck)
        {
            unackedAt.pollLong();
            unacked.poll().onProduced(traceId);
        }
    }

    /** Ends the stream for good: every writer, queued or waiting for its acknowledgement, fails. */
    void close(long traceId)
    {
        fail(traceId, -1);
    }

    private void fail(long traceId, int error)
    {
        factory.onClosed(this);
        kafka.doOutAbort(traceId);
        kafka.doInReset(traceId);
        kafka.outClosed = true;
        while (!unacked.isEmpty())
        {
            unacked.poll().onProduceFailed(traceId, error);
        }
        unackedAt.clear();
        while (!writers.isEmpty())
        {
            writers.poll().onProduceFailed(traceId, error);
        }
    }
}
