/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import static io.zilla.engine.binding.buffer.BufferPool.NO_SLOT;
import static java.nio.channels.SelectionKey.OP_ACCEPT;
import static java.nio.channels.SelectionKey.OP_READ;
import static java.nio.channels.SelectionKey.OP_WRITE;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

import io.zilla.bindings.tcp.config.TcpOptionsConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.poller.PollerKey;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Kind {@code server}: listens on each port of its options and, per accepted connection, opens a stream toward
 * the exit of the first route that matches. The stream's initial direction carries what the peer sends, its reply
 * what goes back to the peer.
 * <p>
 * With {@code SO_REUSEPORT} every worker listens on the same ports and the kernel spreads the connections over
 * them; without it only worker 0 listens.
 */
public final class TcpServerFactory extends TcpStreamFactory
{
    /** Connections accepted per readiness of a listener, so that a burst of connects cannot starve the worker. */
    private static final int MAX_ACCEPTS = 64;

    private static final boolean REUSE_PORT = supportsReusePort();

    private static final BindingHandler NO_STREAMS = (msgTypeId, buffer, index, length, sender) -> null;

    private final Long2ObjectHashMap<TcpServerBinding> servers = new Long2ObjectHashMap<>();
    private final TcpRouteMatcher matcher = new TcpRouteMatcher();

    public TcpServerFactory(EngineContext context, int typeId)
    {
        super(context, typeId);
    }

    /** Starts listening; streams are only opened by a server, so nothing may open one toward it. */
    public BindingHandler attach(BindingConfig binding)
    {
        final TcpServerBinding server = new TcpServerBinding(binding);
        server.listen();
        servers.put(binding.id(), server);
        return NO_STREAMS;
    }

    public void detach(BindingConfig binding)
    {
        final TcpServerBinding server = servers.remove(binding.id());
        if (server != null)
        {
            server.close();
        }
    }

    public void close()
    {
        servers.values().forEach(TcpServerBinding::close);
        servers.clear();
    }

