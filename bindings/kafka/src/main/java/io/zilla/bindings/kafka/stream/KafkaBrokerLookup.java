/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Asks a bootstrap server which brokers the cluster has, for a client that connects to a node's port before this
 * proxy has seen that node in a Metadata response (typically right after zilla restarts, while clients still hold
 * the old metadata). It sends Metadata v4 for no topics, which every broker from Kafka 1.0 to 4.x answers without
 * negotiating versions first, and learns the addresses through the same rewriter as the clients' own Metadata.
 * Rare, so it allocates freely.
 */
final class KafkaBrokerLookup
{
    private static final int TCP_TYPE_ID = "tcp".hashCode();
    private static final int METADATA_VERSION = 4;
    private static final int CORRELATION_ID = 0x2a11a;
    private static final byte[] CLIENT_ID = "zilla-proxy".getBytes();
    private static final DirectBuffer METADATA_REQUEST = metadataRequest();

    private final EngineContext context;
    private final StreamFrames frames;
    private final KafkaResponseRewriter rewriter;
    private final Runnable completed;
    private final long routedId;
    private final long exitId;
    private final long initialId;
    private final long replyId;
    private final HeldBytes reply;
    private final MutableDirectBuffer writeBuffer;

    private MessageConsumer net;
    private long initialSeq;
    private long initialAck;
    private int initialMax;
    private long replySeq;
    private long replyAck;
    private int replyMax;
    private boolean requested;
    private boolean initialClosed;
    private boolean replyClosed;
    private boolean done;
    private boolean answered;

    KafkaBrokerLookup(EngineContext context, StreamFrames frames, KafkaResponseRewriter rewriter, long routedId,
        long exitId, Runnable completed)
    {
        this.context = context;
        this.frames = frames;
        this.rewriter = rewriter;
        this.completed = completed;
        this.routedId = routedId;
        this.exitId = exitId;
        this.initialId = context.supplyInitialId(exitId);
        this.replyId = context.supplyReplyId(initialId);
        this.reply = new HeldBytes(context.bufferPool(), replyId);
        this.writeBuffer = context.writeBuffer();
    }

