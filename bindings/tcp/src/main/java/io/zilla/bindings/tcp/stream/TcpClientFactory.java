/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import static io.zilla.engine.binding.buffer.BufferPool.NO_SLOT;
import static io.zilla.engine.binding.signal.Signaler.NO_CANCEL_ID;
import static java.nio.channels.SelectionKey.OP_CONNECT;
import static java.nio.channels.SelectionKey.OP_READ;
import static java.nio.channels.SelectionKey.OP_WRITE;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.ArrayList;
import java.util.Locale;

import io.zilla.bindings.tcp.config.TcpOptionsConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
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
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Kind {@code client}: each stream opened toward it becomes a connection, to the host and port of the options;
 * where the options name no host or no port, the destination of the stream's TcpBeginEx says it. The initial
 * direction carries what goes to the peer, the reply what the peer sends back. A connection that cannot be made
 * within the timeout, or at all, resets the stream with a TcpResetEx that says why, and reports a
 * {@code tcp.connect.failed} event.
 */
public final class TcpClientFactory extends TcpStreamFactory
{
    private static final int SIGNAL_CONNECT_TIMEOUT = 1;

    private final Long2ObjectHashMap<TcpClientBinding> clients = new Long2ObjectHashMap<>();
    private final TcpRouteMatcher matcher = new TcpRouteMatcher();
    private final TcpResolver resolver;
    private final long defaultTimeout;

    public TcpClientFactory(EngineContext context, int typeId, TcpResolver resolver, long defaultTimeout)
    {
        super(context, typeId);
        this.resolver = resolver;
        this.defaultTimeout = defaultTimeout;
    }

    public BindingHandler attach(BindingConfig binding)
    {
        final TcpClientBinding client = new TcpClientBinding(binding);
        clients.put(binding.id(), client);
        return client::newStream;
    }

    public void detach(BindingConfig binding)
    {
        final TcpClientBinding client = clients.remove(binding.id());
        if (client != null)
        {
            client.close();
        }
    }

    public void close()
    {
        clients.values().forEach(TcpClientBinding::close);
        clients.clear();
    }

    private static TcpError error(IOException ex)
    {
        if (ex instanceof ConnectException)
        {
            return TcpError.REFUSED;
        }
        if (ex instanceof NoRouteToHostException)
        {
            return TcpError.UNREACHABLE;
        }
        return TcpError.IO;
    }

    /** One client binding on this worker and its connections. */
    private final class TcpClientBinding
    {
        private final BindingConfig binding;
        private final TcpOptionsConfig options;
        private final TcpCounters counters;
        private final long timeout;
        private final Long2ObjectHashMap<TcpClient> connections = new Long2ObjectHashMap<>();

        TcpClientBinding(BindingConfig binding)
        {
            this.binding = binding;
            this.options = binding.options() instanceof TcpOptionsConfig tcp ? tcp : TcpOptionsConfig.DEFAULTS;
            this.counters = new TcpCounters(context, binding.id());
            this.timeout = options.timeout() > 0 ? options.timeout() : defaultTimeout;
        }

        private MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
        {
            final BeginFW begin = msgTypeId == BeginFW.TYPE_ID ? beginRO.tryWrap(buffer, index, index + length) : null;
            if (begin == null)
            {
                return null;
            }
            // the options name a fixed peer and win; what they leave open, the stream's TcpBeginEx may name. A Begin
            // from a tcp server carries the address it accepted on as its destination: used as a target, that
            // would connect a server -> client chain back to itself
            String host = options.host();
            int port = options.port();
            if ((host == null || port == 0) && tcpBeginEx(begin.extension()))
            {
                host = host != null ? host : tcpBeginExRO.destinationHost().asString();
                port = port != 0 ? port : tcpBeginExRO.destinationPort();
            }
            final TcpClient client = new TcpClient(this, sender, begin.originId(), begin.routedId(), begin.streamId());
            connections.put(client.initialId, client);
            client.onAppBegin(begin, host, port);
            return client.receiver;
        }

        void close()
        {
            final long traceId = context.supplyTraceId();
            new ArrayList<>(connections.values()).forEach(client -> client.doClose(traceId));
            connections.clear();
        }
    }

