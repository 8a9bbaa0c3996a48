/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import static io.zilla.engine.binding.signal.Signaler.NO_CANCEL_ID;

import java.util.ArrayList;
import java.util.List;

import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The connections of one tls proxy binding on one worker. Each stream from the tcp server is one TLS connection:
 * its first bytes wait in a buffer slot until they hold a whole ClientHello, which {@link TlsClientHello} reads
 * without decrypting anything; the first route that matches its server name, ALPN protocols and port names the
 * exit, a stream is opened to it, the held bytes go first and then both directions are relayed as they come.
 * <p>
 * Toward the exit, bytes that its credit cannot take yet wait in the same slot, and the client's credit is the room
 * left in that slot, so a connection holds at most one slot. The reply direction is passed through as it is: the
 * client's Window goes to the exit unchanged and the exit's Data to the client. A ClientHello that no route takes,
 * or that is not one, is answered with a fatal TLS alert and the connection is closed.
 */
final class TlsProxyFactory implements BindingHandler
{
    private static final int TCP_TYPE_ID = "tcp".hashCode();
    private static final int SIGNAL_HELLO_TIMEOUT = 1;

    // alert descriptions, RFC 8446 6.2
    private static final int NO_ALERT = -1;
    private static final int ALERT_SIZE = TlsClientHello.RECORD_HEADER + 2;

    private static final int FLAGS_COMPLETE = 0x03;

    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final EndFW endRO = new EndFW();
    private final AbortFW abortRO = new AbortFW();
    private final WindowFW windowRO = new WindowFW();
    private final ResetFW resetRO = new ResetFW();
    private final SignalFW signalRO = new SignalFW();
    private final TcpBeginExFW tcpBeginExRO = new TcpBeginExFW();
    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final MutableDirectBuffer alertBuffer = new UnsafeBuffer(new byte[ALERT_SIZE]);

    private final EngineContext context;
    private final BindingConfig binding;
    private final TlsClientHello hello;
    private final TlsRouteMatcher matcher;
    private final long helloTimeout;
    private final MutableDirectBuffer writeBuffer;
    private final StreamFrames frames;
    private final BufferPool bufferPool;
    private final int helloWindow;
    private final TlsCounters counters;
    private final Long2ObjectHashMap<TlsProxy> proxies = new Long2ObjectHashMap<>();

    TlsProxyFactory(EngineContext context, BindingConfig binding, TlsClientHello hello, TlsRouteMatcher matcher,
        long helloTimeout)
    {
        this.context = context;
        this.binding = binding;
        this.hello = hello;
        this.matcher = matcher;
        this.helloTimeout = helloTimeout;
        this.writeBuffer = context.writeBuffer();
        this.frames = new StreamFrames(writeBuffer);
        this.bufferPool = context.bufferPool();
        // a whole ClientHello in as many records as it takes, but never more than a slot
        this.helloWindow = Math.min(bufferPool.slotCapacity(), TlsClientHello.MAX_HANDSHAKE + 4 * TlsClientHello.RECORD_HEADER);
        this.counters = new TlsCounters(context, binding.id());
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final TlsProxy proxy = new TlsProxy(sender, begin.originId(), begin.routedId(), begin.streamId());
        proxies.put(proxy.initialId, proxy);
        return proxy::onAppMessage;
    }

    void close()
    {
        final long traceId = context.supplyTraceId();
        for (TlsProxy proxy : new ArrayList<>(proxies.values()))
        {
            proxy.doCloseAll(traceId);
        }
    }

    private enum State
    {
        /** Gathering the ClientHello. */
        HELLO,
        /** Routed: the stream to the exit is open, bytes flow. */
        RELAY,
        /** Refused: an alert goes back, what the client still sends is dropped, until it closes or time runs out. */
        REFUSED
    }

    private final class TlsProxy
    {
        private final MessageConsumer app;
        private final long originId;
        private final long routedId;
        private final long initialId;
        private final long replyId;

        private State state = State.HELLO;
        private MessageConsumer net;
        private long exitId;
        private long netInitialId;
        private long netReplyId;
        private byte[] beginEx;
        private int port;
        private long timerId = NO_CANCEL_ID;
        private int alert = NO_ALERT;
        private int helloNeeded;

        // bytes from the client not yet sent to the exit: [heldOffset, heldLimit) of the slot
        private int slot = BufferPool.NO_SLOT;
        private int heldOffset;
        private int heldLimit;

        private long initialSeq;
        private long initialAck;
        private int initialMax;

        private long replySeq;
        private long replyAck;
        private int replyMax;
        private int replyPad;