    void start(long traceId, String host, int port)
    {
        final MutableDirectBuffer extension = new UnsafeBuffer(new byte[256 + host.length()]);
        final TcpBeginExFW beginEx = new TcpBeginExFW.Builder().wrap(extension, 0, extension.capacity())
            .typeId(TCP_TYPE_ID)
            .sourceHost((String) null)
            .sourcePort(0)
            .destinationHost(host)
            .destinationPort(port)
            .build();
        final BeginFW begin = new BeginFW.Builder().wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(routedId).routedId(exitId).streamId(initialId)
            .sequence(0).acknowledge(0).maximum(0)
            .traceId(traceId)
            .extension(beginEx.buffer(), beginEx.offset(), beginEx.sizeof())
            .build();
        net = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), this::onNetMessage);
        if (net == null)
        {
            complete(traceId);
        }
    }

    private void onNetMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!done)
        {
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onNetBegin(new BeginFW().wrap(buffer, index, index + length));
                case WindowFW.TYPE_ID -> onNetWindow(new WindowFW().wrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onNetData(new DataFW().wrap(buffer, index, index + length));
                case ResetFW.TYPE_ID ->
                {
                    initialClosed = true;
                    complete(context.supplyTraceId());
                }
                case EndFW.TYPE_ID, AbortFW.TYPE_ID ->
                {
                    replyClosed = true;
                    complete(context.supplyTraceId());
                }
                default ->
                {
                    // flushes and signals do not matter to a lookup
                }
            }
        }
    }

    private void onNetBegin(BeginFW begin)
    {
        replySeq = begin.sequence();
        replyAck = begin.acknowledge();
        replyMax = reply.capacity();
        frames.window(net, routedId, exitId, replyId, replySeq, replyAck, replyMax, begin.traceId(), 0L, 0);
    }

    private void onNetWindow(WindowFW window)
    {
        initialAck = window.acknowledge();
        initialMax = window.maximum();
        final int length = METADATA_REQUEST.capacity();
        if (!requested && initialMax - (int) (initialSeq - initialAck) >= length + window.padding())
        {
            requested = true;
            final int reserved = length + window.padding();
            final DataFW data = new DataFW.Builder().wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(routedId).routedId(exitId).streamId(initialId)
                .sequence(initialSeq).acknowledge(initialAck).maximum(initialMax)
                .traceId(window.traceId())
                .flags(0x03)
                .budgetId(0L)
                .reserved(reserved)
                .payload(METADATA_REQUEST, 0, length)
                .build();
            net.accept(DataFW.TYPE_ID, data.buffer(), data.offset(), data.sizeof());
            initialSeq += reserved;
        }
    }

    private void onNetData(DataFW data)
    {
        final OctetsFW payload = data.payload();
        replySeq += data.reserved();
        if (payload == null || !reply.append(payload.buffer(), payload.offset(), payload.sizeof()))
        {
            complete(data.traceId());
        }
        else if (reply.size() >= Integer.BYTES)
        {
            final DirectBuffer buffer = reply.buffer();
            // the broker's size is checked before any arithmetic: at least a correlation id, at most what is held whole
            final int size = buffer.getInt(reply.offset(), BIG_ENDIAN);
            if (size < Integer.BYTES || size > KafkaProxyFactory.MAX_RESPONSE_SIZE)
            {
                complete(data.traceId());
            }
            else
            {
                final int frameSize = Integer.BYTES + size;
                if (reply.size() >= frameSize)
                {
                    // the brokers are learned as the rewriter maps them; the rewritten response itself is not needed
                    rewriter.rewrite(KafkaApis.METADATA, METADATA_VERSION, buffer, reply.offset(),
                        reply.offset() + frameSize);
                    answered = true;
                    complete(data.traceId());
                }
                else
                {
                    reply.ensureCapacity(frameSize);
                    replyMax = reply.capacity();
                    frames.window(net, routedId, exitId, replyId, replySeq, replyAck, replyMax, data.traceId(), 0L, 0);
                }
            }
        }
    }

    /** Whether the broker answered: false when the connection failed or closed first, or the answer was too big. */
    boolean answered()
    {
        return answered;
    }

    private void complete(long traceId)
    {
        if (!done)
        {
            done = true;
            if (net != null && !initialClosed)
            {
                frames.end(net, routedId, exitId, initialId, initialSeq, initialAck, initialMax, traceId);
            }
            if (net != null && !replyClosed)
            {
                frames.reset(net, routedId, exitId, replyId, replySeq, replyAck, replyMax, traceId, null, 0, 0);
            }
            reply.release();
            completed.run();
        }
    }

    // header v1 (api key, version, correlation id, client id), then an empty topics array and no auto-creation
    private static DirectBuffer metadataRequest()
    {
        final int size = 2 + 2 + 4 + 2 + CLIENT_ID.length + 4 + 1;
        final UnsafeBuffer request = new UnsafeBuffer(new byte[Integer.BYTES + size]);
        int offset = 0;
        request.putInt(offset, size, BIG_ENDIAN);
        offset += Integer.BYTES;
        request.putShort(offset, KafkaApis.METADATA, BIG_ENDIAN);
        offset += Short.BYTES;
        request.putShort(offset, (short) METADATA_VERSION, BIG_ENDIAN);
        offset += Short.BYTES;
        request.putInt(offset, CORRELATION_ID, BIG_ENDIAN);
        offset += Integer.BYTES;
        request.putShort(offset, (short) CLIENT_ID.length, BIG_ENDIAN);
        offset += Short.BYTES;
        request.putBytes(offset, CLIENT_ID);
        offset += CLIENT_ID.length;
        request.putInt(offset, 0, BIG_ENDIAN);
        offset += Integer.BYTES;
        request.putByte(offset, (byte) 0);
        return request;
    }
}