    private static boolean supportsReusePort()
    {
        try (ServerSocketChannel probe = ServerSocketChannel.open())
        {
            return probe.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT);
        }
        catch (IOException | UnsupportedOperationException ex)
        {
            return false;
        }
    }

    /** One server binding on this worker: its listening sockets and its connections. */
    private final class TcpServerBinding
    {
        private final BindingConfig binding;
        private final TcpOptionsConfig options;
        private final TcpCounters counters;
        private final List<PollerKey> listeners = new ArrayList<>();
        private final Long2ObjectHashMap<TcpServer> connections = new Long2ObjectHashMap<>();

        private boolean acceptPaused;

        TcpServerBinding(BindingConfig binding)
        {
            this.binding = binding;
            this.options = binding.options() instanceof TcpOptionsConfig tcp ? tcp : TcpOptionsConfig.DEFAULTS;
            this.counters = new TcpCounters(context, binding.id());
        }

        void listen()
        {
            if (options.host() == null || options.ports() == null)
            {
                throw new IllegalArgumentException("bindings." + binding.name() + ": a tcp server needs options host and port");
            }
            if (!REUSE_PORT && context.index() != 0)
            {
                // without SO_REUSEPORT the workers cannot share a port: worker 0 accepts every connection
                return;
            }
            for (int port : options.ports())
            {
                final InetSocketAddress address = new InetSocketAddress(options.host(), port);
                final ServerSocketChannel listener;
                try
                {
                    listener = ServerSocketChannel.open();
                }
                catch (IOException ex)
                {
                    throw onListenFailed(address, ex);
                }
                try
                {
                    if (REUSE_PORT)
                    {
                        listener.setOption(StandardSocketOptions.SO_REUSEPORT, true);
                    }
                    listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                    listener.bind(address, options.backlog());
                    listener.configureBlocking(false);
                }
                catch (IOException ex)
                {
                    closeQuietly(listener);
                    throw onListenFailed(address, ex);
                }
                final PollerKey key = context.supplyPollerKey(listener);
                key.handler(OP_ACCEPT, this::onNetAcceptable);
                key.register(OP_ACCEPT);
                listeners.add(key);
            }
        }

        void close()
        {
            for (PollerKey key : listeners)
            {
                key.cancel();
                closeQuietly((ServerSocketChannel) key.channel());
            }
            listeners.clear();
            final long traceId = context.supplyTraceId();
            new ArrayList<>(connections.values()).forEach(connection -> connection.doClose(traceId));
            connections.clear();
        }

        private IllegalStateException onListenFailed(InetSocketAddress address, IOException ex)
        {
            // a server that cannot listen must stop the engine from starting: close what this binding opened
            close();
            final String detail = "bindings." + binding.name() + ": cannot listen on " + address + ": " + ex.getMessage();
            context.event(binding.id(), context.supplyTraceId(), "tcp.listen.failed", detail);
            return new IllegalStateException(detail, ex);
        }

        private int onNetAcceptable(PollerKey key)
        {
            final ServerSocketChannel listener = (ServerSocketChannel) key.channel();
            int accepted = 0;
            while (accepted < MAX_ACCEPTS)
            {
                final SocketChannel channel;
                try
                {
                    channel = listener.accept();
                }
                catch (IOException ex)
                {
                    onAcceptFailed(ex);
                    break;
                }
                if (channel == null)
                {
                    break;
                }
                accepted++;
                try
                {
                    onNetAccepted(channel);
                }
                catch (RuntimeException ex)
                {
                    // a fault with one connection closes that connection, never the listener
                    closeNet(channel, true);
                    context.event(binding.id(), context.supplyTraceId(), "tcp.stream.fault",
                        "bindings." + binding.name() + ": fault: " + ex);
                }
            }
            return accepted;
        }

        private void onAcceptFailed(IOException ex)
        {
            context.event(binding.id(), context.supplyTraceId(), "tcp.accept.failed",
                "bindings." + binding.name() + ": " + ex.getMessage());
            // out of file descriptors, most likely: stop accepting until one of this binding's connections closes,
            // rather than spinning on a listener that stays ready
            if (!connections.isEmpty())
            {
                acceptPaused = true;
                listeners.forEach(listener -> listener.clear(OP_ACCEPT));
            }
        }

        private void onNetAccepted(SocketChannel channel)
        {
            final long traceId = context.supplyTraceId();
            final InetSocketAddress local;
            final InetSocketAddress remote;
            try
            {
                configure(channel, options);
                local = (InetSocketAddress) channel.getLocalAddress();
                remote = (InetSocketAddress) channel.getRemoteAddress();
            }
            catch (IOException ex)
            {
                // the peer went away between connect and accept
                counters.errors.incrementRelease();
                closeNet(channel, false);
                return;
            }

            final RouteConfig route = binding.resolve(
                matcher.with(remote.getAddress().getAddress(), local.getHostString(), local.getPort()));
            if (route == null)
            {
                onNetRefused(channel, traceId, remote, local, "no route");
                return;
            }

            final TcpServer server = new TcpServer(this, channel, route.exitId());
            if (server.doAppBegin(traceId, remote, local))
            {
                connections.put(server.initialId, server);
                counters.opened.incrementRelease();
                counters.active.incrementRelease();
            }
            else
            {
                onNetRefused(channel, traceId, remote, local, "exit " + route.exit() + " is not a binding");
            }
        }

        private void onNetRefused(SocketChannel channel, long traceId, InetSocketAddress remote, InetSocketAddress local,
            String reason)
        {
            counters.refused.incrementRelease();
            closeNet(channel, true);
            context.event(binding.id(), traceId, "tcp.connection.refused",
                "bindings." + binding.name() + ": " + remote + " -> " + local + ": " + reason);
        }

        private void onConnectionClosed(TcpServer server)
        {
            connections.remove(server.initialId);
            counters.active.decrementRelease();
            if (acceptPaused)
            {
                acceptPaused = false;
                listeners.forEach(listener -> listener.register(OP_ACCEPT));
            }
        }

        private void closeQuietly(ServerSocketChannel listener)
        {
            try
            {
                listener.close();
            }
            catch (IOException ex)
            {
                // nothing is listening any more either way
            }
        }
    }

    /**
     * One accepted connection and its stream. initial: peer to app, read from the socket as far as the app's
     * credit goes; reply: app to peer, written to the socket, with whatever the socket does not take at once
     * kept in a buffer slot until it does.
     */
    private final class TcpServer
    {
        private final TcpServerBinding server;
        private final SocketChannel network;
        private final long originId;
        private final long routedId;
        private final long initialId;
        private final long replyId;

        private MessageConsumer app;
        private PollerKey networkKey;

        private long initialSeq;
        // what the last read from the socket returned: it sizes the next claim in the ring
        private int lastRead;
        private long initialAck;
        private int initialMax;
        private int initialPad;

        private long replySeq;
        private long replyAck;
        private long replyAckSent;
        private int replyMax;

        private int state;
        private boolean closed;

        private int writeSlot = NO_SLOT;
        private int writeSlotOffset;
        private int writeSlotLimit;

        TcpServer(TcpServerBinding server, SocketChannel network, long routedId)
        {
            this.server = server;
            this.network = network;
            this.originId = server.binding.id();
            this.routedId = routedId;
            this.initialId = context.supplyInitialId(routedId);
            this.replyId = context.supplyReplyId(initialId);
        }

        private boolean doAppBegin(long traceId, InetSocketAddress remote, InetSocketAddress local)
        {
            app = newStream(this::onAppMessage, originId, routedId, initialId, traceId, remote, local);
            if (app == null)
            {
                return false;
            }
            state |= TcpState.INITIAL_OPENING;
            networkKey = context.supplyPollerKey(network);
            networkKey.handler(OP_READ, this::onNetReadableSafely);
            networkKey.handler(OP_WRITE, this::onNetWritableSafely);
            return true;
        }

        private void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            try
            {
                switch (msgTypeId)
                {
                    case BeginFW.TYPE_ID -> onAppBegin(beginRO.tryWrap(buffer, index, index + length));
                    case DataFW.TYPE_ID -> onAppData(dataRO.tryWrap(buffer, index, index + length));
                    case EndFW.TYPE_ID -> onAppEnd(endRO.tryWrap(buffer, index, index + length));
                    case AbortFW.TYPE_ID -> onAppAbort(abortRO.tryWrap(buffer, index, index + length));
                    case FlushFW.TYPE_ID -> onAppFlush(flushRO.tryWrap(buffer, index, index + length));
                    case WindowFW.TYPE_ID -> onAppWindow(windowRO.tryWrap(buffer, index, index + length));
                    case ResetFW.TYPE_ID -> onAppReset(resetRO.tryWrap(buffer, index, index + length));
                    default ->
                    {
                        // Signal, Challenge: the server sets no timers and offers no challenge
                    }
                }
            }
            catch (RuntimeException ex)
            {
                // a fault in this connection ends this connection, never the worker
                onAppFault(context.supplyTraceId(), "fault: " + ex);
            }
        }

        private void onAppBegin(BeginFW begin)
        {
            if (begin == null || TcpState.replyOpening(state) || closed)
            {
                final long traceId = begin != null ? begin.traceId() : context.supplyTraceId();
                if (closed)
                {
                    // the connection is gone already: refuse the late reply
                    doReset(app, originId, routedId, replyId, 0L, 0L, 0, traceId);
                    return;
                }
                onAppFault(traceId, "bad reply Begin");
                return;
            }
            state |= TcpState.REPLY_OPENING;
            replySeq = begin.sequence();
            replyAck = replySeq;
            replyMax = writeCapacity;
            doAppWindow(begin.traceId());
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

            if (!TcpState.replyOpened(state) || TcpState.replyClosing(state) || TcpState.replyClosed(state)
                || sequence != replySeq || reserved < length || sequence + reserved > replyAck + replyMax)
            {
                onAppFault(traceId, "Data beyond credit or out of sequence");
                return;
            }
            replySeq = sequence + reserved;

            // the padding of a frame (none asked, but honoured) has nothing to write: acknowledge it at once
            int acknowledged = reserved - length;
            if (length > 0)
            {
                if (writeSlot == NO_SLOT)
                {
                    final int written;
                    try
                    {
                        written = writeNet(network, payload.buffer(), payload.offset(), length);
                    }
                    catch (IOException ex)
                    {
                        onNetFailed(traceId);
                        return;
                    }
                    server.counters.written(written);
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
                replyAck += acknowledged;
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
            if (!TcpState.replyOpened(state) || flush.sequence() != replySeq || reserved < 0
                || replySeq + reserved > replyAck + replyMax)
            {
                onAppFault(flush.traceId(), "Flush beyond credit or out of sequence");
                return;
            }
            // nothing to write for a flush: TCP has no message boundaries to mark
            replySeq += reserved;
            if (reserved > 0)
            {
                replyAck += reserved;
                doAppWindowIfDue(flush.traceId());
            }
        }

        private void onAppEnd(EndFW end)
        {
            if (end == null || closed || TcpState.replyClosed(state) || TcpState.replyClosing(state))
            {
                return;
            }
            if (writeSlot != NO_SLOT)
            {
                // half-close once the socket has taken every byte that came before the End
                state |= TcpState.REPLY_CLOSING;
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
            state |= TcpState.REPLY_CLOSED;
            server.counters.errors.incrementRelease();
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
            if (acknowledge > initialSeq || acknowledge < initialAck || maximum < 0 || padding < 0)
            {
                onAppFault(window.traceId(), "Window out of sequence");
                return;
            }
            initialAck = acknowledge;
            initialMax = maximum;
            initialPad = padding;
            state |= TcpState.INITIAL_OPENED;
            if (!TcpState.initialClosed(state) && initialCredit() > 0)
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
            state |= TcpState.INITIAL_CLOSED;
            doAppReset(traceId);
            cleanup(true);
        }

        private int onNetReadable(PollerKey key)
        {
            final int credit = initialCredit();
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
                read = readNetData(network, credit, lastRead, app, originId, routedId, initialId, initialSeq, initialAck,
                    initialMax, traceId, initialPad);
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
                server.counters.read(read);
                initialSeq += read + initialPad;
                if (initialCredit() <= 0)
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
                written = writeNet(network, slot, writeSlotOffset, writeSlotLimit - writeSlotOffset);
            }
            catch (IOException ex)
            {
                onNetFailed(traceId);
                return 1;
            }
            server.counters.written(written);
            writeSlotOffset += written;
            if (writeSlotOffset == writeSlotLimit)
            {
                releaseWriteSlot();
                key.clear(OP_WRITE);
            }
            if (written > 0)
            {
                replyAck += written;
                if (!TcpState.replyClosing(state))
                {
                    doAppWindowIfDue(traceId);
                }
            }
            if (writeSlot == NO_SLOT && TcpState.replyClosing(state))
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
            if (TcpState.replyClosed(state))
            {
                cleanup(false);
            }
        }

        private void onNetFailed(long traceId)
        {
            server.counters.errors.incrementRelease();
            doAppAbort(traceId);
            doAppReset(traceId);
            cleanup(true);
        }

        private void onAppFault(long traceId, String reason)
        {
            if (closed)
            {
                return;
            }
            context.event(originId, traceId, "tcp.stream.fault", "bindings." + server.binding.name() + ": " + reason);
            onNetFailed(traceId);
        }

        /** Ends the connection from outside (detach): both directions of the stream, abruptly. */
        private void doClose(long traceId)
        {
            doAppAbort(traceId);
            doAppReset(traceId);
            cleanup(true);
        }

        private void doNetShutdownOutput(long traceId)
        {
            state = (state & ~TcpState.REPLY_CLOSING) | TcpState.REPLY_CLOSED;
            try
            {
                network.shutdownOutput();
            }
            catch (IOException ex)
            {
                onNetFailed(traceId);
                return;
            }
            if (TcpState.initialClosed(state))
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
            if (replyAck - replyAckSent >= replyMax >> 1)
            {
                doAppWindow(traceId);
            }
        }

        private void doAppWindow(long traceId)
        {
            replyAckSent = replyAck;
            state |= TcpState.REPLY_OPENED;
            doWindow(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, 0);
        }

        private void doAppEnd(long traceId)
        {
            if (!TcpState.initialClosed(state))
            {
                state |= TcpState.INITIAL_CLOSED;
                doEnd(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId);
            }
        }

        private void doAppAbort(long traceId)
        {
            if (!TcpState.initialClosed(state))
            {
                state |= TcpState.INITIAL_CLOSED;
                doAbort(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId);
            }
        }

        private void doAppReset(long traceId)
        {
            if (TcpState.replyOpening(state) && !TcpState.replyClosed(state))
            {
                state |= TcpState.REPLY_CLOSED;
                doReset(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
            }
            state |= TcpState.REPLY_CLOSED;
        }

        /**
         * Keeps bytes the socket did not take in this connection's slot and asks to be told when it can take more.
         * The slot always has room: the app's credit never exceeds a slot, and only written bytes are acknowledged.
         */
        private boolean keepUnwritten(long traceId, DirectBuffer buffer, int offset, int length)
        {
            if (writeSlot == NO_SLOT)
            {
                writeSlot = bufferPool.acquire(replyId);
                if (writeSlot == NO_SLOT)
                {
                    context.event(originId, traceId, "tcp.buffers.exhausted",
                        "bindings." + server.binding.name() + ": no buffer slot left for a slow peer");
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

        private int initialCredit()
        {
            return initialMax - (int) (initialSeq - initialAck) - initialPad;
        }

        private void cleanup(boolean abortive)
        {
            if (!closed)
            {
                closed = true;
                state |= TcpState.INITIAL_CLOSED | TcpState.REPLY_CLOSED;
                releaseWriteSlot();
                if (networkKey != null)
                {
                    networkKey.cancel();
                }
                closeNet(network, abortive);
                server.onConnectionClosed(this);
            }
        }
    }
}
