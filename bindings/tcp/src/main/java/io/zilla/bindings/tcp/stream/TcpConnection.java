/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import static io.zilla.engine.binding.buffer.BufferPool.NO_SLOT;
import static java.nio.channels.SelectionKey.OP_READ;
import static java.nio.channels.SelectionKey.OP_WRITE;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.poller.PollerKey;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.tcp.types.stream.TcpError;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One connection and its stream, in what servers and clients do alike. The stream's two directions are named here
 * by where their bytes go, not by who opened the stream:
 * <ul>
 * <li><em>read</em>: bytes read from the socket, sent to the app as Data as far as the app's credit goes;</li>
 * <li><em>write</em>: the app's Data, written to the socket, with whatever the socket does not take at once kept
 * in a buffer slot until it does; the app's credit is acknowledged as the socket takes the bytes.</li>
 * </ul>
 * A server opens the stream, so it reads on the initial direction and writes on the reply; the app opens a client's
 * stream, so the client writes on the initial direction and reads on the reply. Subclasses say which, open the
 * connection and the stream, and are told when the connection is closed.
 */
abstract class TcpConnection implements MessageConsumer
{
    protected final EngineContext context;
    protected final BindingConfig binding;
    protected final TcpCounters counters;
    protected final long originId;
    protected final long routedId;
    /** The stream id of the read direction: a server's initial id, a client's reply id. */
    protected final long readId;
    /** The stream id of the write direction: a server's reply id, a client's initial id. */
    protected final long writeId;

    protected MessageConsumer app;
    protected SocketChannel network;
    protected PollerKey networkKey;
    /** The direction bits of {@link TcpState}. */
    protected int state;
    /** Whether the socket is connected: from the start for an accepted one, once the connect completes otherwise. */
    protected boolean connected;
    protected boolean closed;

    private final TcpStreamFactory factory;
    private final BufferPool bufferPool;

    private long readSeq;
    // what the last read from the socket returned: it sizes the next claim in the ring
    private int lastRead;
    private long readAck;
    private int readMax;
    private int readPad;

    private long writeSeq;
    private long writeAck;
    private long writeAckSent;
    private int writeMax;

    private int writeSlot = NO_SLOT;
    private int writeSlotOffset;
    private int writeSlotLimit;

    protected TcpConnection(TcpStreamFactory factory, BindingConfig binding, TcpCounters counters, long originId,
        long routedId, long readId, long writeId)
    {
        this.factory = factory;
        this.context = factory.context;
        this.bufferPool = factory.bufferPool;
        this.binding = binding;
        this.counters = counters;
        this.originId = originId;
        this.routedId = routedId;
        this.readId = readId;
        this.writeId = writeId;
    }

    /** A Begin from the app on this stream: a server's reply Begin; a client has had its one already. */
    protected abstract void onAppBegin(BeginFW begin);

    /** A Signal on this stream: a client's connect timeout; a server sets no timers. */
    protected abstract void onAppSignal(SignalFW signal);

    /** The connection is closed and its slot released: the binding forgets it. */
    protected abstract void onClosed();

    /** Registers the socket with the worker's poller, to read and write as the app's credit and the socket allow. */
    protected final PollerKey registerNetwork()
    {
        networkKey = context.supplyPollerKey(network);
        networkKey.handler(OP_READ, this::onNetReadableSafely);
        networkKey.handler(OP_WRITE, this::onNetWritableSafely);
        return networkKey;
    }

    /** The app opened the write direction at {@code sequence}; it gets credit with {@link #grantWriteCredit}. */
    protected final void openWrite(long sequence)
    {
        state |= TcpState.WRITE_OPENING;
        writeSeq = sequence;
        writeAck = sequence;
    }

    /** Gives the app its credit for the write direction: one slot, so whatever a write leaves fits in it. */
    protected final void grantWriteCredit(long traceId)
    {
        writeMax = factory.writeCapacity;
        doAppWindow(traceId);
    }

    /** Opens the read direction with a Begin that names the connection's addresses. */
    protected final void doAppReadBegin(long traceId, InetSocketAddress source, InetSocketAddress destination)
    {
        state |= TcpState.READ_OPENING;
        factory.doBegin(app, originId, routedId, readId, readSeq, readAck, readMax, traceId, source, destination);
    }

    /** Ends the connection from outside (detach): both directions of the stream, abruptly. */
    protected final void doClose(long traceId)
    {
        doAppAbort(traceId);
        doAppReset(traceId);
        cleanup(true);
    }

