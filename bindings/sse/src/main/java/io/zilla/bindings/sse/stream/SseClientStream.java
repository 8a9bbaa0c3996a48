/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import io.zilla.bindings.sse.SseBinding;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import io.zilla.specs.sse.types.stream.SseBeginExFW;
import io.zilla.specs.sse.types.stream.SseDataExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One proxied subscription: the sse stream it accepted ({@link #sse}: it receives the request, sends the events) and
 * the http request it opened to the exit ({@link #http}: a GET, whose response is an upstream's text/event-stream).
 *
 * <p>The response's bytes are copied into an input slot (the http reply's credit is that slot's room) and read from
 * there by {@link SseEventParser} into an event slot, as far as the sse reply's credit lets the events go: an event is
 * sent once its blank line is read and the sse reply has room for it, else reading waits for a Window. So a subscriber
 * that stops reading stops its upstream, with two slots held at most. An event larger than its slot's data region (its
 * type or id longer than {@link SseEventParser#FIELD_LIMIT}) aborts the stream (event sse.event.overflow).
 */
final class SseClientStream
{
    private static final DirectBuffer METHOD = SseEventFormat.ascii(":method");
    private static final DirectBuffer SCHEME = SseEventFormat.ascii(":scheme");
    private static final DirectBuffer AUTHORITY = SseEventFormat.ascii(":authority");
    private static final DirectBuffer PATH = SseEventFormat.ascii(":path");
    private static final DirectBuffer ACCEPT = SseEventFormat.ascii("accept");
    private static final DirectBuffer LAST_EVENT_ID = SseEventFormat.ascii("last-event-id");
    private static final DirectBuffer GET = SseEventFormat.ascii("GET");
    private static final DirectBuffer HTTP = SseEventFormat.ascii("http");
    private static final DirectBuffer LOCALHOST = SseEventFormat.ascii("localhost");
    private static final DirectBuffer EVENT_STREAM = SseEventFormat.ascii("text/event-stream");
    private static final byte[] STATUS = SseServerShared.bytes(":status");
    private static final byte[] CONTENT_TYPE = SseServerShared.bytes("content-type");
    private static final byte[] EVENT_STREAM_TYPE = SseServerShared.bytes("text/event-stream");
    private static final int REQUEST_CREDIT = 8192;

    final StreamSide sse;
    final StreamSide http;
    final MessageConsumer onSse = this::onSseMessage;
    final MessageConsumer onHttp = this::onHttpMessage;

    private final SseClientFactory factory;
    private final SseServerShared shared;
    private final BufferPool pool;
    private final SseEventParser.Event event = new SseEventParser.Event();
    private final int[] progress = new int[1];

    private int inputSlot = BufferPool.NO_SLOT;
    private int inputOffset;
    private int inputLength;
    private int eventSlot = BufferPool.NO_SLOT;
    private boolean dispatchPending;
    private boolean upstreamEnded;
    private boolean done;

    SseClientStream(SseClientFactory factory)
    {
        this.factory = factory;
        this.shared = factory.shared;
        this.pool = factory.context.bufferPool();
        this.sse = new StreamSide(shared.frames);
        this.http = new StreamSide(shared.frames);
    }

    // ---- the sse stream accepted

    private void onSseMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!sse.owns(buffer, index))
        {
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onSseBegin(shared.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID ->
            {
                final DataFW data = shared.dataRO.wrap(buffer, index, index + length);
                if (!sse.onInData(data.sequence(), data.reserved()))
                {
                    doAbortAll(data.traceId());
                    return;
                }
                sse.doInWindow(data.traceId(), sse.inSeq, REQUEST_CREDIT, 0);
            }
            case FlushFW.TYPE_ID -> sse.inSeq += shared.flushRO.wrap(buffer, index, index + length).reserved();
            case EndFW.TYPE_ID ->
            {
                sse.inClosed = true;
                cleanup();
            }
            case AbortFW.TYPE_ID ->
            {
                sse.inClosed = true;
                doAbortAll(shared.abortRO.wrap(buffer, index, index + length).traceId());
            }
            case WindowFW.TYPE_ID ->
            {
                final WindowFW window = shared.windowRO.wrap(buffer, index, index + length);
                sse.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
                read(window.traceId());
            }
            case ResetFW.TYPE_ID ->
            {
                sse.outClosed = true;
                doAbortAll(shared.resetRO.wrap(buffer, index, index + length).traceId());
            }
            default ->
            {
                // signals and challenges: none asked for
            }
        }
    }

    private void onSseBegin(BeginFW begin)
    {
        final long traceId = begin.traceId();
        sse.onInBegin(begin);
        sse.doInWindow(traceId, sse.inSeq, REQUEST_CREDIT, 0);
        final OctetsFW extension = begin.extension();
        final SseBeginExFW beginEx = extension != null && extension.sizeof() > 0
            ? shared.sseBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        if (beginEx == null || beginEx.typeId() != SseBinding.TYPE_ID || beginEx.path().isNull())
        {
            refuse(traceId, 400);
            return;
        }
        final DirectBuffer buffer = beginEx.buffer();
        final long exitId = factory.resolve(buffer, beginEx.path().valueOffset(), beginEx.path().length());
        if (exitId == 0L)
        {
            refuse(traceId, 404);
            return;
        }
        final MutableDirectBuffer out = shared.extension;
        int at = SseServerShared.startHeaders(out);
        int count = 0;
        at = SseServerShared.putHeader(out, at, METHOD, GET, 0, GET.capacity());
        count++;
        at = beginEx.scheme().isNull() ? SseServerShared.putHeader(out, at, SCHEME, HTTP, 0, HTTP.capacity())
            : SseServerShared.putHeader(out, at, SCHEME, buffer, beginEx.scheme().valueOffset(), beginEx.scheme().length());
        count++;
        at = beginEx.authority().isNull() ? SseServerShared.putHeader(out, at, AUTHORITY, LOCALHOST, 0, LOCALHOST.capacity())
            : SseServerShared.putHeader(out, at, AUTHORITY, buffer, beginEx.authority().valueOffset(),
                beginEx.authority().length());
        count++;
        at = SseServerShared.putHeader(out, at, PATH, buffer, beginEx.path().valueOffset(), beginEx.path().length());
        count++;
        at = SseServerShared.putHeader(out, at, ACCEPT, EVENT_STREAM, 0, EVENT_STREAM.capacity());
        count++;
        if (!beginEx.lastId().isNull())
        {
            at = SseServerShared.putHeader(out, at, LAST_EVENT_ID, buffer, beginEx.lastId().valueOffset(),
                beginEx.lastId().length());
            count++;
        }
        SseServerShared.endHeaders(out, count);
        if (!openHttp(traceId, exitId, out, at))
        {
            refuse(traceId, 503);
            return;
        }
        // a GET has no body: the request is complete
        http.doOutEnd(traceId);
    }

    private boolean openHttp(long traceId, long exitId, DirectBuffer extension, int length)
    {
        final long initialId = factory.context.supplyInitialId(exitId);
        final long replyId = factory.context.supplyReplyId(initialId);
        final MutableDirectBuffer writeBuffer = factory.context.writeBuffer();
        final BeginFW begin = shared.beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(factory.binding.id()).routedId(exitId).streamId(initialId)
            .sequence(0).acknowledge(0).maximum(0)
            .traceId(traceId)
            .extension(extension, 0, length)
            .build();
        final MessageConsumer target = factory.context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(),
            begin.sizeof(), onHttp);
        if (target == null)
        {
            return false;
        }
        http.set(target, factory.binding.id(), exitId, replyId, initialId);
        http.outOpened = true;
        return true;
    }

    // ---- the http request to the upstream

    private void onHttpMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!http.owns(buffer, index))
        {
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onHttpBegin(shared.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onHttpData(shared.dataRO.wrap(buffer, index, index + length));
            case FlushFW.TYPE_ID -> http.inSeq += shared.flushRO.wrap(buffer, index, index + length).reserved();
            case EndFW.TYPE_ID -> onHttpEnd(shared.endRO.wrap(buffer, index, index + length).traceId());
            case AbortFW.TYPE_ID -> onHttpAbort(shared.abortRO.wrap(buffer, index, index + length).traceId());
            case WindowFW.TYPE_ID ->
            {
                final WindowFW window = shared.windowRO.wrap(buffer, index, index + length);
                http.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
            }
            case ResetFW.TYPE_ID -> onHttpReset(shared.resetRO.wrap(buffer, index, index + length).traceId());
            default ->
            {
            }
        }
    }

    private void onHttpBegin(BeginFW begin)
    {
        final long traceId = begin.traceId();
        http.onInBegin(begin);
        if (done)
        {
            http.doInReset(traceId);
            cleanup();
            return;
        }
        final OctetsFW extension = begin.extension();
        final HttpBeginExFW headers = extension != null && extension.sizeof() > 0
            ? shared.httpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        int status = 0;
        boolean eventStream = false;
        if (headers != null && headers.typeId() == SseServerShared.HTTP_TYPE_ID)
        {
            final int count = headers.headers().count();
            int offset = headers.headers().offset() + Integer.BYTES;
            for (int i = 0; i < count; i++)
            {
                final HttpHeaderFW header = shared.headerRO.wrap(headers.buffer(), offset, headers.limit());
                offset = header.limit();
                if (SseServerShared.nameIs(header, STATUS))
                {
                    status = digits(header.value().buffer(), header.value().valueOffset(), header.value().length());
                }
                else if (SseServerShared.nameIs(header, CONTENT_TYPE))
                {
                    eventStream = startsWith(header.value().buffer(), header.value().valueOffset(), header.value().length(),
                        EVENT_STREAM_TYPE);
                }
            }
        }
        if (status != 200 || !eventStream)
        {
            factory.event(traceId, "sse.upstream.refused", "the upstream answered " + status
                + (eventStream ? "" : ", not text/event-stream"));
            http.doInReset(traceId);
            refuse(traceId, status >= 400 && status <= 599 ? status : 502);
            return;
        }
        sse.doOutBegin(traceId, null, 0, 0);
        doHttpWindow(traceId);
    }

    private void onHttpData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (!http.onInData(data.sequence(), reserved))
        {
            doAbortAll(traceId);
            return;
        }
        final OctetsFW payload = data.payload();
        final int length = payload != null ? payload.sizeof() : 0;
        if (length > 0 && !done)
        {
            if (inputSlot == BufferPool.NO_SLOT)
            {
                inputSlot = pool.acquire(http.inboundId);
                if (inputSlot == BufferPool.NO_SLOT)
                {
                    factory.event(traceId, "sse.buffer.exhausted", "no buffer slot for the upstream's bytes");
                    doAbortAll(traceId);
                    return;
                }
                inputOffset = 0;
                inputLength = 0;
            }
            final MutableDirectBuffer input = pool.buffer(inputSlot);
            if (inputOffset + inputLength + length > input.capacity())
            {
                input.putBytes(0, input, inputOffset, inputLength);
                inputOffset = 0;
            }
            if (inputLength + length > input.capacity())
            {
                // the upstream sent more than the credit it was given
                doAbortAll(traceId);
                return;
            }
            input.putBytes(inputOffset + inputLength, payload.buffer(), payload.offset(), length);
            inputLength += length;
        }
        read(traceId);
    }

    private void onHttpEnd(long traceId)
    {
        http.inClosed = true;
        upstreamEnded = true;
        read(traceId);
    }

    private void onHttpAbort(long traceId)
    {
        http.inClosed = true;
        doAbortAll(traceId);
    }

    private void onHttpReset(long traceId)
    {
        http.outClosed = true;
        if (!sse.outOpened && !done)
        {
            refuse(traceId, 502);
            return;
        }
        cleanup();
    }

    // ---- the events

    /** Reads what waits in the input slot into events, as far as the sse reply's credit lets them go. */
    private void read(long traceId)
    {
        if (done || !sse.outOpened)
        {
            return;
        }
        while (true)
        {
            if (dispatchPending)
            {
                if (!dispatch(traceId))
                {
                    break;
                }
                continue;
            }
            if (inputLength == 0)
            {
                break;
            }
            if (!acquireEventSlot(traceId))
            {
                return;
            }
            final MutableDirectBuffer input = pool.buffer(inputSlot);
            final int result = SseEventParser.parse(event, input, inputOffset, inputOffset + inputLength, progress);
            if (result == SseEventParser.OVERFLOW)
            {
                factory.event(traceId, "sse.event.overflow", "an upstream event larger than a buffer slot: the stream aborts");
                doAbortAll(traceId);
                return;
            }
            final int consumed = result == SseEventParser.DISPATCH ? progress[0] - inputOffset : inputLength;
            inputOffset += consumed;
            inputLength -= consumed;
            dispatchPending = result == SseEventParser.DISPATCH;
        }
        if (inputLength == 0 && inputSlot != BufferPool.NO_SLOT)
        {
            pool.release(inputSlot);
            inputSlot = BufferPool.NO_SLOT;
            inputOffset = 0;
        }
        if (!dispatchPending && event.idle() && eventSlot != BufferPool.NO_SLOT)
        {
            pool.release(eventSlot);
            eventSlot = BufferPool.NO_SLOT;
            event.buffer = null;
        }
        if (upstreamEnded && inputLength == 0 && !dispatchPending)
        {
            // an event without its blank line is dropped, as a browser drops it; an id not yet sent goes with the end
            done = true;
            endSse(traceId);
            cleanup();
            return;
        }
        doHttpWindow(traceId);
    }

    private boolean acquireEventSlot(long traceId)
    {
        if (eventSlot == BufferPool.NO_SLOT)
        {
            eventSlot = pool.acquire(sse.outboundId);
            if (eventSlot == BufferPool.NO_SLOT)
            {
                factory.event(traceId, "sse.buffer.exhausted", "no buffer slot for an upstream event");
                doAbortAll(traceId);
                return false;
            }
            event.buffer = pool.buffer(eventSlot);
        }
        return true;
    }

    /** Sends the event read, if the sse reply has room for it; whether it went. */
    private boolean dispatch(long traceId)
    {
        final int length = event.dataLength - 1;
        if (sse.outCredit() < length || sse.outMax == 0)
        {
            return false;
        }
        final MutableDirectBuffer ext = shared.extension;
        final SseDataExFW.Builder dataEx = shared.sseDataExRW.wrap(ext, 0, ext.capacity())
            .typeId(SseBinding.TYPE_ID)
            .timestamp(0L);
        if (event.idLength >= 0)
        {
            dataEx.id(event.buffer, event.idOffset(), event.idLength);
        }
        else
        {
            dataEx.id((String) null);
        }
        if (event.typeLength > 0)
        {
            dataEx.type(event.buffer, event.typeOffset(), event.typeLength);
        }
        else
        {
            dataEx.type((String) null);
        }
        final int extensionLength = dataEx.build().sizeof();
        final int reserved = length + sse.outPad;
        shared.frames.data(sse.target, sse.originId, sse.routedId, sse.outboundId, sse.outSeq, sse.outAck, sse.outMax,
            traceId, 0x03, 0L, reserved, event.buffer, event.dataOffset(), length, ext, 0, extensionLength);
        sse.outSeq += reserved;
        event.dispatched();
        dispatchPending = false;
        return true;
    }

    private void endSse(long traceId)
    {
        if (event.idLength >= 0 && event.buffer != null)
        {
            final int length = shared.sseEndExRW.wrap(shared.extension, 0, shared.extension.capacity())
                .typeId(SseBinding.TYPE_ID)
                .id(event.buffer, event.idOffset(), event.idLength)
                .build().sizeof();
            if (sse.outOpened && !sse.outClosed)
            {
                final MutableDirectBuffer writeBuffer = factory.context.writeBuffer();
                final EndFW end = shared.endRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(sse.originId).routedId(sse.routedId).streamId(sse.outboundId)
                    .sequence(sse.outSeq).acknowledge(sse.outAck).maximum(sse.outMax).timestamp(0L)
                    .traceId(traceId).authorization(0L)
                    .extension(shared.extension, 0, length)
                    .build();
                sse.target.accept(EndFW.TYPE_ID, end.buffer(), end.offset(), end.sizeof());
            }
            sse.outClosed = true;
        }
        else
        {
            sse.doOutEnd(traceId);
        }
    }

    /** The http reply's credit: the input slot's room. */
    private void doHttpWindow(long traceId)
    {
        if (!http.inOpened || http.inClosed || done)
        {
            return;
        }
        final long ack = http.inSeq - inputLength;
        final int max = pool.slotCapacity();
        if (ack != http.inAck || max != http.inMax)
        {
            http.doInWindow(traceId, ack, max, 0);
        }
    }

    /** The subscription cannot be served: its initial direction is reset with the status to answer. */
    private void refuse(long traceId, int status)
    {
        done = true;
        final int length = shared.sseResetExRW.wrap(shared.extension, 0, shared.extension.capacity())
            .typeId(SseBinding.TYPE_ID)
            .status(status)
            .build().sizeof();
        sse.doInReset(traceId, shared.extension, 0, length);
        sse.doOutAbort(traceId);
        http.doOutAbort(traceId);
        http.doInReset(traceId);
        cleanup();
    }

    void doAbortAll(long traceId)
    {
        done = true;
        sse.doOutAbort(traceId);
        sse.doInReset(traceId);
        http.doOutAbort(traceId);
        http.doInReset(traceId);
        cleanup();
    }

    private void cleanup()
    {
        if (sse.closed() && http.closed())
        {
            if (inputSlot != BufferPool.NO_SLOT)
            {
                pool.release(inputSlot);
                inputSlot = BufferPool.NO_SLOT;
            }
            if (eventSlot != BufferPool.NO_SLOT)
            {
                pool.release(eventSlot);
                eventSlot = BufferPool.NO_SLOT;
            }
            final long initialId = sse.inboundId;
            sse.reset();
            http.reset();
            event.reset();
            inputOffset = 0;
            inputLength = 0;
            dispatchPending = false;
            upstreamEnded = false;
            done = false;
            factory.release(this, initialId);
        }
    }

    private static int digits(DirectBuffer buffer, int offset, int length)
    {
        int value = 0;
        for (int i = 0; i < length; i++)
        {
            final byte b = buffer.getByte(offset + i);
            if (b < '0' || b > '9' || i == 3)
            {
                return 0;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    private static boolean startsWith(DirectBuffer buffer, int offset, int length, byte[] prefix)
    {
        if (length < prefix.length)
        {
            return false;
        }
        for (int i = 0; i < prefix.length; i++)
        {
            final byte b = buffer.getByte(offset + i);
            if ((b >= 'A' && b <= 'Z' ? b + 32 : b) != prefix[i])
            {
                return false;
            }
        }
        return length == prefix.length || buffer.getByte(offset + prefix.length) == ';'
            || buffer.getByte(offset + prefix.length) == ' ';
    }
}