    /**
     * One stream and its connection. initial: app to peer, written to the socket, with whatever the socket does not
     * take at once kept in a buffer slot until it does; reply: peer to app, read from the socket as far as the app's
     * credit goes.
     */
    private final class TcpClient
    {
        private final TcpClientBinding client;
        private final MessageConsumer app;
        private final MessageConsumer receiver = this::onAppMessage;
        private final long originId;
        private final long routedId;
        private final long initialId;
        private final long replyId;

        private SocketChannel network;
        private PollerKey networkKey;
        private String host;
        private int port;
        private long timeoutId = NO_CANCEL_ID;
        private boolean connected;

        private long initialSeq;
        private long initialAck;
        private long initialAckSent;
        private int initialMax;

        private long replySeq;
        // what the last read from the socket returned: it sizes the next claim in the ring
        private int lastRead;
        private long replyAck;
        private int replyMax;
        private int replyPad;

        private int state;
        private boolean closed;

        private int writeSlot = NO_SLOT;
        private int writeSlotOffset;
        private int writeSlotLimit;

        TcpClient(TcpClientBinding client, MessageConsumer app, long originId, long routedId, long initialId)
        {
            this.client = client;
            this.app = app;
            this.originId = originId;
            this.routedId = routedId;
            this.initialId = initialId;
            this.replyId = context.supplyReplyId(initialId);
        }

        private void onAppBegin(BeginFW begin, String host, int port)
        {
            final long traceId = begin.traceId();
            this.host = host;
            this.port = port;
            state |= TcpState.INITIAL_OPENING;
            initialSeq = begin.sequence();
            initialAck = initialSeq;
            if (host == null || host.isEmpty() || port <= 0)
            {
                onNetConnectFailed(traceId, TcpError.UNRESOLVED,
                    "no destination: the stream names none and the binding has no host and port options");
                return;
            }
            try
            {
                resolver.resolve(host, (address, failure) -> onResolved(traceId, address, failure));
            }
            catch (IOException ex)
            {
                onNetConnectFailed(traceId, TcpError.IO, "cannot resolve " + host + ": " + ex.getMessage());
            }
        }

        private void onResolved(long traceId, InetAddress address, String failure)
        {
            if (closed)
            {
                // the app gave up on the stream while the name was being looked up
                return;
            }
            try
            {
                if (address == null)
                {
                    onNetConnectFailed(traceId, TcpError.UNRESOLVED, failure);
                }
                else if (!client.binding.routes().isEmpty()
                    && client.binding.resolve(matcher.with(address.getAddress(), host, port)) == null)
                {
                    onNetConnectFailed(traceId, TcpError.REFUSED, "no route to " + host + ":" + port);
                }
                else
                {
                    doNetConnect(traceId, new InetSocketAddress(address, port));
                }
            }
            catch (RuntimeException ex)
            {
                onAppFault(traceId, "fault: " + ex);
            }
        }

        private void doNetConnect(long traceId, InetSocketAddress remote)
        {
            try
            {
                network = SocketChannel.open();
                configure(network, client.options);
                networkKey = context.supplyPollerKey(network);
                networkKey.handler(OP_CONNECT, this::onNetConnectableSafely);
                networkKey.handler(OP_READ, this::onNetReadableSafely);
                networkKey.handler(OP_WRITE, this::onNetWritableSafely);
                if (network.connect(remote))
                {
                    onNetConnected(traceId);
                }
                else
                {
                    networkKey.register(OP_CONNECT);
                    timeoutId = context.signaler().signalAt(System.currentTimeMillis() + client.timeout, originId, routedId,
                        replyId, traceId, SIGNAL_CONNECT_TIMEOUT, 0);
                }
            }
            catch (IOException ex)
            {
                onNetConnectFailed(traceId, error(ex), ex.getMessage());
            }
            catch (UnresolvedAddressException | UnsupportedAddressTypeException ex)
            {
                onNetConnectFailed(traceId, TcpError.UNRESOLVED, "cannot connect to " + remote);
            }
        }

        private int onNetConnectable(PollerKey key)
        {
            final long traceId = context.supplyTraceId();
            try
            {
                if (network.finishConnect())
                {
                    key.clear(OP_CONNECT);
                    onNetConnected(traceId);
                }
            }
            catch (IOException ex)
            {
                onNetConnectFailed(traceId, error(ex), ex.getMessage());
            }
            return 1;
        }