        private long netInitialSeq;
        private long netInitialAck;
        private int netInitialMax;
        private int netInitialPad;

        private long netReplySeq;
        private long netReplyAck;
        private int netReplyMax;

        private boolean appInitialClosed;
        private boolean appInitialEnded;
        private boolean appReplyOpened;
        private boolean appReplyClosed;
        private boolean netInitialClosed;
        private boolean netReplyOpened;
        private boolean netReplyClosed;

        TlsProxy(MessageConsumer app, long originId, long routedId, long initialId)
        {
            this.app = app;
            this.originId = originId;
            this.routedId = routedId;
            this.initialId = initialId;
            this.replyId = initialId & ~1L;
        }

        void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onAppBegin(beginRO.wrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onAppData(dataRO.wrap(buffer, index, index + length));
                case EndFW.TYPE_ID -> onAppEnd(endRO.wrap(buffer, index, index + length));
                case AbortFW.TYPE_ID -> onAppAbort(abortRO.wrap(buffer, index, index + length));
                case WindowFW.TYPE_ID -> onAppWindow(windowRO.wrap(buffer, index, index + length));
                case ResetFW.TYPE_ID -> onAppReset(resetRO.wrap(buffer, index, index + length));
                case SignalFW.TYPE_ID -> onAppSignal(signalRO.wrap(buffer, index, index + length));
                default ->
                {
                    // flushes and challenges mean nothing to the proxy
                }
            }
        }