    protected final void onAppFault(long traceId, String reason)
    {
        if (closed)
        {
            return;
        }
        context.event(binding.id(), traceId, "tcp.stream.fault", "bindings." + binding.name() + ": " + reason);
        onNetFailed(traceId);
    }

    protected final void onNetFailed(long traceId)
    {
        counters.errors.incrementRelease();
        doAppAbort(traceId);
        doAppReset(traceId);
        cleanup(true);
    }

    protected final void doNetShutdownOutput(long traceId)
    {
        state = (state & ~TcpState.WRITE_CLOSING) | TcpState.WRITE_CLOSED;
        try
        {
            network.shutdownOutput();
        }
        catch (IOException ex)
        {
            onNetFailed(traceId);
            return;
        }
        if (TcpState.readClosed(state))
        {
            cleanup(false);
        }
    }

    protected final void doAppAbort(long traceId)
    {
        if (readOpen())
        {
            factory.doAbort(app, originId, routedId, readId, readSeq, readAck, readMax, traceId);
        }
        state |= TcpState.READ_CLOSED;
    }

    protected final void doAppReset(long traceId)
    {
        if (writeOpen())
        {
            factory.doReset(app, originId, routedId, writeId, writeSeq, writeAck, writeMax, traceId);
        }
        state |= TcpState.WRITE_CLOSED;
    }

    /** A Reset that says why the connection could not be made, in a TcpResetEx. */
    protected final void doAppReset(long traceId, TcpError error, String reason)
    {
        if (writeOpen())
        {
            factory.doReset(app, originId, routedId, writeId, writeSeq, writeAck, writeMax, traceId, error, reason);
        }
        state |= TcpState.WRITE_CLOSED;
    }

    protected final void cleanup(boolean abortive)
    {
        if (!closed)
        {
            closed = true;
            state |= TcpState.READ_CLOSED | TcpState.WRITE_CLOSED;
            releaseWriteSlot();
            if (networkKey != null)
            {
                networkKey.cancel();
            }
            if (network != null)
            {
                // a socket that never connected has no peer to send a RST to
                TcpStreamFactory.closeNet(network, abortive && connected);
            }
            onClosed();
        }
    }

    // where the app's frames for this stream arrive: the connection itself, no method reference object per connection
    @Override
    public final void accept(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        onAppMessage(msgTypeId, buffer, index, length);
    }

