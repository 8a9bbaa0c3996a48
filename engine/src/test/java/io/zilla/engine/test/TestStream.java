/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.ChallengeFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.FrameFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One stream as a test sees it: what arrived (frame by frame, and the payload bytes), and a way to send within
 * flow control. It sends on its own direction (initial for a client, reply for a server) and grants the peer's
 * direction {@link #CREDIT} bytes of credit, returned as soon as bytes arrive. Frames are sent on the worker;
 * the test thread's methods queue them and wait.
 */
public final class TestStream
{
    public static final int CREDIT = 64 * 1024;

    private final MutableDirectBuffer writeBuffer = new UnsafeBuffer(new byte[CREDIT + 1024]);
    private final FrameFW frameRO = new FrameFW();
    private final DataFW dataRO = new DataFW();
    private final BeginFW beginRO = new BeginFW();
    private final EndFW endRO = new EndFW();
    private final AbortFW abortRO = new AbortFW();
    private final FlushFW flushRO = new FlushFW();
    private final ResetFW resetRO = new ResetFW();
    private final WindowFW windowRO = new WindowFW();
    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final StreamFrames streamFrames = new StreamFrames(writeBuffer);
    private final EndFW.Builder endRW = new EndFW.Builder();
    private final AbortFW.Builder abortRW = new AbortFW.Builder();
    private final ResetFW.Builder resetRW = new ResetFW.Builder();
    private final WindowFW.Builder windowRW = new WindowFW.Builder();
    private final ChallengeFW.Builder challengeRW = new ChallengeFW.Builder();

    private final long originId;
    private final long routedId;
    private final long ownId;
    private final long peerId;
    private MessageConsumer target;

    private final List<String> frames = new ArrayList<>();
    private final List<byte[]> extensions = new ArrayList<>();
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final ArrayDeque<Message> messages = new ArrayDeque<>();
    private final List<Long> messageEnds = new ArrayList<>();
    private boolean endPending;
    private byte[] endExtension;

    private long ownSeq;
    private long ownAck;
    private int ownMax;
    private int ownPad;
    private long peerSeq;
    private boolean peerBegun;
    private boolean peerEnded;
    private boolean peerAborted;
    private boolean ownReset;
    private int credit = CREDIT;
    private boolean stalled;
    private final List<Integer> payloadLengths = new ArrayList<>();

    TestStream(long originId, long routedId, long ownId, long peerId)
    {
        this.originId = originId;
        this.routedId = routedId;
        this.ownId = ownId;
        this.peerId = peerId;
    }

    /** The credit this side keeps open for its peer, {@link #CREDIT} unless set before the peer begins. */
    synchronized void credit(int credit)
    {
        this.credit = credit;
    }

    void target(MessageConsumer target)
    {
        this.target = target;
    }

    /** The id this side sends on. */
    public long id()
    {
        return ownId;
    }

    /** Frames received, as {@code TYPE streamId}, such as {@code BEGIN 0x2}. */
    public synchronized List<String> frames()
    {
        return List.copyOf(frames);
    }

    /**
     * The extension of each frame in {@link #frames()}, at the same index: its bytes (from the type id on), or an
     * empty array when the frame has none or is of a type without one (Window).
     */
    public synchronized List<byte[]> extensions()
    {
        return List.copyOf(extensions);
    }

    public synchronized byte[] received()
    {
        return received.toByteArray();
    }

    /**
     * The payload length of each frame received, in the order of {@link #frames()}: -1 for a Data without payload (a
     * Kafka tombstone's null value, say), 0 for a frame that is not a Data.
     */
    public synchronized List<Integer> payloadLengths()
    {
        return new ArrayList<>(payloadLengths);
    }

    /** How many payload bytes arrived so far, without copying them: a cheap condition to await. */
    public synchronized int receivedBytes()
    {
        return received.size();
    }

    public synchronized boolean ended()
    {
        return peerEnded;
    }

    public synchronized boolean aborted()
    {
        return peerAborted;
    }

    /** Whether the peer reset this side's direction. */
    public synchronized boolean reset()
    {
        return ownReset;
    }

    /** This side's sequence: the bytes (and padding) sent so far. */
    public synchronized long sequence()
    {
        return ownSeq;
    }

    /**
     * Where the {@code index}-th message queued with {@link TestClient#send} ended in this side's sequence once sent (its
     * payload and the padding of the Window it went under): a peer's acknowledgement at or beyond it covers the message.
     */
    public synchronized long messageEnd(int index)
    {
        return messageEnds.get(index);
    }

    /** What the peer acknowledged of this side's sequence, by its Window frames. */
    public synchronized long acknowledged()
    {
        return ownAck;
    }

    /** The maximum of the peer's last Window: the most credit this side may have in flight. */
    public synchronized int maximum()
    {
        return ownMax;
    }

    /** The padding of the peer's last Window: what each Data frame costs beyond its payload. */
    public synchronized int padding()
    {
        return ownPad;
    }

    /** How many messages queued with {@link TestClient#send} still wait for credit. */
    public synchronized int waiting()
    {
        return messages.size() + (pending.size() > 0 ? 1 : 0);
    }

    /** Waits up to {@code timeout} for {@code condition}, checked under this stream's lock. */
    public void await(Duration timeout, BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (true)
        {
            synchronized (this)
            {
                if (condition.getAsBoolean())
                {
                    return;
                }
            }
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out after " + timeout + "; frames so far: " + frames());
            }
            try
            {
                Thread.sleep(2);
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError(ex);
            }
        }
    }

    synchronized void doBegin(long traceId)
    {
        final BeginFW begin = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(originId).routedId(routedId).streamId(ownId).sequence(ownSeq).acknowledge(ownAck).maximum(ownMax)
            .traceId(traceId)
            .build();
        target.accept(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof());
    }

    synchronized void queue(byte[] bytes, boolean end)
    {
        pending.writeBytes(bytes);
        endPending |= end;
        flush();
    }

    synchronized void queue(byte[] payload, byte[] extension, int flags)
    {
        messages.add(new Message(payload, extension, flags));
        flush();
    }

    /** Ends this side's direction, with an End extension (null: none), once everything queued has been sent. */
    synchronized void queueEnd(byte[] extension)
    {
        endExtension = extension;
        endPending = true;
        flush();
    }

    /** Resets the peer's direction with a Reset extension (null: none). */
    synchronized void doReset(byte[] extension)
    {
        final ResetFW.Builder builder = resetRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(originId).routedId(routedId).streamId(peerId).sequence(peerSeq).acknowledge(peerSeq).maximum(CREDIT);
        if (extension != null)
        {
            builder.extension(new UnsafeBuffer(extension), 0, extension.length);
        }
        final ResetFW reset = builder.build();
        target.accept(ResetFW.TYPE_ID, reset.buffer(), reset.offset(), reset.sizeof());
    }

    /** Sends a Challenge on the peer's direction, with an extension (null: none). */
    synchronized void doChallenge(byte[] extension)
    {
        final ChallengeFW.Builder builder = challengeRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(originId).routedId(routedId).streamId(peerId).sequence(peerSeq).acknowledge(peerSeq).maximum(credit);
        if (extension != null)
        {
            builder.extension(new UnsafeBuffer(extension), 0, extension.length);
        }
        final ChallengeFW challenge = builder.build();
        target.accept(ChallengeFW.TYPE_ID, challenge.buffer(), challenge.offset(), challenge.sizeof());
    }

    synchronized void doAbort()
    {
        final AbortFW abort = abortRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(originId).routedId(routedId).streamId(ownId).sequence(ownSeq).acknowledge(ownAck).maximum(ownMax)
            .build();
        target.accept(AbortFW.TYPE_ID, abort.buffer(), abort.offset(), abort.sizeof());
    }

    synchronized void doReset()
    {
        final ResetFW reset = resetRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(originId).routedId(routedId).streamId(peerId).sequence(peerSeq).acknowledge(peerSeq).maximum(CREDIT)
            .build();
        target.accept(ResetFW.TYPE_ID, reset.buffer(), reset.offset(), reset.sizeof());
    }

    synchronized void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        final FrameFW frame = frameRO.wrap(buffer, index, index + length);
        frames.add(name(msgTypeId) + " 0x" + Long.toHexString(frame.streamId()));
        payloadLengths.add(msgTypeId == DataFW.TYPE_ID ? payloadLength(buffer, index, length) : 0);
        extensions.add(bytes(extension(msgTypeId, buffer, index, length)));
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID ->
            {
                peerBegun = true;
                doWindow(frame.traceId());
            }
            case DataFW.TYPE_ID ->
            {
                final DataFW data = dataRO.wrap(buffer, index, index + length);
                final OctetsFW payload = data.payload();
                if (payload != null)
                {
                    final byte[] bytes = new byte[payload.sizeof()];
                    payload.buffer().getBytes(payload.offset(), bytes);
                    received.writeBytes(bytes);
                }
                peerSeq += data.reserved();
                if (!stalled)
                {
                    doWindow(data.traceId());
                }
            }
            case EndFW.TYPE_ID -> peerEnded = true;
            case AbortFW.TYPE_ID -> peerAborted = true;
            case WindowFW.TYPE_ID ->
            {
                final WindowFW window = windowRO.wrap(buffer, index, index + length);
                ownAck = Math.max(ownAck, window.acknowledge());
                ownMax = window.maximum();
                ownPad = window.padding();
                flush();
            }
            case ResetFW.TYPE_ID -> ownReset = true;
            default ->
            {
            }
        }
    }

    /**
     * A stalled stream takes what its peer sends but gives no credit back, as an application that stops reading; once
     * resumed it acknowledges everything at once.
     */
    synchronized void stalled(boolean stalled)
    {
        this.stalled = stalled;
        if (!stalled)
        {
            doWindow(0L);
        }
    }

    private int payloadLength(DirectBuffer buffer, int index, int length)
    {
        final OctetsFW payload = dataRO.wrap(buffer, index, index + length).payload();
        return payload != null ? payload.sizeof() : -1;
    }

    private void doWindow(long traceId)
    {
        if (!peerBegun)
        {
            return;
        }
        final WindowFW window = windowRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(originId).routedId(routedId).streamId(peerId).sequence(peerSeq).acknowledge(peerSeq).maximum(credit)
            .traceId(traceId)
            .padding(0)
            .build();
        target.accept(WindowFW.TYPE_ID, window.buffer(), window.offset(), window.sizeof());
    }

    private void flush()
    {
        final byte[] bytes = pending.toByteArray();
        int offset = 0;
        while (offset < bytes.length && !ownReset)
        {
            final int credit = (int) (ownAck + ownMax - ownSeq) - ownPad;
            final int length = Math.min(Math.min(credit, bytes.length - offset), CREDIT);
            if (length <= 0)
            {
                break;
            }
            final int reserved = length + ownPad;
            // built in place in the ring, as bindings' Data is
            streamFrames.data(target, originId, routedId, ownId, ownSeq, ownAck, ownMax, 0L, 0x03, 0L, reserved,
                new UnsafeBuffer(bytes), offset, length, null, 0, 0);
            ownSeq += reserved;
            offset += length;
        }
        pending.reset();
        pending.write(bytes, offset, bytes.length - offset);
        while (pending.size() == 0 && !messages.isEmpty() && !ownReset)
        {
            final Message message = messages.peek();
            final int length = message.payload != null ? message.payload.length : 0;
            final int reserved = length + ownPad;
            // a message takes credit even when empty (its padding): none goes before the peer's first Window
            if (ownMax == 0 || ownAck + ownMax - ownSeq < reserved)
            {
                break;
            }
            messages.poll();
            final byte[] extension = message.extension;
            streamFrames.data(target, originId, routedId, ownId, ownSeq, ownAck, ownMax, 0L, message.flags, 0L, reserved,
                message.payload != null ? new UnsafeBuffer(message.payload) : null, 0, length,
                extension != null ? new UnsafeBuffer(extension) : null, 0, extension != null ? extension.length : 0);
            ownSeq += reserved;
            messageEnds.add(ownSeq);
        }
        if (endPending && pending.size() == 0 && messages.isEmpty())
        {
            endPending = false;
            final EndFW.Builder builder = endRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(originId).routedId(routedId).streamId(ownId).sequence(ownSeq).acknowledge(ownAck).maximum(ownMax);
            if (endExtension != null)
            {
                builder.extension(new UnsafeBuffer(endExtension), 0, endExtension.length);
                endExtension = null;
            }
            final EndFW end = builder.build();
            target.accept(EndFW.TYPE_ID, end.buffer(), end.offset(), end.sizeof());
        }
    }

    private OctetsFW extension(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        return switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> beginRO.wrap(buffer, index, index + length).extension();
            case DataFW.TYPE_ID -> dataRO.wrap(buffer, index, index + length).extension();
            case EndFW.TYPE_ID -> endRO.wrap(buffer, index, index + length).extension();
            case AbortFW.TYPE_ID -> abortRO.wrap(buffer, index, index + length).extension();
            case FlushFW.TYPE_ID -> flushRO.wrap(buffer, index, index + length).extension();
            case ResetFW.TYPE_ID -> resetRO.wrap(buffer, index, index + length).extension();
            default -> null;
        };
    }

    private static byte[] bytes(OctetsFW octets)
    {
        final byte[] bytes = new byte[octets != null ? octets.sizeof() : 0];
        if (octets != null)
        {
            octets.buffer().getBytes(octets.offset(), bytes);
        }
        return bytes;
    }

    private static String name(int msgTypeId)
    {
        return switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> "BEGIN";
            case DataFW.TYPE_ID -> "DATA";
            case EndFW.TYPE_ID -> "END";
            case AbortFW.TYPE_ID -> "ABORT";
            case WindowFW.TYPE_ID -> "WINDOW";
            case ResetFW.TYPE_ID -> "RESET";
            case FlushFW.TYPE_ID -> "FLUSH";
            default -> "0x" + Integer.toHexString(msgTypeId);
        };
    }

    private record Message(byte[] payload, byte[] extension, int flags)
    {
    }
}
