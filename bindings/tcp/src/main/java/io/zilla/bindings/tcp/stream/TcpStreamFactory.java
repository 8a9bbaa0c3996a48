/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

import io.zilla.bindings.tcp.config.TcpOptionsConfig;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.InPlaceWriter;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import io.zilla.specs.tcp.types.stream.TcpError;
import io.zilla.specs.tcp.types.stream.TcpResetExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the server and client factories of one worker share: the flyweights that read and write frames, and the
 * worker's socket buffers. Bytes read from a socket go to the read buffer and straight on into a Data frame; bytes
 * for a socket are copied from their Data frame into the write buffer and written at once. Both are reused by
 * every connection of the factory, so neither grows with the number of connections.
 */
abstract class TcpStreamFactory
{
    /** The room a Data frame needs around its payload (header and an empty extension), with a margin. */
    private static final int DATA_HEADROOM = 256;
    private static final int EXTENSION_CAPACITY = 1024;

    protected final BeginFW beginRO = new BeginFW();
    protected final DataFW dataRO = new DataFW();
    protected final EndFW endRO = new EndFW();
    protected final AbortFW abortRO = new AbortFW();
    protected final FlushFW flushRO = new FlushFW();
    protected final WindowFW windowRO = new WindowFW();
    protected final ResetFW resetRO = new ResetFW();
    protected final SignalFW signalRO = new SignalFW();
    protected final TcpBeginExFW tcpBeginExRO = new TcpBeginExFW();

    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final TcpBeginExFW.Builder tcpBeginExRW = new TcpBeginExFW.Builder();
    private final TcpResetExFW.Builder tcpResetExRW = new TcpResetExFW.Builder();

    // a claim no smaller than this: a burst after small reads still goes in place, and a 1 KiB read leaves 3 KiB to clear
    private static final int MIN_READ_CLAIM = 4096;

    protected final EngineContext context;
    protected final BufferPool bufferPool;
    protected final int typeId;

    /** The credit each connection gives for bytes toward its socket: whatever a write leaves fits in one slot. */
    protected final int writeCapacity;

    private final ByteBuffer readByteBuffer;
    private final DirectBuffer readBuffer;

    private final MutableDirectBuffer writeBuffer;
    private final StreamFrames frames;
    private final MutableDirectBuffer extensionBuffer = new UnsafeBuffer(new byte[EXTENSION_CAPACITY]);
    private final ByteBuffer writeByteBuffer;
    private final MutableDirectBuffer writeByteBufferView;
    private final DirectViews directViews = new DirectViews();

    protected TcpStreamFactory(EngineContext context, int typeId)
    {
        this.context = context;
        this.typeId = typeId;
        this.bufferPool = context.bufferPool();
        this.writeBuffer = context.writeBuffer();
        this.frames = new StreamFrames(writeBuffer);
        this.writeCapacity = bufferPool.slotCapacity();
        final int readCapacity = Math.max(1, Math.min(writeCapacity, writeBuffer.capacity() - DATA_HEADROOM));
        this.readByteBuffer = ByteBuffer.allocateDirect(readCapacity).order(ByteOrder.nativeOrder());
        this.readBuffer = new UnsafeBuffer(readByteBuffer);
        this.writeByteBuffer = ByteBuffer.allocateDirect(writeCapacity).order(ByteOrder.nativeOrder());
        this.writeByteBufferView = new UnsafeBuffer(writeByteBuffer);
    }