        private void onNetConnected(long traceId)
        {
            cancelTimeout();
            connected = true;
            client.counters.opened.incrementRelease();
            client.counters.active.incrementRelease();

            InetSocketAddress local;
            InetSocketAddress remote;
            try
            {
                local = (InetSocketAddress) network.getLocalAddress();
                remote = (InetSocketAddress) network.getRemoteAddress();
            }
            catch (IOException ex)
            {
                onNetFailed(traceId);
                return;
            }
            state |= TcpState.REPLY_OPENING;
            doBegin(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, local, remote);

            if (TcpState.initialClosing(state))
            {
                // the app ended its direction before the connection was up
                doNetShutdownOutput(traceId);
            }
            else
            {
                initialMax = writeCapacity;
                doAppWindow(traceId);
            }
        }

        private void onNetConnectFailed(long traceId, TcpError error, String reason)
        {
            final String detail = "bindings." + client.binding.name() + ": " + host + ":" + port + ": "
                + (reason != null ? reason : error.name().toLowerCase(Locale.ROOT));
            client.counters.failed.incrementRelease();
            context.event(routedId, traceId, "tcp.connect.failed", detail);
            if (!TcpState.initialClosed(state))
            {
                state |= TcpState.INITIAL_CLOSED;
                doReset(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, error, detail);
            }
            doAppAbort(traceId);
            cleanup(false);
        }

        private void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            try
            {
                switch (msgTypeId)
                {
                    case DataFW.TYPE_ID -> onAppData(dataRO.tryWrap(buffer, index, index + length));
                    case EndFW.TYPE_ID -> onAppEnd(endRO.tryWrap(buffer, index, index + length));
                    case AbortFW.TYPE_ID -> onAppAbort(abortRO.tryWrap(buffer, index, index + length));
                    case FlushFW.TYPE_ID -> onAppFlush(flushRO.tryWrap(buffer, index, index + length));
                    case WindowFW.TYPE_ID -> onAppWindow(windowRO.tryWrap(buffer, index, index + length));
                    case ResetFW.TYPE_ID -> onAppReset(resetRO.tryWrap(buffer, index, index + length));
                    case SignalFW.TYPE_ID -> onAppSignal(signalRO.tryWrap(buffer, index, index + length));
                    default ->
                    {
                        // Begin was handled by newStream; Challenge: no re-authentication for tcp
                    }
                }
            }
            catch (RuntimeException ex)
            {
                // a fault in this connection ends this connection, never the worker
                onAppFault(context.supplyTraceId(), "fault: " + ex);
            }
        }