    private void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        try
        {
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onAppBegin(factory.beginRO.tryWrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onAppData(factory.dataRO.tryWrap(buffer, index, index + length));
                case EndFW.TYPE_ID -> onAppEnd(factory.endRO.tryWrap(buffer, index, index + length));
                case AbortFW.TYPE_ID -> onAppAbort(factory.abortRO.tryWrap(buffer, index, index + length));
                case FlushFW.TYPE_ID -> onAppFlush(factory.flushRO.tryWrap(buffer, index, index + length));
                case WindowFW.TYPE_ID -> onAppWindow(factory.windowRO.tryWrap(buffer, index, index + length));
                case ResetFW.TYPE_ID -> onAppReset(factory.resetRO.tryWrap(buffer, index, index + length));
                case SignalFW.TYPE_ID -> onAppSignal(factory.signalRO.tryWrap(buffer, index, index + length));
                default ->
                {
                    // Challenge: no re-authentication for tcp
                }
            }
        }
        catch (RuntimeException ex)
        {
            // a fault in this connection ends this connection, never the worker
            onAppFault(context.supplyTraceId(), "fault: " + ex);
        }
    }

    private void onAppData(DataFW data)
    {
        if (data == null || closed)
        {
            if (!closed)
            {
                onAppFault(context.supplyTraceId(), "malformed Data");
            }
            return;
        }
        final long traceId = data.traceId();
        final long sequence = data.sequence();
        final int reserved = data.reserved();
        final OctetsFW payload = data.payload();
        final int length = payload != null ? payload.sizeof() : 0;

        if (!TcpState.writeOpened(state) || TcpState.writeClosing(state) || TcpState.writeClosed(state)
            || sequence != writeSeq || reserved < length || sequence + reserved > writeAck + writeMax)
        {
            onAppFault(traceId, "Data beyond credit or out of sequence");
            return;
        }
        writeSeq = sequence + reserved;

        // the padding of a frame (none asked, but honoured) has nothing to write: acknowledge it at once
        int acknowledged = reserved - length;
        if (length > 0)
        {
            if (writeSlot == NO_SLOT)
            {
                final int written;
                try
                {
                    written = factory.writeNet(network, payload.buffer(), payload.offset(), length);
                }
                catch (IOException ex)
                {
                    onNetFailed(traceId);
                    return;
                }
                counters.written(written);
                acknowledged += written;
                if (written < length && !keepUnwritten(traceId, payload.buffer(), payload.offset() + written,
                    length - written))
                {
                    return;
                }
            }
            else if (!keepUnwritten(traceId, payload.buffer(), payload.offset(), length))
            {
                return;
            }
        }
        if (acknowledged > 0)
        {
            writeAck += acknowledged;
            doAppWindowIfDue(traceId);
        }
    }

    private void onAppFlush(FlushFW flush)
    {
        if (flush == null || closed)
        {
            return;
        }
        final int reserved = flush.reserved();
        if (!TcpState.writeOpened(state) || flush.sequence() != writeSeq || reserved < 0
            || writeSeq + reserved > writeAck + writeMax)
        {
            onAppFault(flush.traceId(), "Flush beyond credit or out of sequence");
            return;
        }
        // nothing to write for a flush: TCP has no message boundaries to mark
        writeSeq += reserved;
        if (reserved > 0)
        {
            writeAck += reserved;
            doAppWindowIfDue(flush.traceId());
        }
    }

    private void onAppEnd(EndFW end)
    {
        if (end == null || closed || TcpState.writeClosed(state) || TcpState.writeClosing(state))
        {
            return;
        }
        if (!connected || writeSlot != NO_SLOT)
        {
            // half-close once connected and once the socket has taken every byte that came before the End
            state |= TcpState.WRITE_CLOSING;
        }
        else
        {
            doNetShutdownOutput(end.traceId());
        }
    }

    private void onAppAbort(AbortFW abort)
    {
        if (closed)
        {
            return;
        }
        final long traceId = abort != null ? abort.traceId() : context.supplyTraceId();
        state |= TcpState.WRITE_CLOSED;
        if (connected)
        {
            counters.errors.incrementRelease();
        }
        doAppAbort(traceId);
        cleanup(true);
    }

    private void onAppWindow(WindowFW window)
    {
        if (window == null || closed)
        {
            if (!closed)
            {
                onAppFault(context.supplyTraceId(), "malformed Window");
            }
            return;
        }
        final long acknowledge = window.acknowledge();
        final int maximum = window.maximum();
        final int padding = window.padding();
        if (!TcpState.readOpening(state) || acknowledge > readSeq || acknowledge < readAck || maximum < 0 || padding < 0)
        {
            onAppFault(window.traceId(), "Window out of sequence");
            return;
        }
        readAck = acknowledge;
        readMax = maximum;
        readPad = padding;
        state |= TcpState.READ_OPENED;
        if (!TcpState.readClosed(state) && readCredit() > 0)
        {
            networkKey.register(OP_READ);
        }
    }

    private void onAppReset(ResetFW reset)
    {
        if (closed)
        {
            return;
        }
        final long traceId = reset != null ? reset.traceId() : context.supplyTraceId();
        state |= TcpState.READ_CLOSED;
        doAppReset(traceId);
        cleanup(true);
    }

    private int onNetReadable(PollerKey key)
    {
        final int credit = readCredit();
        if (credit <= 0)
        {
            // the app has no room: stop reading, so that the kernel's buffers and then TCP push back on the peer
            key.clear(OP_READ);
            return 0;
        }
        final long traceId = context.supplyTraceId();
        final int read;
        try
        {
            read = factory.readNetData(network, credit, lastRead, app, originId, routedId, readId, readSeq, readAck,
                readMax, traceId, readPad);
        }
        catch (IOException ex)
        {
            onNetFailed(traceId);
            return 1;
        }
        if (read == -1)
        {
            onNetEndOfInput(traceId);
        }
        else if (read > 0)
        {
            lastRead = read;
            counters.read(read);
            readSeq += read + readPad;
            if (readCredit() <= 0)
            {
                key.clear(OP_READ);
            }
        }
        return 1;
    }

    private int onNetWritable(PollerKey key)
    {
        if (writeSlot == NO_SLOT)
        {
            key.clear(OP_WRITE);
            return 0;
        }
        final long traceId = context.supplyTraceId();
        final MutableDirectBuffer slot = bufferPool.buffer(writeSlot);
        final int written;
        try
        {
            written = factory.writeNet(network, slot, writeSlotOffset, writeSlotLimit - writeSlotOffset);
        }
        catch (IOException ex)
        {
            onNetFailed(traceId);
            return 1;
        }
        counters.written(written);
        writeSlotOffset += written;
        if (writeSlotOffset == writeSlotLimit)
        {
            releaseWriteSlot();
            key.clear(OP_WRITE);
        }
        if (written > 0)
        {
            writeAck += written;
            if (!TcpState.writeClosing(state))
            {
                doAppWindowIfDue(traceId);
            }
        }
        if (writeSlot == NO_SLOT && TcpState.writeClosing(state))
        {
            doNetShutdownOutput(traceId);
        }
        return 1;
    }

    private int onNetReadableSafely(PollerKey key)
    {
        try
        {
            return onNetReadable(key);
        }
        catch (RuntimeException ex)
        {
            // a fault in this connection ends this connection, never the worker
            onAppFault(context.supplyTraceId(), "fault: " + ex);
            return 1;
        }
    }

    private int onNetWritableSafely(PollerKey key)
    {
        try
        {
            return onNetWritable(key);
        }
        catch (RuntimeException ex)
        {
            // a fault in this connection ends this connection, never the worker
            onAppFault(context.supplyTraceId(), "fault: " + ex);
            return 1;
        }
    }

    private void onNetEndOfInput(long traceId)
    {
        networkKey.clear(OP_READ);
        doAppEnd(traceId);
        if (TcpState.writeClosed(state))
        {
            cleanup(false);
        }
    }

    /**
     * Acknowledges written bytes once they reach half the window, not after every frame: the app always keeps
     * at least half its credit, and a stream of small messages costs one Window per half window instead of
     * one per message.
     */
    private void doAppWindowIfDue(long traceId)
    {
        if (writeAck - writeAckSent >= writeMax >> 1)
        {
            doAppWindow(traceId);
        }
    }

    private void doAppWindow(long traceId)
    {
        writeAckSent = writeAck;
        state |= TcpState.WRITE_OPENED;
        factory.doWindow(app, originId, routedId, writeId, writeSeq, writeAck, writeMax, traceId, 0);
    }

    private void doAppEnd(long traceId)
    {
        if (readOpen())
        {
            state |= TcpState.READ_CLOSED;
            factory.doEnd(app, originId, routedId, readId, readSeq, readAck, readMax, traceId);
        }
    }

    /**
     * Keeps bytes the socket did not take in this connection's slot and asks to be told when it can take more.
     * The slot always has room: the app's credit never exceeds a slot, and only written bytes are acknowledged.
     */
    private boolean keepUnwritten(long traceId, DirectBuffer buffer, int offset, int length)
    {
        if (writeSlot == NO_SLOT)
        {
            writeSlot = bufferPool.acquire(writeId);
            if (writeSlot == NO_SLOT)
            {
                context.event(binding.id(), traceId, "tcp.buffers.exhausted",
                    "bindings." + binding.name() + ": no buffer slot left for a slow peer");
                onNetFailed(traceId);
                return false;
            }
            writeSlotOffset = 0;
            writeSlotLimit = 0;
            networkKey.register(OP_WRITE);
        }
        final MutableDirectBuffer slot = bufferPool.buffer(writeSlot);
        if (writeSlotLimit + length > slot.capacity())
        {
            // compact: the copy is overlapping-safe (memmove), and the unwritten bytes plus these fit in a slot
            slot.putBytes(0, slot, writeSlotOffset, writeSlotLimit - writeSlotOffset);
            writeSlotLimit -= writeSlotOffset;
            writeSlotOffset = 0;
        }
        slot.putBytes(writeSlotLimit, buffer, offset, length);
        writeSlotLimit += length;
        return true;
    }

    private void releaseWriteSlot()
    {
        if (writeSlot != NO_SLOT)
        {
            bufferPool.release(writeSlot);
            writeSlot = NO_SLOT;
            writeSlotOffset = 0;
            writeSlotLimit = 0;
        }
    }

    private int readCredit()
    {
        return readMax - (int) (readSeq - readAck) - readPad;
    }

    /** Whether the app has had the read direction's Begin and not yet its End or Abort. */
    private boolean readOpen()
    {
        return TcpState.readOpening(state) && !TcpState.readClosed(state);
    }

    /** Whether the app opened the write direction and has not had its Reset yet. */
    private boolean writeOpen()
    {
        return TcpState.writeOpening(state) && !TcpState.writeClosed(state);
    }
}