    /** Applies the options that every connection takes, accepted or opened. */
    protected static void configure(SocketChannel channel, TcpOptionsConfig options) throws IOException
    {
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, options.nodelay());
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, options.keepalive());
    }

    /**
     * Writes {@code length} bytes to the socket, as many as it takes now. Bytes in direct memory (the ring, a slot)
     * go to the socket from where they are; others are copied to a direct buffer first, as the JDK would.
     *
     * @return how many it took
     */
    protected final int writeNet(SocketChannel channel, DirectBuffer buffer, int offset, int length) throws IOException
    {
        final ByteBuffer view = directView(buffer);
        if (view != null)
        {
            final int position = buffer.wrapAdjustment() + offset;
            view.clear().position(position).limit(position + length);
            return channel.write(view);
        }
        writeByteBufferView.putBytes(0, buffer, offset, length);
        writeByteBuffer.clear().limit(length);
        return channel.write(writeByteBuffer);
    }

    /**
     * Reads from the socket into a Data frame sent to {@code receiver}. The bytes go straight into the frame's place
     * in the worker's ring when it has room; the claim is sized from the connection's last read, so that a small
     * read does not leave a large unused claim for the ring to clear. Otherwise they go through the read buffer.
     *
     * @param maxLength the most to read: the receiver's credit, less its padding
     * @param lastRead what the previous read on this connection returned
     * @return the bytes read and sent, 0 for none, -1 at the end of input
     */
    protected final int readNetData(SocketChannel channel, int maxLength, int lastRead, MessageConsumer receiver,
        long originId, long routedId, long streamId, long sequence, long acknowledge, int maximum, long traceId,
        int padding) throws IOException
    {
        final int limit = Math.min(maxLength, readByteBuffer.capacity());
        if (receiver instanceof InPlaceWriter ring)
        {
            final ByteBuffer view = directView(ring.buffer());
            final int claimLength = Math.min(limit, Math.max(MIN_READ_CLAIM, lastRead << 1));
            final int payloadIndex = view != null ? frames.claimData(ring, claimLength) : -1;
            if (payloadIndex >= 0)
            {
                final int position = ring.buffer().wrapAdjustment() + payloadIndex;
                int read = 0;
                try
                {
                    view.clear().position(position).limit(position + claimLength);
                    read = channel.read(view);
                }
                finally
                {
                    // a read that failed or found nothing gives the whole claim back
                    frames.commitData(ring, payloadIndex, originId, routedId, streamId, sequence, acknowledge, maximum,
                        traceId, 0x03, 0L, read + padding, read);
                }
                return read;
            }
        }
        readByteBuffer.clear().limit(limit);
        final int read = channel.read(readByteBuffer);
        if (read > 0)
        {
            doData(receiver, originId, routedId, streamId, sequence, acknowledge, maximum, traceId, read + padding,
                readBuffer, 0, read);
        }
        return read;
    }

    /** The cached view of the direct memory {@code buffer} wraps, or null: heap memory, or no room for another view. */
    private ByteBuffer directView(DirectBuffer buffer)
    {
        final ByteBuffer direct = buffer.byteBuffer();
        return direct != null && direct.isDirect() ? directViews.viewOf(direct) : null;
    }

    /** Closes a socket at once; {@code abortive} sends a TCP RST so that the peer knows the stream failed. */
    protected static void closeNet(SocketChannel channel, boolean abortive)
    {
        try
        {
            if (abortive && channel.isOpen())
            {
                channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            }
        }
        catch (IOException ex)
        {
            // the socket is going anyway
        }
        try
        {
            channel.close();
        }
        catch (IOException ex)
        {
            // nothing left to tell the peer
        }
    }

    /** Whether {@code extension} carries a TcpBeginEx: then {@link #tcpBeginExRO} wraps it. */
    protected final boolean tcpBeginEx(OctetsFW extension)
    {
        return extension != null && extension.sizeof() > 0
            && tcpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) != null
            && tcpBeginExRO.typeId() == typeId;
    }

    protected final void doBegin(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId, InetSocketAddress source, InetSocketAddress destination)
    {
        final int extensionLength = beginEx(source, destination);
        final BeginFW begin = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(originId)
            .routedId(routedId)
            .streamId(streamId)
            .sequence(sequence)
            .acknowledge(acknowledge)
            .maximum(maximum)
            .traceId(traceId)
            .affinity(0L)
            .extension(extensionBuffer, 0, extensionLength)
            .build();
        receiver.accept(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof());
    }

    /** Opens a stream toward {@code routedId}: the Begin is written to its worker's ring. */
    protected final MessageConsumer newStream(MessageConsumer sender, long originId, long routedId, long streamId,
        long traceId, InetSocketAddress source, InetSocketAddress destination)
    {
        final int extensionLength = beginEx(source, destination);
        final BeginFW begin = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(originId)
            .routedId(routedId)
            .streamId(streamId)
            .sequence(0L)
            .acknowledge(0L)
            .maximum(0)
            .traceId(traceId)
            .affinity(0L)
            .extension(extensionBuffer, 0, extensionLength)
            .build();
        return context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), sender);
    }

    protected final void doData(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId, int reserved, DirectBuffer payload, int offset, int length)
    {
        frames.data(receiver, originId, routedId, streamId, sequence, acknowledge, maximum, traceId, 0x03, 0L, reserved,
            payload, offset, length, null, 0, 0);
    }

    protected final void doEnd(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId)
    {
        frames.end(receiver, originId, routedId, streamId, sequence, acknowledge, maximum, traceId);
    }

    protected final void doAbort(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId)
    {
        frames.abort(receiver, originId, routedId, streamId, sequence, acknowledge, maximum, traceId);
    }

    protected final void doWindow(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId, int padding)
    {
        frames.window(receiver, originId, routedId, streamId, sequence, acknowledge, maximum, traceId, 0L, padding);
    }

    protected final void doReset(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId)
    {
        frames.reset(receiver, originId, routedId, streamId, sequence, acknowledge, maximum, traceId, null, 0, 0);
    }

    /** A Reset that says why, in a TcpResetEx: the client's answer to a connection it could not open. */
    protected final void doReset(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId, TcpError error, String reason)
    {
        final TcpResetExFW resetEx = tcpResetExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
            .typeId(typeId)
            .error(error)
            .reason(reason)
            .build();
        frames.reset(receiver, originId, routedId, streamId, sequence, acknowledge, maximum, traceId, resetEx.buffer(),
            resetEx.offset(), resetEx.sizeof());
    }

    // hosts are address literals here (getHostString does no reverse lookup), written once per connection
    private int beginEx(InetSocketAddress source, InetSocketAddress destination)
    {
        final TcpBeginExFW beginEx = tcpBeginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
            .typeId(typeId)
            .sourceHost(source != null ? source.getHostString() : null)
            .sourcePort(source != null ? source.getPort() : 0)
            .destinationHost(destination.getHostString())
            .destinationPort(destination.getPort())
            .build();
        return beginEx.sizeof();
    }
}