        void onNetMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onNetBegin(beginRO.wrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onNetData(dataRO.wrap(buffer, index, index + length));
                case EndFW.TYPE_ID -> onNetEnd(endRO.wrap(buffer, index, index + length));
                case AbortFW.TYPE_ID -> onNetAbort(abortRO.wrap(buffer, index, index + length));
                case WindowFW.TYPE_ID -> onNetWindow(windowRO.wrap(buffer, index, index + length));
                case ResetFW.TYPE_ID -> onNetReset(resetRO.wrap(buffer, index, index + length));
                default ->
                {
                    // flushes, signals and challenges mean nothing to the proxy
                }
            }
        }

        private void onAppBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            final OctetsFW extension = begin.extension();
            if (extension != null && extension.sizeof() > 0)
            {
                // the exit sees the connection's addresses as the tls proxy did; the port also feeds the routes
                beginEx = new byte[extension.sizeof()];
                extension.buffer().getBytes(extension.offset(), beginEx);
                if (tcpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) != null
                    && tcpBeginExRO.typeId() == TCP_TYPE_ID)
                {
                    port = tcpBeginExRO.destinationPort();
                }
            }
            timerId = context.signaler().signalAt(System.currentTimeMillis() + helloTimeout, originId, routedId, replyId,
                traceId, SIGNAL_HELLO_TIMEOUT, 0);
            doAppWindow(traceId);
        }

        private void onAppData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            if (data.sequence() != initialSeq || initialSeq + reserved > initialAck + initialMax)
            {
                onFault(traceId, "a Data frame beyond the credit given");
                return;
            }
            initialSeq += reserved;
            final OctetsFW payload = data.payload();
            final int length = payload != null ? payload.sizeof() : 0;
            switch (state)
            {
                case HELLO ->
                {
                    if (length > 0 && hold(traceId, payload.buffer(), payload.offset(), length))
                    {
                        onHelloBytes(traceId);
                    }
                }
                case RELAY ->
                {
                    int sent = 0;
                    if (heldLimit == heldOffset)
                    {
                        // the common case: straight from the frame, nothing copied
                        sent = doNetData(traceId, payload.buffer(), payload.offset(), length);
                    }
                    if (sent < length && hold(traceId, payload.buffer(), payload.offset() + sent, length - sent))
                    {
                        flushHeld(traceId);
                    }
                    doAppWindow(traceId);
                }
                default -> doAppWindow(traceId);
            }
        }

        private void onHelloBytes(long traceId)
        {
            final int size = heldLimit - heldOffset;
            final MutableDirectBuffer held = bufferPool.buffer(slot);
            final int status = size >= helloNeeded ? hello.scan(held, heldOffset, heldLimit) : TlsClientHello.INCOMPLETE;
            if (size >= helloNeeded && status == TlsClientHello.INCOMPLETE)
            {
                helloNeeded = hello.needed();
            }
            switch (status)
            {
                case TlsClientHello.COMPLETE -> onHello(traceId);
                case TlsClientHello.INCOMPLETE ->
                {
                    if (size >= helloWindow)
                    {
                        onRejected(traceId, TlsClientHello.ALERT_HANDSHAKE_FAILURE,
                            "no whole ClientHello in the first " + helloWindow + " bytes");
                    }
                }
                default -> onRejected(traceId, TlsClientHello.alertFor(status), hello.reason());
            }
        }

        private void onHello(long traceId)
        {
            final String serverName = hello.serverName();
            final List<String> protocols = hello.protocols();
            final RouteConfig route = binding.resolve(matcher.with(serverName, protocols, port));
            if (route == null)
            {
                counters.unrouted.increment();
                context.event(routedId, traceId, "tls.route.missing", "bindings." + binding.name()
                    + ": no route for server name " + serverName + ", alpn " + protocols + ", port " + port
                    + ", connection closed");
                doRefuse(traceId, serverName != null
                    ? TlsClientHello.ALERT_UNRECOGNIZED_NAME : TlsClientHello.ALERT_HANDSHAKE_FAILURE);
            }
            else
            {
                counters.routed.increment();
                cancelTimer();
                state = State.RELAY;
                doNetBegin(traceId, route.exitId());
            }
        }

        private void onRejected(long traceId, int description, String reason)
        {
            counters.rejected.increment();
            context.event(routedId, traceId, "tls.hello.rejected", "bindings." + binding.name() + ": " + reason
                + ", connection closed");
            doRefuse(traceId, description);
        }

        private void onAppEnd(EndFW end)
        {
            final long traceId = end.traceId();
            appInitialClosed = true;
            appInitialEnded = true;
            switch (state)
            {
                case HELLO ->
                {
                    counters.rejected.increment();
                    context.event(routedId, traceId, "tls.hello.rejected", "bindings." + binding.name()
                        + ": the client ended its stream " + (heldLimit - heldOffset) + " bytes into its ClientHello,"
                        + " connection closed");
                    doCloseAll(traceId);
                }
                case RELAY ->
                {
                    if (heldLimit == heldOffset)
                    {
                        doNetEnd(traceId);
                    }
                }
                default -> cleanup();
            }
        }

        private void onAppAbort(AbortFW abort)
        {
            appInitialClosed = true;
            if (state == State.RELAY)
            {
                doNetAbort(abort.traceId());
                cleanup();
            }
            else
            {
                doCloseAll(abort.traceId());
            }
        }

        private void onAppWindow(WindowFW window)
        {
            final long traceId = window.traceId();
            replyAck = Math.max(replyAck, window.acknowledge());
            replyMax = window.maximum();
            replyPad = window.padding();
            if (state == State.REFUSED)
            {
                doAppAlert(traceId);
            }
            else if (netReplyOpened && !netReplyClosed)
            {
                // the reply direction is the exit's, byte for byte: its credit is the client's
                netReplyAck = replyAck;
                netReplyMax = replyMax;
                frames.window(net, routedId, exitId, netReplyId, netReplySeq, netReplyAck, netReplyMax, traceId,
                    window.budgetId(), replyPad);
            }
        }

        private void onAppReset(ResetFW reset)
        {
            appReplyClosed = true;
            if (state == State.RELAY)
            {
                doNetReset(reset.traceId());
                cleanup();
            }
            else
            {
                doCloseAll(reset.traceId());
            }
        }

        private void onAppSignal(SignalFW signal)
        {
            if (signal.signalId() == SIGNAL_HELLO_TIMEOUT && timerId != NO_CANCEL_ID)
            {
                timerId = NO_CANCEL_ID;
                final long traceId = signal.traceId();
                if (state == State.HELLO)
                {
                    counters.timedOut.increment();
                    context.event(routedId, traceId, "tls.hello.timeout", "bindings." + binding.name()
                        + ": no whole ClientHello after " + helloTimeout + " ms (" + (heldLimit - heldOffset)
                        + " bytes), connection closed");
                }
                // refused: the client had its alert and as long again to close
                doCloseAll(traceId);
            }
        }

        private void onNetBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            netReplyOpened = true;
            netReplySeq = begin.sequence();
            netReplyAck = begin.acknowledge();
            replySeq = netReplySeq;
            replyAck = netReplyAck;
            doAppReplyBegin(traceId);
        }

        private void onNetData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            if (data.sequence() != netReplySeq || netReplySeq + reserved > netReplyAck + netReplyMax)
            {
                onFault(traceId, "a Data frame from the exit beyond the credit given");
                return;
            }
            netReplySeq += reserved;
            frames.data(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, data.flags(),
                data.budgetId(), reserved, data.payload());
            replySeq += reserved;
        }

        private void onNetEnd(EndFW end)
        {
            netReplyClosed = true;
            doAppReplyEnd(end.traceId());
            cleanup();
        }

        private void onNetAbort(AbortFW abort)
        {
            netReplyClosed = true;
            doAppReplyAbort(abort.traceId());
            cleanup();
        }

        private void onNetWindow(WindowFW window)
        {
            final long traceId = window.traceId();
            netInitialAck = Math.max(netInitialAck, window.acknowledge());
            netInitialMax = window.maximum();
            netInitialPad = window.padding();
            flushHeld(traceId);
            doAppWindow(traceId);
        }

        private void onNetReset(ResetFW reset)
        {
            netInitialClosed = true;
            final long traceId = reset.traceId();
            doAppReset(traceId);
            if (!netReplyOpened)
            {
                // the exit never answered (its connection failed): nothing will come back, end the client's side too
                netReplyClosed = true;
                doCloseAll(traceId);
            }
            cleanup();
        }

        private void onFault(long traceId, String what)
        {
            context.event(routedId, traceId, "tls.stream.fault", "bindings." + binding.name() + ": " + what
                + ", connection closed");
            doCloseAll(traceId);
        }

        // the client's bytes that cannot go on yet; the credit given is what keeps them within the slot
        private boolean hold(long traceId, DirectBuffer buffer, int offset, int length)
        {
            boolean held = true;
            if (length > 0)
            {
                if (slot == BufferPool.NO_SLOT)
                {
                    slot = bufferPool.acquire(initialId);
                    heldOffset = 0;
                    heldLimit = 0;
                }
                if (slot == BufferPool.NO_SLOT)
                {
                    context.event(routedId, traceId, "tls.buffers.exhausted", "bindings." + binding.name()
                        + ": no buffer slot left, connection closed");
                    doCloseAll(traceId);
                    held = false;
                }
                else
                {
                    final MutableDirectBuffer slotBuffer = bufferPool.buffer(slot);
                    if (heldLimit + length > slotBuffer.capacity())
                    {
                        slotBuffer.putBytes(0, slotBuffer, heldOffset, heldLimit - heldOffset);
                        heldLimit -= heldOffset;
                        heldOffset = 0;
                    }
                    slotBuffer.putBytes(heldLimit, buffer, offset, length);
                    heldLimit += length;
                }
            }
            return held;
        }

        // the held bytes that the exit's credit takes now, the ClientHello first; then a deferred End
        private void flushHeld(long traceId)
        {
            if (state == State.RELAY && slot != BufferPool.NO_SLOT)
            {
                final MutableDirectBuffer held = bufferPool.buffer(slot);
                int sent;
                do
                {
                    sent = doNetData(traceId, held, heldOffset, heldLimit - heldOffset);
                    heldOffset += sent;
                }
                while (sent > 0 && heldOffset < heldLimit);

                if (heldOffset == heldLimit)
                {
                    releaseSlot();
                }
            }
            if (state == State.RELAY && slot == BufferPool.NO_SLOT && appInitialEnded)
            {
                doNetEnd(traceId);
            }
        }

        private int doNetData(long traceId, DirectBuffer buffer, int offset, int length)
        {
            int sent = 0;
            if (net != null && !netInitialClosed)
            {
                final int credit = netInitialMax - (int) (netInitialSeq - netInitialAck) - netInitialPad;
                final int size = Math.min(Math.min(length, credit), writeBuffer.capacity() >> 1);
                if (size > 0)
                {
                    final int reserved = size + netInitialPad;
                    frames.data(net, routedId, exitId, netInitialId, netInitialSeq, netInitialAck, netInitialMax, traceId,
                        FLAGS_COMPLETE, 0L, reserved, buffer, offset, size, null, 0, 0);
                    netInitialSeq += reserved;
                    sent = size;
                }
            }
            return sent;
        }

        private void doNetBegin(long traceId, long exitId)
        {
            this.exitId = exitId;
            this.netInitialId = context.supplyInitialId(exitId);
            this.netReplyId = context.supplyReplyId(netInitialId);
            final BeginFW.Builder builder = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(routedId).routedId(exitId).streamId(netInitialId)
                .sequence(netInitialSeq).acknowledge(netInitialAck).maximum(netInitialMax)
                .traceId(traceId);
            if (beginEx != null)
            {
                builder.extension(new UnsafeBuffer(beginEx), 0, beginEx.length);
            }
            final BeginFW begin = builder.build();
            net = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), this::onNetMessage);
            if (net == null)
            {
                netInitialClosed = true;
                netReplyClosed = true;
                doCloseAll(traceId);
            }
        }

        private void doRefuse(long traceId, int description)
        {
            state = State.REFUSED;
            alert = description;
            releaseSlot();
            // the timer now bounds how long a refused client may take to read its alert and close
            cancelTimer();
            timerId = context.signaler().signalAt(System.currentTimeMillis() + helloTimeout, originId, routedId, replyId,
                traceId, SIGNAL_HELLO_TIMEOUT, 0);
            doAppReplyBegin(traceId);
            doAppWindow(traceId);
            doAppAlert(traceId);
        }

        private void doAppAlert(long traceId)
        {
            if (alert != NO_ALERT && appReplyOpened && !appReplyClosed
                && replyMax - (int) (replySeq - replyAck) - replyPad >= ALERT_SIZE)
            {
                final int size = TlsClientHello.alert(alertBuffer, 0, alert);
                final int reserved = size + replyPad;
                frames.data(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, FLAGS_COMPLETE, 0L,
                    reserved, alertBuffer, 0, size, null, 0, 0);
                replySeq += reserved;
                alert = NO_ALERT;
                // the End lets the tcp server write the alert before it closes (a Reset would discard it)
                doAppReplyEnd(traceId);
                cleanup();
            }
        }

        // the client's credit: the room left in the slot (while routing, no more than a ClientHello may need)
        private void doAppWindow(long traceId)
        {
            if (!appInitialClosed)
            {
                final int held = heldLimit - heldOffset;
                final long ack = state == State.REFUSED ? initialSeq : initialSeq - held;
                final int max = state == State.HELLO ? helloWindow : bufferPool.slotCapacity();
                // as tcp: credit goes back per half window, not per frame
                if (ack - initialAck >= max >> 1 || max != initialMax || state == State.REFUSED && ack != initialAck)
                {
                    initialAck = ack;
                    initialMax = max;
                    frames.window(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, 0L, 0);
                }
            }
        }

        private void doAppReplyBegin(long traceId)
        {
            if (!appReplyOpened)
            {
                appReplyOpened = true;
                frames.begin(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, null, 0, 0);
            }
        }

        private void doAppReplyEnd(long traceId)
        {
            if (appReplyOpened && !appReplyClosed)
            {
                frames.end(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
            }
            appReplyClosed = true;
        }

        private void doAppReplyAbort(long traceId)
        {
            if (appReplyOpened && !appReplyClosed)
            {
                frames.abort(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
            }
            appReplyClosed = true;
        }

        private void doAppReset(long traceId)
        {
            if (!appInitialClosed)
            {
                frames.reset(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, null, 0, 0);
            }
            appInitialClosed = true;
        }

        private void doNetEnd(long traceId)
        {
            if (net != null && !netInitialClosed)
            {
                frames.end(net, routedId, exitId, netInitialId, netInitialSeq, netInitialAck, netInitialMax, traceId);
            }
            netInitialClosed = true;
            cleanup();
        }

        private void doNetAbort(long traceId)
        {
            if (net != null && !netInitialClosed)
            {
                frames.abort(net, routedId, exitId, netInitialId, netInitialSeq, netInitialAck, netInitialMax, traceId);
            }
            netInitialClosed = true;
        }

        private void doNetReset(long traceId)
        {
            if (net != null && !netReplyClosed)
            {
                frames.reset(net, routedId, exitId, netReplyId, netReplySeq, netReplyAck, netReplyMax, traceId, null, 0, 0);
            }
            netReplyClosed = true;
        }

        void doCloseAll(long traceId)
        {
            if (appInitialEnded && !appReplyClosed)
            {
                // the client only half-closed: a reply it has not seen begin yet is what closes its connection
                doAppReplyBegin(traceId);
            }
            doAppReplyAbort(traceId);
            doAppReset(traceId);
            doNetAbort(traceId);
            doNetReset(traceId);
            cleanup();
        }

        private void cancelTimer()
        {
            if (timerId != NO_CANCEL_ID)
            {
                context.signaler().cancel(timerId);
                timerId = NO_CANCEL_ID;
            }
        }

        private void releaseSlot()
        {
            if (slot != BufferPool.NO_SLOT)
            {
                bufferPool.release(slot);
                slot = BufferPool.NO_SLOT;
                heldOffset = 0;
                heldLimit = 0;
            }
        }

        private void cleanup()
        {
            final boolean netDone = net == null || netInitialClosed && netReplyClosed;
            if (appInitialClosed && appReplyClosed && netDone)
            {
                releaseSlot();
                cancelTimer();
                proxies.remove(initialId);
            }
            else if (appInitialClosed && state != State.RELAY || netInitialClosed)
            {
                // nobody will take the bytes held
                releaseSlot();
            }
        }
    }
}
