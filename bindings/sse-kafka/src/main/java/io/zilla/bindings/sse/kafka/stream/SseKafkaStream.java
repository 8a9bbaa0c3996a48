/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.zilla.bindings.sse.kafka.config.SseKafkaFilterConfig;
import io.zilla.bindings.sse.kafka.config.SseKafkaWithConfig;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.config.PathPattern;
import io.zilla.engine.config.ValueTemplate;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.kafka.codec.Base64Url;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import io.zilla.specs.kafka.types.stream.KafkaMergedFetchDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaResetExFW;
import io.zilla.specs.sse.types.stream.SseDataExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One subscription: the sse stream it accepted (it receives on the initial id, sends events on the reply) and the
 * MERGED fetch-only stream it opened to the exit (it sends on the initial id, receives records on the reply).
 *
 * <p>Flow control: the kafka reply is given credit out of the sse reply's, less a reserve for delete events, with the
 * sse reply's padding, so a record's frame fits the sse reply when it comes and nothing is held here: a slow client
 * stops its own merged stream (the cache keeps a cursor for it, nothing more). A frame that does not fit anyway (a
 * delete event's base64url key beyond the reserve) closes the merged stream and opens another from the id of the last
 * event sent, once the sse reply has room for it: the cache then sends that record again, as the next.
 */
final class SseKafkaStream implements MessageConsumer
{
    private static final int FIN = 0x01;
    private static final int INIT = 0x02;
    private static final int OFFSET_OUT_OF_RANGE = 1;
    // the credit kept back from the merged stream for delete events, whose data the kafka side counts as nothing
    private static final int DELETE_RESERVE = 512;
    private static final String DELETE = "delete";
    private static final long EARLIEST = -2L;
    private static final long LATEST = -1L;
    // an event id's first buffer: as long as the one that needs it, at least this (grown by doubling after)
    private static final int ID_CAPACITY = 64;
    // shared empties, so that a stream before its first event, or a route without filters, holds no arrays of its own
    private static final byte[] NO_ID = new byte[0];
    private static final byte[][] NO_KEYS = new byte[0][];
    private static final byte[][][] NO_HEADERS = new byte[0][][];

    final long bindingId;
    final StreamSide sse;
    final StreamSide kafka;
    private final MessageConsumer kafkaHandler = this::onKafkaMessage;
    private final SseKafkaProxyFactory factory;
    private final long exitId;
    private final SseKafkaWithConfig with;

    // resolved from the path when the stream began
    private byte[] topic;
    private byte[][] keys;
    private byte[][][] headers;
    // the client's last event id, until a merged stream opened from it proved it good or bad
    private byte[] startId;
    // the id of the last whole event sent: where a new merged stream starts
    private byte[] lastId = NO_ID;
    private int lastIdLength = -1;
    // the id of the event under way, from its INIT to its FIN
    private byte[] pendingId = NO_ID;
    private int pendingIdLength;

    private boolean retried;
    private boolean fragmenting;
    private int reopenNeeded = -1;
    // the padding last given to the merged stream (-1: no Window yet)
    private int kafkaPad = -1;

    SseKafkaStream(SseKafkaProxyFactory factory, long bindingId, long exitId, SseKafkaWithConfig with)
    {
        this.factory = factory;
        this.bindingId = bindingId;
        this.exitId = exitId;
        this.with = with;
        this.sse = new StreamSide(factory.frames);
        this.kafka = new StreamSide(factory.frames);
    }

    /** The topic and filters with the path's parameters in them, and the last event id: false when one is too long. */
    boolean resolve(PathPattern path, DirectBuffer source, int[] starts, int[] ends, String16FW lastEventId)
    {
        final MutableDirectBuffer scratch = factory.extensionBuffer;
        final int limit = String16FW.MAX_LENGTH;
        topic = resolve(with.topic(), path, source, starts, ends, scratch, limit);
        final int filters = with.filters().size();
        keys = filters > 0 ? new byte[filters][] : NO_KEYS;
        headers = filters > 0 ? new byte[filters][][] : NO_HEADERS;
        boolean resolved = topic != null;
        for (int i = 0; i < keys.length; i++)
        {
            final SseKafkaFilterConfig filter = with.filters().get(i);
            if (filter.key() != null)
            {
                keys[i] = resolve(filter.key(), path, source, starts, ends, scratch, limit);
                resolved &= keys[i] != null;
            }
            headers[i] = new byte[filter.headers().size() * 2][];
            for (int h = 0; h < filter.headers().size(); h++)
            {
                final SseKafkaFilterConfig.Header header = filter.headers().get(h);
                headers[i][2 * h] = header.name().getBytes(UTF_8);
                headers[i][2 * h + 1] = resolve(header.value(), path, source, starts, ends, scratch, limit);
                resolved &= headers[i][2 * h + 1] != null;
            }
        }
        if (lastEventId != null && !lastEventId.isNull())
        {
            startId = new byte[lastEventId.length()];
            lastEventId.buffer().getBytes(lastEventId.valueOffset(), startId);
        }
        return resolved;
    }

    private static byte[] resolve(ValueTemplate template, PathPattern path,
        DirectBuffer source, int[] starts, int[] ends, MutableDirectBuffer scratch, int limit)
    {
        final int length = template.resolve(path, source, starts, ends, scratch, 0, limit);
        if (length < 0)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        scratch.getBytes(0, bytes);
        return bytes;
    }

    // the stream is its own handler: no method reference object per stream
    @Override
    public void accept(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        onSseMessage(msgTypeId, buffer, index, length);
    }

    private void onSseMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!sse.owns(buffer, index))
        {
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onSseBegin(factory.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> doAbortAll(factory.dataRO.wrap(buffer, index, index + length).traceId());
            case EndFW.TYPE_ID -> sse.inClosed = true;
            case AbortFW.TYPE_ID -> onSseAbort(factory.abortRO.wrap(buffer, index, index + length));
            case WindowFW.TYPE_ID -> onSseWindow(factory.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onSseReset(factory.resetRO.wrap(buffer, index, index + length));
            default ->
            {
                // nothing else means anything here
            }
        }
    }

    private void onSseBegin(BeginFW begin)
    {
        sse.onInBegin(begin);
        if (startId != null)
        {
            openKafka(begin.traceId(), new UnsafeBuffer(startId), 0, startId.length);
        }
        else
        {
            openKafka(begin.traceId(), null, 0, 0);
        }
    }

    // the client went away before the events ended: the merged stream ends too
    private void onSseAbort(AbortFW abort)
    {
        sse.inClosed = true;
        closeKafka(abort.traceId());
        sse.doOutAbort(abort.traceId());
        cleanup();
    }

    private void onSseReset(ResetFW reset)
    {
        sse.outClosed = true;
        closeKafka(reset.traceId());
        sse.doInReset(reset.traceId());
        cleanup();
    }

    private void onSseWindow(WindowFW window)
    {
        sse.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        if (reopenNeeded >= 0 && sseCredit() >= reopenNeeded)
        {
            reopenNeeded = -1;
            reopenFromLastEvent(window.traceId());
        }
        else
        {
            grantKafka(window.traceId());
        }
    }

    private long sseCredit()
    {
        return sse.outAck + sse.outMax - sse.outSeq;
    }

    /**
     * Opens the merged stream: from the id's progress (its partitions, the route's default for the others) when
     * {@code id} is one this binding wrote, else from the route's default.
     */
    private void openKafka(long traceId, DirectBuffer id, int offset, int length)
    {
        final boolean fromId = id != null && factory.readId(id, offset, length);
        if (!fromId)
        {
            factory.token.clear();
        }
        if (id != null && !fromId)
        {
            // a forged or foreign id is not an error: the client starts afresh, and gets ids it can resume from
            startId = null;
        }
        final SseKafkaWithConfig.DefaultOffset defaultOffset = with.defaultOffset();
        final KafkaBeginExFW beginEx = factory.kafkaBeginExRW.wrap(factory.extensionBuffer, 0,
                factory.extensionBuffer.capacity())
            .typeId(SseKafkaProxyFactory.KAFKA_TYPE_ID)
            .merged(m ->
            {
                m.capabilities(KafkaMergedCapabilities.FETCH_ONLY).topic(new UnsafeBuffer(topic), 0, topic.length);
                for (int i = 0; i < factory.token.count(); i++)
                {
                    final int partitionId = factory.token.partitionId(i);
                    final long partitionOffset = factory.token.offset(i);
                    m.partitionsItem(p -> p.partitionId(partitionId).partitionOffset(partitionOffset));
                }
                if (defaultOffset != null)
                {
                    final long start = defaultOffset == SseKafkaWithConfig.DefaultOffset.HISTORICAL ? EARLIEST : LATEST;
                    m.partitionsItem(p -> p.partitionId(-1).partitionOffset(start));
                }
                for (int i = 0; i < keys.length; i++)
                {
                    final int filter = i;
                    m.filtersItem(f ->
                    {
                        if (keys[filter] != null)
                        {
                            f.conditionsItem(c -> c.key(k -> k.value(keys[filter])));
                        }
                        for (int h = 0; h < headers[filter].length; h += 2)
                        {
                            final byte[] name = headers[filter][h];
                            final byte[] value = headers[filter][h + 1];
                            f.conditionsItem(c -> c.header(x -> x.name(n -> n.value(name)).value(v -> v.value(value))));
                        }
                    });
                }
            })
            .build();

        final long initialId = factory.context.supplyInitialId(bindingId);
        final long replyId = factory.context.supplyReplyId(initialId);
        final BeginFW begin = new BeginFW.Builder().wrap(factory.writeBuffer, 0, factory.writeBuffer.capacity())
            .originId(bindingId).routedId(exitId).streamId(initialId)
            .sequence(0).acknowledge(0).maximum(0).timestamp(0L)
            .traceId(traceId).authorization(0L).affinity(0L)
            .extension(beginEx.buffer(), beginEx.offset(), beginEx.sizeof())
            .build();
        kafka.reset();
        kafkaPad = -1;
        final MessageConsumer receiver = factory.context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(),
            begin.sizeof(), kafkaHandler);
        kafka.set(receiver != null ? receiver : MessageConsumer.NOOP, bindingId, exitId, replyId, initialId);
        kafka.outOpened = true;
        if (receiver == null)
        {
            onKafkaFailed(traceId, -1);
        }
    }

    private void onKafkaMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!kafka.owns(buffer, index) || closedDirection(msgTypeId))
        {
            // a late frame of a merged stream this one closed (to open another, say): what it still sends is dropped,
            // since the next one starts after the last event the client got
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onKafkaBegin(factory.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onKafkaData(factory.dataRO.wrap(buffer, index, index + length));
            case FlushFW.TYPE_ID -> kafka.inSeq += factory.flushRO.wrap(buffer, index, index + length).reserved();
            case EndFW.TYPE_ID -> onKafkaEnd(factory.endRO.wrap(buffer, index, index + length));
            case AbortFW.TYPE_ID -> onKafkaAbort(factory.abortRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onKafkaReset(factory.resetRO.wrap(buffer, index, index + length));
            case WindowFW.TYPE_ID ->
            {
                // the merged stream's initial window: a fetch-only stream sends nothing on it
            }
            default ->
            {
                // signals mean nothing here
            }
        }
    }

    // a frame of a direction this side closed: the reply it reset, or the initial direction it ended
    private boolean closedDirection(int msgTypeId)
    {
        return msgTypeId == ResetFW.TYPE_ID || msgTypeId == WindowFW.TYPE_ID ? kafka.outClosed : kafka.inClosed;
    }

    private void onKafkaBegin(BeginFW begin)
    {
        kafka.onInBegin(begin);
        // the topic is known: the events begin (a Reset before this is an HTTP error at the sse server)
        sse.doOutBegin(begin.traceId(), null, 0, 0);
        grantKafka(begin.traceId());
    }

    private void onKafkaData(DataFW data)
    {
        final long traceId = data.traceId();
        if (!kafka.onInData(data.sequence(), data.reserved()))
        {
            doAbortAll(traceId);
            return;
        }
        final int flags = data.flags();
        final OctetsFW payload = data.payload();
        DirectBuffer eventData = payload != null ? payload.buffer() : null;
        int eventOffset = payload != null ? payload.offset() : 0;
        int eventLength = payload != null ? payload.sizeof() : 0;
        int extensionLength = 0;
        int idLength = 0;
        if ((flags & INIT) != 0)
        {
            final OctetsFW extension = data.extension();
            final KafkaDataExFW dataEx = extension.sizeof() > 0
                ? factory.kafkaDataExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
            if (dataEx == null || dataEx.kind() != KafkaCapability.MERGED
                || dataEx.merged().kind() != 1)
            {
                doAbortAll(traceId);
                return;
            }
            final KafkaMergedFetchDataExFW fetch = dataEx.merged().fetch();
            factory.token.clear();
            fetch.progress().forEach(factory.putProgress);
            final OctetsFW key = fetch.key().value();
            idLength = factory.writeId(with.eventId(), key);
            final boolean tombstone = payload == null && (flags & FIN) != 0;
            if (tombstone)
            {
                // a delete event: its data the key, base64url (empty for a null key)
                eventLength = key != null ? Base64Url.encode(key.buffer(), key.offset(), key.sizeof(),
                    factory.deleteBuffer, 0, factory.deleteBuffer.capacity()) : 0;
                eventData = factory.deleteBuffer;
                eventOffset = 0;
            }
            if (idLength < 0 || eventLength < 0)
            {
                factory.context.event(bindingId, traceId, "sse-kafka.event.too.large", "the id or the key of the record at"
                    + " partition " + fetch.partition().partitionId() + " offset " + fetch.partition().partitionOffset()
                    + " is larger than a frame can carry");
                doAbortAll(traceId);
                return;
            }
            final SseDataExFW.Builder builder = factory.sseDataExRW.wrap(factory.extensionBuffer, 0,
                    factory.extensionBuffer.capacity())
                .typeId(SseKafkaProxyFactory.SSE_TYPE_ID)
                .timestamp(fetch.timestamp())
                .id(factory.idBuffer, 0, idLength);
            if (tombstone)
            {
                builder.type(DELETE);
            }
            extensionLength = builder.build().sizeof();
        }

        final int reserved = eventLength + sse.outPad;
        if (sse.outSeq + reserved > sse.outAck + sse.outMax || sse.outClosed)
        {
            onNoRoom(traceId, reserved);
            return;
        }
        factory.frames.data(sse.target, sse.originId, sse.routedId, sse.outboundId, sse.outSeq, sse.outAck, sse.outMax,
            traceId, flags, 0L, reserved, eventData, eventOffset, eventLength,
            extensionLength > 0 ? factory.extensionBuffer : null, 0, extensionLength);
        sse.outSeq += reserved;
        fragmenting = (flags & FIN) == 0;
        if ((flags & INIT) != 0)
        {
            // the id the client may resume from once this event is whole (its FIN may be this frame)
            holdId(idLength);
        }
        if ((flags & FIN) != 0)
        {
            final byte[] whole = pendingId;
            pendingId = lastId;
            lastId = whole;
            lastIdLength = pendingIdLength;
        }
        grantKafka(traceId);
    }

    // the event does not fit the sse reply's credit (a delete event's key beyond the reserve)
    private void onNoRoom(long traceId, int reserved)
    {
        if (fragmenting || reserved > sse.outMax)
        {
            // part of the event went, or it can never fit: the client reconnects with its last whole event's id
            factory.context.event(bindingId, traceId, "sse-kafka.event.too.large", "an event of " + reserved
                + " bytes does not fit the client's window of " + sse.outMax);
            doAbortAll(traceId);
            return;
        }
        closeKafka(traceId);
        factory.onReopened(bindingId);
        reopenNeeded = reserved;
        if (sseCredit() >= reopenNeeded)
        {
            reopenNeeded = -1;
            reopenFromLastEvent(traceId);
        }
    }

    private void holdId(int length)
    {
        if (length > pendingId.length)
        {
            pendingId = new byte[Math.max(length, Math.max(ID_CAPACITY, pendingId.length * 2))];
        }
        factory.idBuffer.getBytes(0, pendingId, 0, length);
        pendingIdLength = length;
    }

    private void reopenFromLastEvent(long traceId)
    {
        if (lastIdLength >= 0)
        {
            openKafka(traceId, new UnsafeBuffer(lastId), 0, lastIdLength);
        }
        else if (startId != null)
        {
            openKafka(traceId, new UnsafeBuffer(startId), 0, startId.length);
        }
        else
        {
            openKafka(traceId, null, 0, 0);
        }
    }

    // the credit of the kafka reply: what the sse reply can take now, less the reserve, never taken back; a Window goes
    // once the merged stream has used half of what it may have, not per record (a Window per event per subscriber
    // would double the frames of a fan-out)
    private void grantKafka(long traceId)
    {
        if (!kafka.inOpened || kafka.inClosed || !sse.outOpened || sse.outClosed)
        {
            return;
        }
        final int reserve = Math.min(DELETE_RESERVE, sse.outMax / 4);
        final long open = Math.max(0L, sseCredit() - reserve);
        final long current = kafka.inAck + kafka.inMax;
        final long limit = Math.max(kafka.inSeq + open, current);
        final long remaining = current - kafka.inSeq;
        if (sse.outPad != kafkaPad || limit > current && remaining <= (limit - kafka.inSeq) / 2)
        {
            kafkaPad = sse.outPad;
            kafka.doInWindow(traceId, kafka.inSeq, (int) (limit - kafka.inSeq), kafkaPad);
        }
    }

    private void onKafkaEnd(EndFW end)
    {
        kafka.inClosed = true;
        kafka.doOutEnd(end.traceId());
        endSse(end.traceId());
    }

    private void onKafkaAbort(AbortFW abort)
    {
        kafka.inClosed = true;
        kafka.doOutAbort(abort.traceId());
        endSse(abort.traceId());
    }

    private void onKafkaReset(ResetFW reset)
    {
        final OctetsFW extension = reset.extension();
        final KafkaResetExFW resetEx = extension.sizeof() > 0
            ? factory.kafkaResetExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        onKafkaFailed(reset.traceId(), resetEx != null ? resetEx.error() : -1);
    }

    private void onKafkaFailed(long traceId, int error)
    {
        kafka.outClosed = true;
        kafka.doInReset(traceId);
        if (error == OFFSET_OUT_OF_RANGE && !retried && (startId != null || lastIdLength >= 0))
        {
            // an id beyond what Kafka holds (forged, or of a topic created again): once from the route's default,
            // so that such an id is never an error loop
            retried = true;
            startId = null;
            lastIdLength = -1;
            openKafka(traceId, null, 0, 0);
            return;
        }
        if (!sse.outOpened)
        {
            // before any event: the sse server answers the request with an error
            sse.doInReset(traceId);
            sse.outClosed = true;
            cleanup();
        }
        else
        {
            endSse(traceId);
        }
    }

    // the events end cleanly: the client reconnects with its last event id, as EventSource does by itself
    private void endSse(long traceId)
    {
        closeKafka(traceId);
        if (fragmenting)
        {
            sse.doOutAbort(traceId);
        }
        else
        {
            sse.doOutEnd(traceId);
        }
        cleanup();
    }

    private void closeKafka(long traceId)
    {
        kafka.doInReset(traceId);
        kafka.doOutEnd(traceId);
    }

    void doAbortAll(long traceId)
    {
        kafka.doInReset(traceId);
        kafka.doOutAbort(traceId);
        sse.doInReset(traceId);
        sse.doOutAbort(traceId);
        cleanup();
    }

    private void cleanup()
    {
        if (sse.outClosed && (sse.inClosed || !sse.inOpened) || sse.closed())
        {
            if (!sse.inClosed)
            {
                // the request direction carries nothing: once the events are over, so is it
                sse.doInReset(factory.context.supplyTraceId());
            }
            factory.onClosed(this);
        }
    }
}