        private void onAppSignal(SignalFW signal)
        {
            if (signal != null && signal.signalId() == SIGNAL_CONNECT_TIMEOUT && timeoutId != NO_CANCEL_ID && !connected
                && !closed)
            {
                timeoutId = NO_CANCEL_ID;
                onNetConnectFailed(signal.traceId(), TcpError.TIMEOUT,
                    "connect timed out after " + client.timeout + " ms");
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

            if (!TcpState.initialOpened(state) || TcpState.initialClosing(state) || TcpState.initialClosed(state)
                || sequence != initialSeq || reserved < length || sequence + reserved > initialAck + initialMax)
            {
                onAppFault(traceId, "Data beyond credit or out of sequence");
                return;
            }
            initialSeq = sequence + reserved;

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
                    client.counters.written(written);
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
                initialAck += acknowledged;
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
            if (!TcpState.initialOpened(state) || flush.sequence() != initialSeq || reserved < 0
                || initialSeq + reserved > initialAck + initialMax)
            {
                onAppFault(flush.traceId(), "Flush beyond credit or out of sequence");
                return;
            }
            // nothing to write for a flush: TCP has no message boundaries to mark
            initialSeq += reserved;
            if (reserved > 0)
            {
                initialAck += reserved;
                doAppWindowIfDue(flush.traceId());
            }
        }

        private void onAppEnd(EndFW end)
        {
            if (end == null || closed || TcpState.initialClosed(state) || TcpState.initialClosing(state))
            {
                return;
            }
            if (!connected || writeSlot != NO_SLOT)
            {
                // half-close once connected and once the socket has taken every byte that came before the End
                state |= TcpState.INITIAL_CLOSING;
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
            state |= TcpState.INITIAL_CLOSED;
            if (connected)
            {
                client.counters.errors.incrementRelease();
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
            if (!TcpState.replyOpening(state) || acknowledge > replySeq || acknowledge < replyAck || maximum < 0
                || padding < 0)
            {
                onAppFault(window.traceId(), "Window out of sequence");
                return;
            }
            replyAck = acknowledge;
            replyMax = maximum;
            replyPad = padding;
            state |= TcpState.REPLY_OPENED;
            if (!TcpState.replyClosed(state) && replyCredit() > 0)
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
            state |= TcpState.REPLY_CLOSED;
            doAppReset(traceId);
            cleanup(true);
        }

        private int onNetReadable(PollerKey key)
        {
            final int credit = replyCredit();
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
                read = readNetData(network, credit, lastRead, app, originId, routedId, replyId, replySeq, replyAck,
                    replyMax, traceId, replyPad);
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
                client.counters.read(read);
                replySeq += read + replyPad;
                if (replyCredit() <= 0)
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
            client.counters.written(written);
            writeSlotOffset += written;
            if (writeSlotOffset == writeSlotLimit)
            {
                releaseWriteSlot();
                key.clear(OP_WRITE);
            }
            if (written > 0)
            {
                initialAck += written;
                if (!TcpState.initialClosing(state))
                {
                    doAppWindowIfDue(traceId);
                }
            }
            if (writeSlot == NO_SLOT && TcpState.initialClosing(state))
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

        private int onNetConnectableSafely(PollerKey key)
        {
            try
            {
                return onNetConnectable(key);
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
            if (TcpState.initialClosed(state))
            {
                cleanup(false);
            }
        }

        private void onNetFailed(long traceId)
        {
            client.counters.errors.incrementRelease();
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
            context.event(routedId, traceId, "tcp.stream.fault", "bindings." + client.binding.name() + ": " + reason);
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
            state = (state & ~TcpState.INITIAL_CLOSING) | TcpState.INITIAL_CLOSED;
            try
            {
                network.shutdownOutput();
            }
            catch (IOException ex)
            {
                onNetFailed(traceId);
                return;
            }
            if (TcpState.replyClosed(state))
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
            if (initialAck - initialAckSent >= initialMax >> 1)
            {
                doAppWindow(traceId);
            }
        }

        private void doAppWindow(long traceId)
        {
            initialAckSent = initialAck;
            state |= TcpState.INITIAL_OPENED;
            doWindow(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, 0);
        }

        private void doAppEnd(long traceId)
        {
            if (TcpState.replyOpening(state) && !TcpState.replyClosed(state))
            {
                state |= TcpState.REPLY_CLOSED;
                doEnd(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
            }
        }

        private void doAppAbort(long traceId)
        {
            if (TcpState.replyOpening(state) && !TcpState.replyClosed(state))
            {
                doAbort(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
            }
            state |= TcpState.REPLY_CLOSED;
        }

        private void doAppReset(long traceId)
        {
            if (!TcpState.initialClosed(state))
            {
                state |= TcpState.INITIAL_CLOSED;
                doReset(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId);
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
                writeSlot = bufferPool.acquire(initialId);
                if (writeSlot == NO_SLOT)
                {
                    context.event(routedId, traceId, "tcp.buffers.exhausted",
                        "bindings." + client.binding.name() + ": no buffer slot left for a slow peer");
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

        private int replyCredit()
        {
            return replyMax - (int) (replySeq - replyAck) - replyPad;
        }

        private void cancelTimeout()
        {
            if (timeoutId != NO_CANCEL_ID)
            {
                context.signaler().cancel(timeoutId);
                timeoutId = NO_CANCEL_ID;
            }
        }

        private void cleanup(boolean abortive)
        {
            if (!closed)
            {
                closed = true;
                state |= TcpState.INITIAL_CLOSED | TcpState.REPLY_CLOSED;
                cancelTimeout();
                releaseWriteSlot();
                if (networkKey != null)
                {
                    networkKey.cancel();
                }
                if (network != null)
                {
                    closeNet(network, abortive && connected);
                }
                if (connected)
                {
                    client.counters.active.decrementRelease();
                }
                client.connections.remove(initialId);
            }
        }
    }
}
