/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import io.zilla.bindings.sse.SseBinding;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.metrics.Metrics;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.ChallengeFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.sse.types.stream.SseDataExFW;
import io.zilla.specs.sse.types.stream.SseEndExFW;
import io.zilla.specs.sse.types.stream.SseResetExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One subscription: the http request stream it serves ({@link #http}: it receives the request, sends the response)
 * and the sse stream it opened to the exit ({@link #exit}: it sends the request, receives the events).
 *
 * <p>Flow control: the exit's events become the response's body, which the http reply's credit bounds. The exit gets
 * that credit, less what is in flight to the client and what waits here, with each event's framing as padding
 * ({@link #FRAMING_PADDING} more than the http reply's own): an event whose text form is no longer than its payload and
 * that padding goes out at once. One whose form is longer (many line breaks, a long id) and does not fit what the
 * client has room for waits, the rest of it, in a buffer slot that the stream holds only while it is not empty; the
 * exit's credit shrinks by what waits, so that a client that stops reading stops its own exit and nothing else, with at
 * most one slot held for it. An event whose rest does not fit the slot aborts the stream (event sse.event.overflow).
 */
final class SseServerStream implements MessageConsumer
{
    /** What the exit pays per event beyond its payload, besides the http reply's padding: the head of an event. */
    static final int FRAMING_PADDING = 128;

    private static final int FIN = 0x01;
    private static final int INIT = 0x02;
    private static final int CHALLENGE = 0x01;
    private static final int KEEP_ALIVE_SIGNAL = 1;
    // the timer wheel's tick: a keep-alive due within it is due now
    private static final long TICK_MILLIS = 8;
    // a GET has no body, but what a client sends is read and dropped, within this credit
    private static final int REQUEST_CREDIT = 8192;

    final StreamSide http;
    final StreamSide exit;
    final MessageConsumer onExit = this::onExitMessage;

    private final SseServerFactory factory;
    private final SseServerShared shared;
    private final BufferPool pool;
    private final Signaler signaler;

    // the response is answered here (an error), or the event stream is done: the exit's reply is not wanted now
    private boolean answered;
    private boolean replyBegun;
    /** The request carried a last event id: counted as a resume once its stream is answered. */
    boolean resuming;
    private boolean retryPending;
    private boolean endPending;
    // the last byte of the event's last fragment was a CR: an LF first in the next is the same line break
    private boolean crBefore;
    private int slot = BufferPool.NO_SLOT;
    private int slotOffset;
    private int slotLength;
    private long keepAliveId = Signaler.NO_CANCEL_ID;
    private long lastWriteAt;

    SseServerStream(SseServerFactory factory)
    {
        this.factory = factory;
        this.shared = factory.shared;
        this.pool = factory.context.bufferPool();
        this.signaler = factory.context.signaler();
        this.http = new StreamSide(shared.frames);
        this.exit = new StreamSide(shared.frames);
    }

    boolean openExit(long traceId, long exitId, DirectBuffer extension, int length)
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
            begin.sizeof(), onExit);
        if (target == null)
        {
            return false;
        }
        exit.set(target, factory.binding.id(), exitId, replyId, initialId);
        exit.outOpened = true;
        return true;
    }

    // ---- the http request stream

    // the stream is its own handler: no method reference object per stream
    @Override
    public void accept(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        onHttpMessage(msgTypeId, buffer, index, length);
    }

    private void onHttpMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!http.owns(buffer, index))
        {
            // a late frame of the request this object served before
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onHttpBegin(shared.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onHttpData(shared.dataRO.wrap(buffer, index, index + length));
            case FlushFW.TYPE_ID -> http.inSeq += shared.flushRO.wrap(buffer, index, index + length).reserved();
            case EndFW.TYPE_ID -> onHttpEnd();
            case AbortFW.TYPE_ID -> onHttpAbort(shared.abortRO.wrap(buffer, index, index + length).traceId());
            case WindowFW.TYPE_ID -> onHttpWindow(shared.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onHttpReset(shared.resetRO.wrap(buffer, index, index + length).traceId());
            case SignalFW.TYPE_ID -> onHttpSignal(shared.signalRO.wrap(buffer, index, index + length));
            default ->
            {
                // nothing else comes on a request stream
            }
        }
    }

    private void onHttpBegin(BeginFW begin)
    {
        final long traceId = begin.traceId();
        http.onInBegin(begin);
        http.doInWindow(traceId, http.inSeq, REQUEST_CREDIT, 0);
        final int status = factory.open(this, begin);
        if (status != 0)
        {
            answer(traceId, status);
        }
    }

    private void onHttpData(DataFW data)
    {
        final long traceId = data.traceId();
        if (!http.onInData(data.sequence(), data.reserved()))
        {
            doAbortAll(traceId);
            return;
        }
        // a request body means nothing to an event stream: dropped, and its credit given back
        http.doInWindow(traceId, http.inSeq, REQUEST_CREDIT, 0);
    }

    private void onHttpEnd()
    {
        http.inClosed = true;
        cleanup();
    }

    private void onHttpAbort(long traceId)
    {
        // the client went away
        http.inClosed = true;
        doAbortAll(traceId);
    }

    private void onHttpReset(long traceId)
    {
        // the client takes no more of the response (it closed its connection or reset its h2 stream)
        http.outClosed = true;
        doAbortAll(traceId);
    }

    private void onHttpWindow(WindowFW window)
    {
        final long traceId = window.traceId();
        http.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        flush(traceId);
    }

    private void onHttpSignal(SignalFW signal)
    {
        if (signal.signalId() != KEEP_ALIVE_SIGNAL || signal.cancelId() != keepAliveId)
        {
            return;
        }
        keepAliveId = Signaler.NO_CANCEL_ID;
        if (answered || http.outClosed)
        {
            return;
        }
        final long now = System.currentTimeMillis();
        final int interval = factory.options.keepAlive();
        final long due = lastWriteAt + interval;
        if (now + TICK_MILLIS >= due)
        {
            // a client that is not reading needs no comment: the bytes waiting for it keep nothing alive
            if (slotLength == 0 && http.outCredit() >= 2)
            {
                shared.scratch.putByte(0, (byte) ':');
                shared.scratch.putByte(1, SseEventFormat.LF);
                write(signal.traceId(), shared.scratch, 0, 2);
            }
            schedule(now + interval);
        }
        else
        {
            schedule(due);
        }
    }

    // ---- the exit's stream

    private void onExitMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!exit.owns(buffer, index))
        {
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onExitBegin(shared.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onExitData(shared.dataRO.wrap(buffer, index, index + length));
            case FlushFW.TYPE_ID -> onExitFlush(shared.flushRO.wrap(buffer, index, index + length));
            case EndFW.TYPE_ID -> onExitEnd(shared.endRO.wrap(buffer, index, index + length));
            case AbortFW.TYPE_ID -> onExitAbort(shared.abortRO.wrap(buffer, index, index + length).traceId());
            case WindowFW.TYPE_ID ->
            {
                final WindowFW window = shared.windowRO.wrap(buffer, index, index + length);
                exit.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
            }
            case ResetFW.TYPE_ID -> onExitReset(shared.resetRO.wrap(buffer, index, index + length));
            case ChallengeFW.TYPE_ID -> onExitChallenge(shared.challengeRO.wrap(buffer, index, index + length));
            default ->
            {
                // signals are the http side's
            }
        }
    }

    private void onExitBegin(BeginFW begin)
    {
        final long traceId = begin.traceId();
        exit.onInBegin(begin);
        if (answered || http.outClosed)
        {
            exit.doInReset(traceId);
            cleanup();
            return;
        }
        replyBegun = true;
        Metrics.increment(factory.metrics.active);
        if (resuming)
        {
            Metrics.increment(factory.metrics.resumes);
        }
        retryPending = true;
        http.doOutBegin(traceId, shared.okHead, 0, shared.okHeadLength);
        lastWriteAt = System.currentTimeMillis();
        if (factory.options.keepAlive() > 0)
        {
            schedule(lastWriteAt + factory.options.keepAlive());
        }
        flush(traceId);
    }

    private void onExitData(DataFW data)
    {
        final long traceId = data.traceId();
        if (!exit.onInData(data.sequence(), data.reserved()))
        {
            factory.event(traceId, "sse.exit.flow", "the exit sent more than its credit: the stream is aborted");
            doAbortAll(traceId);
            return;
        }
        if (answered || !replyBegun || http.outClosed)
        {
            return;
        }
        final int flags = data.flags();
        final boolean init = (flags & INIT) != 0;
        final boolean fin = (flags & FIN) != 0;
        DirectBuffer idBuffer = null;
        int idOffset = 0;
        int idLength = -1;
        DirectBuffer typeBuffer = null;
        int typeOffset = 0;
        int typeLength = -1;
        if (init)
        {
            Metrics.increment(factory.metrics.events);
            crBefore = false;
            final OctetsFW extension = data.extension();
            final SseDataExFW dataEx = extension != null && extension.sizeof() > 0
                ? shared.sseDataExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
            if (dataEx != null && dataEx.typeId() == SseBinding.TYPE_ID)
            {
                final String16FW id = dataEx.id();
                if (!id.isNull() && SseEventFormat.oneLine(id.buffer(), id.valueOffset(), id.length()))
                {
                    idBuffer = id.buffer();
                    idOffset = id.valueOffset();
                    idLength = id.length();
                }
                final String16FW type = dataEx.type();
                if (!type.isNull() && SseEventFormat.oneLine(type.buffer(), type.valueOffset(), type.length()))
                {
                    typeBuffer = type.buffer();
                    typeOffset = type.valueOffset();
                    typeLength = type.length();
                }
            }
        }
        final OctetsFW payload = data.payload();
        final DirectBuffer payloadBuffer = payload != null ? payload.buffer() : shared.scratch;
        final int payloadOffset = payload != null ? payload.offset() : 0;
        final int payloadLength = payload != null ? payload.sizeof() : 0;
        final int length = SseEventFormat.length(idLength, typeLength, payloadBuffer, payloadOffset, payloadLength, init,
            fin, crBefore);
        if (length > shared.scratch.capacity())
        {
            overflow(traceId);
            return;
        }
        final boolean wasCr = crBefore;
        crBefore = !fin && SseEventFormat.endsWithCr(payloadBuffer, payloadOffset, payloadLength, wasCr);
        final int claimed = slotLength == 0 && length <= http.outCredit() ? http.claimOutData(length) : -1;
        if (claimed >= 0)
        {
            // the common case: the event fits the client's credit, and is written once, in place where http reads it
            SseEventFormat.write(http.outBuffer(), claimed, idBuffer, idOffset, idLength, typeBuffer, typeOffset, typeLength,
                payloadBuffer, payloadOffset, payloadLength, init, fin, wasCr);
            http.commitOutData(traceId, claimed, length);
            lastWriteAt = System.currentTimeMillis();
            doExitWindow(traceId);
            return;
        }
        final int limit = SseEventFormat.write(shared.scratch, 0, idBuffer, idOffset, idLength, typeBuffer, typeOffset,
            typeLength, payloadBuffer, payloadOffset, payloadLength, init, fin, wasCr);
        if (write(traceId, shared.scratch, 0, limit))
        {
            doExitWindow(traceId);
        }
    }

    private void onExitFlush(FlushFW flush)
    {
        exit.inSeq += flush.reserved();
        doExitWindow(flush.traceId());
    }

    private void onExitEnd(EndFW end)
    {
        final long traceId = end.traceId();
        exit.inClosed = true;
        exit.doOutEnd(traceId);
        if (answered || !replyBegun || http.outClosed)
        {
            cleanup();
            return;
        }
        if (retryPending && !writeRetry(traceId))
        {
            return;
        }
        final OctetsFW extension = end.extension();
        final SseEndExFW endEx = extension != null && extension.sizeof() > 0
            ? shared.sseEndExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        if (endEx != null && endEx.typeId() == SseBinding.TYPE_ID)
        {
            final String16FW id = endEx.id();
            if (!id.isNull() && SseEventFormat.oneLine(id.buffer(), id.valueOffset(), id.length()))
            {
                final int limit = SseEventFormat.writeId(shared.scratch, 0, id.buffer(), id.valueOffset(), id.length());
                if (!write(traceId, shared.scratch, 0, limit))
                {
                    return;
                }
            }
        }
        endPending = true;
        flush(traceId);
    }

    private void onExitAbort(long traceId)
    {
        exit.inClosed = true;
        exit.doOutAbort(traceId);
        if (replyBegun && !answered)
        {
            // the events stop short: the client sees a broken response, and its EventSource reconnects
            answered = true;
            http.doOutAbort(traceId);
        }
        http.doInReset(traceId);
        cleanup();
    }

    private void onExitReset(ResetFW reset)
    {
        final long traceId = reset.traceId();
        exit.outClosed = true;
        if (!replyBegun && !answered)
        {
            final OctetsFW extension = reset.extension();
            final SseResetExFW resetEx = extension != null && extension.sizeof() > 0
                ? shared.sseResetExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
            final int status = resetEx != null && resetEx.typeId() == SseBinding.TYPE_ID
                && resetEx.status() >= 400 && resetEx.status() <= 599 ? resetEx.status() : 503;
            answer(traceId, status);
            return;
        }
        cleanup();
    }

    private void onExitChallenge(ChallengeFW challenge)
    {
        final long traceId = challenge.traceId();
        if (answered || !replyBegun || http.outClosed)
        {
            return;
        }
        if (retryPending && !writeRetry(traceId))
        {
            return;
        }
        // event: challenge, its data what follows the challenge extension's type id (a guard's JSON, say)
        final OctetsFW extension = challenge.extension();
        final int offset = extension != null ? extension.offset() + Math.min(Integer.BYTES, extension.sizeof()) : 0;
        final int length = extension != null ? extension.limit() - offset : 0;
        final DirectBuffer buffer = extension != null ? extension.buffer() : shared.scratch;
        final int size = SseEventFormat.length(-1, CHALLENGE_TYPE.capacity(), buffer, offset, length, true, true, false);
        if (size > shared.scratch.capacity())
        {
            overflow(traceId);
            return;
        }
        final int limit = SseEventFormat.write(shared.scratch, 0, null, 0, -1, CHALLENGE_TYPE, 0, CHALLENGE_TYPE.capacity(),
            buffer, offset, length, true, true, false);
        write(traceId, shared.scratch, 0, limit);
    }

    private static final DirectBuffer CHALLENGE_TYPE = SseEventFormat.ascii("challenge");

    // ---- writing the response

    /** The http reply has (more) credit: what waits goes, then the retry line, the end, the exit's credit. */
    private void flush(long traceId)
    {
        if (answered || !replyBegun || http.outClosed)
        {
            return;
        }
        drain(traceId);
        if (retryPending && http.outMax > 0 && !writeRetry(traceId))
        {
            return;
        }
        if (retryPending)
        {
            // no credit yet: the retry line goes first, once the client's first Window comes
            return;
        }
        if (endPending)
        {
            if (slotLength == 0)
            {
                answered = true;
                http.doOutEnd(traceId);
                cleanup();
            }
            return;
        }
        doExitWindow(traceId);
    }

    /**
     * Writes the retry line, which goes before anything else of the stream: also before bytes the binding writes on its
     * own ahead of the client's first Window (the end's id, a challenge), which then wait after it in the slot.
     *
     * @return false when the stream was aborted
     */
    private boolean writeRetry(long traceId)
    {
        retryPending = false;
        final int limit = SseEventFormat.writeRetry(shared.scratch, 0, factory.options.retry());
        return write(traceId, shared.scratch, 0, limit);
    }

    /**
     * Sends {@code length} bytes on the http reply as its credit allows and keeps the rest in the slot, after what
     * waits there already.
     *
     * @return false when they did not fit and the stream is aborted
     */
    private boolean write(long traceId, DirectBuffer buffer, int offset, int length)
    {
        int from = offset;
        int left = length;
        if (slotLength == 0)
        {
            final int now = Math.min(Math.max(http.outCredit(), 0), left);
            if (now > 0)
            {
                http.doOutData(traceId, buffer, from, now);
                from += now;
                left -= now;
                lastWriteAt = System.currentTimeMillis();
            }
        }
        if (left == 0)
        {
            return true;
        }
        if (slot == BufferPool.NO_SLOT)
        {
            slot = pool.acquire(http.outboundId);
            if (slot == BufferPool.NO_SLOT)
            {
                factory.event(traceId, "sse.buffer.exhausted", "no buffer slot for an event the client has no room for");
                doAbortAll(traceId);
                return false;
            }
            slotOffset = 0;
        }
        final MutableDirectBuffer held = pool.buffer(slot);
        if (slotOffset + slotLength + left > pool.slotCapacity())
        {
            held.putBytes(0, held, slotOffset, slotLength);
            slotOffset = 0;
            if (slotLength + left > pool.slotCapacity())
            {
                overflow(traceId);
                return false;
            }
        }
        held.putBytes(slotOffset + slotLength, buffer, from, left);
        slotLength += left;
        return true;
    }

    /** Sends what waits in the slot, as the http reply's credit allows; gives the slot back once it is empty. */
    private void drain(long traceId)
    {
        if (slotLength > 0)
        {
            final int now = Math.min(Math.max(http.outCredit(), 0), slotLength);
            if (now > 0)
            {
                http.doOutData(traceId, pool.buffer(slot), slotOffset, now);
                slotOffset += now;
                slotLength -= now;
                lastWriteAt = System.currentTimeMillis();
            }
        }
        if (slotLength == 0)
        {
            releaseSlot();
        }
    }

    /**
     * Gives the exit the http reply's credit, less what is in flight to the client and what waits here: its sequence
     * is acknowledged as far as what it sent is no longer held anywhere on the way.
     */
    private void doExitWindow(long traceId)
    {
        if (!exit.inOpened || exit.inClosed || retryPending || endPending || answered)
        {
            return;
        }
        final long inFlight = http.outSeq - http.outAck + slotLength;
        final long ack = Math.max(exit.inAck, exit.inSeq - inFlight);
        final int max = http.outMax;
        final int padding = http.outPad + FRAMING_PADDING;
        if (ack != exit.inAck || max != exit.inMax)
        {
            exit.inAck = ack;
            exit.inMax = max;
            final WindowFW window = shared.windowRW.wrap(factory.context.writeBuffer(), 0,
                    factory.context.writeBuffer().capacity())
                .originId(exit.originId).routedId(exit.routedId).streamId(exit.inboundId)
                .sequence(exit.inSeq).acknowledge(ack).maximum(max).timestamp(0L)
                .traceId(traceId).authorization(0L)
                .budgetId(0L)
                .padding(padding)
                .minimum(0)
                .capabilities(CHALLENGE)
                .build();
            exit.target.accept(WindowFW.TYPE_ID, window.buffer(), window.offset(), window.sizeof());
        }
    }

    /** Answers the request here with {@code status} and no body; the exit's stream, if open, is done. */
    private void answer(long traceId, int status)
    {
        answered = true;
        final int length = shared.errorHead(status, status == 405);
        http.doOutBegin(traceId, shared.head, 0, length);
        http.doOutEnd(traceId);
        exit.doOutAbort(traceId);
        exit.doInReset(traceId);
        cleanup();
    }

    private void overflow(long traceId)
    {
        factory.event(traceId, "sse.event.overflow",
            "an event larger than the client has room for and a buffer slot: the stream is aborted");
        doAbortAll(traceId);
    }

    /** Ends both streams abruptly: the client is gone, or a stream broke its protocol. */
    void doAbortAll(long traceId)
    {
        answered = true;
        exit.doOutAbort(traceId);
        exit.doInReset(traceId);
        http.doOutAbort(traceId);
        http.doInReset(traceId);
        cleanup();
    }

    private void schedule(long at)
    {
        keepAliveId = signaler.signalAt(at, http.originId, http.routedId, http.outboundId, 0L, KEEP_ALIVE_SIGNAL, 0);
    }

    private void releaseSlot()
    {
        if (slot != BufferPool.NO_SLOT)
        {
            pool.release(slot);
            slot = BufferPool.NO_SLOT;
        }
        slotOffset = 0;
        slotLength = 0;
    }

    private void cleanup()
    {
        if (http.closed() && exit.closed())
        {
            releaseSlot();
            if (keepAliveId != Signaler.NO_CANCEL_ID)
            {
                signaler.cancel(keepAliveId);
                keepAliveId = Signaler.NO_CANCEL_ID;
            }
            final long httpInitialId = http.inboundId;
            if (replyBegun)
            {
                Metrics.decrement(factory.metrics.active);
            }
            http.reset();
            exit.reset();
            answered = false;
            replyBegun = false;
            resuming = false;
            retryPending = false;
            endPending = false;
            crBefore = false;
            lastWriteAt = 0L;
            factory.release(this, httpInitialId);
        }
    }
}
