/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.stream;

import static io.zilla.engine.internal.stream.Frames.ABORT;
import static io.zilla.engine.internal.stream.Frames.BEGIN;
import static io.zilla.engine.internal.stream.Frames.DATA;
import static io.zilla.engine.internal.stream.Frames.DATA_LENGTH_OFFSET;
import static io.zilla.engine.internal.stream.Frames.END;
import static io.zilla.engine.internal.stream.Frames.RESET;
import static io.zilla.engine.internal.stream.Frames.ROUTED_ID_OFFSET;
import static io.zilla.engine.internal.stream.Frames.STREAM_ID_OFFSET;
import static io.zilla.engine.internal.stream.Frames.TRACE_ID_OFFSET;
import static io.zilla.engine.internal.stream.Frames.isForward;
import static org.agrona.BitUtil.align;

import java.util.ArrayDeque;
import java.util.function.LongFunction;

import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.InPlaceWriter;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.internal.metrics.BindingCounters;
import io.zilla.engine.internal.metrics.StreamMetrics;
import io.zilla.engine.metrics.Metrics;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * Delivers the frames of one worker's ring to the bindings, and keeps the table of its streams. Every frame
 * a binding sends is written to the ring (by the {@link #writer()}); draining the ring hands each frame to the
 * opener or the acceptor of its stream. An exception while a binding handles a frame, or a ring too full to
 * take a frame, ends only that stream: both sides are told (Reset and Abort), the binding's counters and the
 * event log record it, and the worker goes on.
 */
public final class StreamDispatcher implements ControlledMessageHandler
{
    private final RingBuffer ring;
    private final int commitThreshold;
    private int uncommitted;
    private final StreamTable streams = new StreamTable();
    // pairs of forgotten streams, for the next ones: a stream's frames are found by its id, so once its id is out of
    // streams no frame reaches its pair, and the pair may serve another id
    private final ArrayDeque<StreamPair> sparePairs = new ArrayDeque<>();
    private final LongFunction<BindingHandler> handlers;
    private final LongFunction<BindingCounters> counters;
    private final FaultReporter reporter;
    private final InPlaceWriter writer = new RingWriter();
    private final LongArrayList overloaded = new LongArrayList();
    private final MutableDirectBuffer faultBuffer = new UnsafeBuffer(new byte[256]);
    private final StreamFrames faultFrames = new StreamFrames(faultBuffer);
    private final ArrayDeque<StreamTree> spareTrees = new ArrayDeque<>();
    private final int streamsPerConnection;
    // the initial id of the stream whose frame a binding is handling now (0 outside a delivery: a poller callback, a
    // task): a stream it opens meanwhile belongs to that stream's tree. Deliveries never nest, since a binding's frames
    // go through the ring. A long, not the pair itself: written twice per frame, a reference would cost the garbage
    // collector's write barrier each time
    private long delivering;
    // the stream the engine is ending (terminate, a refused Begin): no longer in the table, but its tree still counts
    private StreamPair ending;

    public StreamDispatcher(RingBuffer ring, LongFunction<BindingHandler> handlers, LongFunction<BindingCounters> counters,
        FaultReporter reporter)
    {
        this(ring, handlers, counters, reporter, Integer.MAX_VALUE);
    }

    /** @param streamsPerConnection the most streams one inbound connection may have open at once (StreamTree) */
    public StreamDispatcher(RingBuffer ring, LongFunction<BindingHandler> handlers, LongFunction<BindingCounters> counters,
        FaultReporter reporter, int streamsPerConnection)
    {
        this.ring = ring;
        this.commitThreshold = ring.capacity() / 8;
        this.handlers = handlers;
        this.counters = counters;
        this.reporter = reporter;
        this.streamsPerConnection = streamsPerConnection;
    }

    /** Where bindings write every frame they send: the ring, by copy or built in place. */
    public MessageConsumer writer()
    {
        return writer;
    }

    /** The streams open now. */
    public int streams()
    {
        return streams.size();
    }

    /** Whether a stream of this initial id is open now. */
    public boolean isOpen(long initialId)
    {
        return streams.get(initialId) != null;
    }

    /** The slot for the next stream id the worker makes (StreamIds): one free now, where its pair is found by index. */
    public int nextSlot()
    {
        return streams.nextSlot();
    }

    /**
     * Registers a new stream's opener and writes its Begin to the ring.
     *
     * @return the writer, or null when the Begin's routedId names no binding, or the connection that caused the
     *         stream has as many open as it may (nothing is written; the opener treats it as having no route)
     */
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final long routedId = buffer.getLong(index + ROUTED_ID_OFFSET);
        final long originId = buffer.getLong(index + Frames.ORIGIN_ID_OFFSET);
        final long streamId = buffer.getLong(index + STREAM_ID_OFFSET);
        if (msgTypeId != BEGIN || !StreamIds.isInitial(streamId) || handlers.apply(routedId) == null)
        {
            return null;
        }
        final StreamPair cause = ending != null ? ending : delivering != 0L ? streams.get(delivering) : null;
        final StreamTree tree = cause != null ? cause.tree : newTree();
        if (tree.streams >= streamsPerConnection)
        {
            counters.apply(originId).streamsRefused.incrementRelease();
            if (!tree.capped)
            {
                tree.capped = true;
                reporter.capped(originId, buffer.getLong(index + TRACE_ID_OFFSET), streamsPerConnection);
            }
            return null;
        }
        tree.streams++;
        final StreamPair spare = sparePairs.poll();
        final StreamPair pair = (spare != null ? spare : new StreamPair()).init(streamId, originId, routedId, sender,
            counters.apply(originId), counters.apply(routedId));
        pair.tree = tree;
        streams.put(pair);
        pair.openerCounters.streamsOpened.incrementRelease();
        write(msgTypeId, buffer, index, length);
        return writer;
    }

    /** Drains up to {@code limit} frames from the ring; returns how many. */
    public int drain(int limit)
    {
        uncommitted = 0;
        final int frames = ring.controlledRead(this, limit);
        return frames + abortOverloaded();
    }

    /**
     * Delivers one frame. The ring frees what was read only when told to: bindings write while the ring is being
     * drained, so the space of frames already delivered is given back every eighth of the ring, not only at the
     * end of a batch, or a busy batch would find the ring full of frames it has already handled.
     */
    @Override
    public Action onMessage(int msgTypeId, MutableDirectBuffer buffer, int index, int length)
    {
        deliver(msgTypeId, buffer, index, length);
        uncommitted += length;
        if (uncommitted >= commitThreshold)
        {
            uncommitted = 0;
            return Action.COMMIT;
        }
        return Action.CONTINUE;
    }

    private void deliver(int msgTypeId, MutableDirectBuffer buffer, int index, int length)
    {
        final long streamId = buffer.getLong(index + STREAM_ID_OFFSET);
        final StreamPair pair = streams.get(StreamIds.initialIdOf(streamId));
        if (pair == null || pair.has(StreamPair.OVERLOADED))
        {
            // a frame that crossed its stream's end (a Window after an End, a Data after a Reset): nobody is waiting
            return;
        }
        final boolean initial = StreamIds.isInitial(streamId);
        final boolean forward = isForward(msgTypeId);
        if (initial && msgTypeId == BEGIN && pair.acceptor == null && !accept(pair, msgTypeId, buffer, index, length))
        {
            return;
        }
        // forward frames go to the direction's receiver, backward frames to its sender
        final boolean toAcceptor = initial == forward;
        final MessageConsumer receiver = toAcceptor ? pair.acceptor : pair.opener;
        count(pair, toAcceptor, msgTypeId, buffer, index);
        if (pair.openerCounters.stream != null || pair.acceptorCounters.stream != null)
        {
            record(pair, initial, toAcceptor, msgTypeId, buffer, index);
        }
        delivering = pair.initialId;
        try
        {
            receiver.accept(msgTypeId, buffer, index, length);
        }
        catch (Throwable ex)
        {
            delivering = 0L;
            fail(pair, toAcceptor ? pair.routedId : pair.originId, buffer.getLong(index + TRACE_ID_OFFSET), ex);
            return;
        }
        delivering = 0L;
        track(pair, initial, msgTypeId);
    }

    private boolean accept(StreamPair pair, int msgTypeId, MutableDirectBuffer buffer, int index, int length)
    {
        final BindingHandler handler = handlers.apply(pair.routedId);
        MessageConsumer acceptor = null;
        Throwable failure = null;
        delivering = pair.initialId;
        try
        {
            acceptor = handler != null ? handler.newStream(msgTypeId, buffer, index, length, writer) : null;
        }
        catch (Throwable ex)
        {
            failure = ex;
        }
        delivering = 0L;
        if (acceptor == null)
        {
            final long traceId = buffer.getLong(index + TRACE_ID_OFFSET);
            if (failure != null)
            {
                pair.acceptorCounters.faults.incrementRelease();
                reporter.fault(pair.routedId, traceId, failure);
            }
            streams.remove(pair);
            pair.openerCounters.streamsClosed.incrementRelease();
            // a stream the opener opens on the Reset (a retry) is still this connection's
            ending = pair;
            deliverReset(pair.opener, pair.originId, pair.routedId, pair.initialId, traceId);
            ending = null;
            recycle(pair);
            return false;
        }
        pair.acceptor = acceptor;
        pair.acceptorCounters.streamsOpened.incrementRelease();
        return true;
    }

    private void count(StreamPair pair, boolean toAcceptor, int msgTypeId, MutableDirectBuffer buffer, int index)
    {
        final BindingCounters receiver = toAcceptor ? pair.acceptorCounters : pair.openerCounters;
        receiver.framesReceived.incrementRelease();
        switch (msgTypeId)
        {
            case DATA ->
            {
                final int length = Math.max(buffer.getInt(index + DATA_LENGTH_OFFSET), 0);
                receiver.bytesReceived.getAndAddRelease(length);
                (toAcceptor ? pair.openerCounters : pair.acceptorCounters).bytesSent.getAndAddRelease(length);
            }
            case RESET -> receiver.resetsReceived.incrementRelease();
            case ABORT -> receiver.abortsReceived.incrementRelease();
            default ->
            {
            }
        }
    }

    /**
     * The stream.* metrics of the frame: received on the binding it is delivered to, sent on the other. A
     * direction's Begin makes it active on both, and its first End, Abort or Reset ends that; the rest of what
     * crosses (a Reset after an End) counts as an error but not again as a close of the gauge.
     */
    private static void record(StreamPair pair, boolean initial, boolean toAcceptor, int msgTypeId, MutableDirectBuffer buffer,
        int index)
    {
        final StreamMetrics receiver = toAcceptor ? pair.acceptorCounters.stream : pair.openerCounters.stream;
        final StreamMetrics sender = toAcceptor ? pair.openerCounters.stream : pair.acceptorCounters.stream;
        final int direction = initial ? StreamPair.INITIAL_ACTIVE : StreamPair.REPLY_ACTIVE;
        switch (msgTypeId)
        {
            case BEGIN ->
            {
                if (receiver != null)
                {
                    Metrics.increment(receiver.opensReceived);
                    Metrics.increment(receiver.activeReceived);
                }
                if (sender != null)
                {
                    Metrics.increment(sender.opensSent);
                    Metrics.increment(sender.activeSent);
                }
                pair.active |= direction;
            }
            case DATA ->
            {
                final int length = Math.max(buffer.getInt(index + DATA_LENGTH_OFFSET), 0);
                if (receiver != null)
                {
                    Metrics.add(receiver.dataReceived, length);
                }
                if (sender != null)
                {
                    Metrics.add(sender.dataSent, length);
                }
            }
            case END, ABORT, RESET ->
            {
                final boolean error = msgTypeId != END;
                if (receiver != null)
                {
                    Metrics.increment(error ? receiver.errorsReceived : receiver.closesReceived);
                }
                if (sender != null)
                {
                    Metrics.increment(error ? sender.errorsSent : sender.closesSent);
                }
                inactive(pair, direction);
            }
            default ->
            {
            }
        }
    }

    /** The direction is no longer active: the binding its Begin was delivered to, and the one that sent it. */
    private static void inactive(StreamPair pair, int direction)
    {
        if ((pair.active & direction) == 0)
        {
            return;
        }
        pair.active &= ~direction;
        final boolean initial = direction == StreamPair.INITIAL_ACTIVE;
        final StreamMetrics begunOn = initial ? pair.acceptorCounters.stream : pair.openerCounters.stream;
        final StreamMetrics begunBy = initial ? pair.openerCounters.stream : pair.acceptorCounters.stream;
        if (begunOn != null)
        {
            Metrics.decrement(begunOn.activeReceived);
        }
        if (begunBy != null)
        {
            Metrics.decrement(begunBy.activeSent);
        }
    }

    private void track(StreamPair pair, boolean initial, int msgTypeId)
    {
        switch (msgTypeId)
        {
            case BEGIN -> pair.state |= initial ? 0 : StreamPair.REPLY_BEGUN;
            case END -> pair.state |= initial ? StreamPair.INITIAL_CLOSED : StreamPair.REPLY_CLOSED;
            case ABORT, RESET -> pair.state |= initial
                ? StreamPair.INITIAL_CLOSED | StreamPair.INITIAL_ABRUPT
                : StreamPair.REPLY_CLOSED;
            default ->
            {
                return;
            }
        }
        if (pair.isDone())
        {
            close(pair);
            recycle(pair);
        }
    }

    private void close(StreamPair pair)
    {
        streams.remove(pair);
        pair.openerCounters.streamsClosed.incrementRelease();
        if (pair.acceptor != null)
        {
            pair.acceptorCounters.streamsClosed.incrementRelease();
        }
    }

    /** A tree for a stream that no other caused; trees are reused once their last stream is forgotten. */
    private StreamTree newTree()
    {
        final StreamTree spare = spareTrees.poll();
        return (spare != null ? spare : new StreamTree()).init();
    }

    private void release(StreamTree tree)
    {
        if (tree != null && --tree.streams == 0)
        {
            spareTrees.push(tree);
        }
    }

    /** A pair whose stream is forgotten, and no longer used by the caller, may serve the next stream. */
    private void recycle(StreamPair pair)
    {
        // only now: the sides told of the stream's end may have opened streams into its tree meanwhile
        release(pair.tree);
        // a stream ended without its closing frames delivered (a fault, an overload) leaves the gauges too
        if (pair.active != 0)
        {
            inactive(pair, StreamPair.INITIAL_ACTIVE);
            inactive(pair, StreamPair.REPLY_ACTIVE);
        }
        pair.clear();
        sparePairs.push(pair);
    }

    /** A binding threw while handling a frame of the stream: end the stream on both sides, and only it. */
    private void fail(StreamPair pair, long bindingId, long traceId, Throwable cause)
    {
        counters.apply(bindingId).faults.incrementRelease();
        reporter.fault(bindingId, traceId, cause);
        terminate(pair, traceId);
    }

    private void write(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!ring.write(msgTypeId, buffer, index, length))
        {
            onRingFull(buffer.getLong(index + STREAM_ID_OFFSET), buffer.getLong(index + TRACE_ID_OFFSET));
        }
    }

    /** The dispatcher's writer: frames are copied into the ring, or built in place there. */
    private final class RingWriter implements InPlaceWriter
    {
        @Override
        public void accept(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            write(msgTypeId, buffer, index, length);
        }

        @Override
        public int claim(int msgTypeId, int length)
        {
            return ring.tryClaim(msgTypeId, length);
        }

        @Override
        public MutableDirectBuffer buffer()
        {
            return ring.buffer();
        }

        @Override
        public void commit(int index)
        {
            ring.commit(index);
        }

        @Override
        public void commit(int index, int length)
        {
            // agrona's record: an 8-byte header, its length negative while claimed, records 8-byte aligned; the
            // unused tail of the claim becomes a padding record, which readers skip wherever it is
            final AtomicBuffer buffer = ring.buffer();
            final int recordIndex = index - RecordDescriptor.HEADER_LENGTH;
            final int claimed = align(-buffer.getInt(RecordDescriptor.lengthOffset(recordIndex)), RecordDescriptor.ALIGNMENT);
            final int recordLength = RecordDescriptor.HEADER_LENGTH + length;
            final int used = align(recordLength, RecordDescriptor.ALIGNMENT);
            if (length < 0 || used > claimed)
            {
                ring.abort(index);
                throw new IllegalArgumentException("commit of " + length + " bytes of a claim of " + claimed);
            }
            if (used < claimed)
            {
                final int paddingIndex = recordIndex + used;
                buffer.putInt(RecordDescriptor.typeOffset(paddingIndex), RingBuffer.PADDING_MSG_TYPE_ID);
                buffer.putIntRelease(RecordDescriptor.lengthOffset(paddingIndex), claimed - used);
                buffer.putInt(RecordDescriptor.lengthOffset(recordIndex), -recordLength);
            }
            ring.commit(index);
        }

        @Override
        public void abort(int index)
        {
            ring.abort(index);
        }
    }

    /**
     * The ring could not take a frame: the stream is marked and ended once the ring has been drained (ending it
     * now would re-enter the binding that is writing). Its later frames are not delivered.
     */
    private void onRingFull(long streamId, long traceId)
    {
        final StreamPair pair = streams.get(StreamIds.initialIdOf(streamId));
        if (pair != null && !pair.has(StreamPair.OVERLOADED))
        {
            pair.state |= StreamPair.OVERLOADED;
            overloaded.addLong(pair.initialId);
            final boolean fromOpener = StreamIds.isInitial(streamId);
            (fromOpener ? pair.openerCounters : pair.acceptorCounters).ringFull.incrementRelease();
            reporter.overload(fromOpener ? pair.originId : pair.routedId, traceId, streamId);
        }
    }

    private int abortOverloaded()
    {
        final int count = overloaded.size();
        for (int i = 0; i < count; i++)
        {
            final StreamPair pair = streams.get(overloaded.getLong(i));
            if (pair != null)
            {
                terminate(pair, 0L);
            }
        }
        overloaded.clear();
        return count;
    }

    /** Closes what is still open of a stream, on both sides, with frames handed over directly. */
    private void terminate(StreamPair pair, long traceId)
    {
        close(pair);
        // what the sides open while told of the end (a retry) is still this connection's: it counts toward its limit
        ending = pair;
        final long initialId = pair.initialId;
        final long replyId = StreamIds.replyId(initialId);
        if (!pair.has(StreamPair.INITIAL_CLOSED))
        {
            deliverReset(pair.opener, pair.originId, pair.routedId, initialId, traceId);
            if (pair.acceptor != null)
            {
                deliverAbort(pair.acceptor, pair.originId, pair.routedId, initialId, traceId);
            }
        }
        if (pair.has(StreamPair.REPLY_BEGUN) && !pair.has(StreamPair.REPLY_CLOSED))
        {
            deliverAbort(pair.opener, pair.originId, pair.routedId, replyId, traceId);
            deliverReset(pair.acceptor, pair.originId, pair.routedId, replyId, traceId);
        }
        ending = null;
        pair.state |= StreamPair.INITIAL_CLOSED | StreamPair.REPLY_CLOSED;
        recycle(pair);
    }

    private void deliverReset(MessageConsumer target, long originId, long routedId, long streamId, long traceId)
    {
        faultFrames.reset((type, buffer, index, length) -> deliver(target, type, buffer, index, length), originId, routedId,
            streamId, 0L, 0L, 0, traceId, null, 0, 0);
    }

    private void deliverAbort(MessageConsumer target, long originId, long routedId, long streamId, long traceId)
    {
        faultFrames.abort((type, buffer, index, length) -> deliver(target, type, buffer, index, length), originId, routedId,
            streamId, 0L, 0L, 0, traceId);
    }

    private void deliver(MessageConsumer target, int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        try
        {
            target.accept(msgTypeId, buffer, index, length);
        }
        catch (Throwable ex)
        {
            // the binding failed again while being told its stream ended: nothing more to tell it
            reporter.fault(buffer.getLong(index + ROUTED_ID_OFFSET), buffer.getLong(index + TRACE_ID_OFFSET), ex);
        }
    }

    /** Where the dispatcher reports faults and overload, for counters and events. */
    public interface FaultReporter
    {
        void fault(long bindingId, long traceId, Throwable cause);

        void overload(long bindingId, long traceId, long streamId);

        /** A binding's new stream was refused: the connection that caused it has {@code limit} streams open. */
        void capped(long bindingId, long traceId, int limit);
    }
}
