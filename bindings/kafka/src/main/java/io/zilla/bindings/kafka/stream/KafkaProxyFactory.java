/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.zilla.bindings.kafka.config.KafkaOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaProxyLimits;
import io.zilla.bindings.kafka.config.KafkaSniConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.ReadyCondition;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ExtensionFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.RequestHeaderDecoder;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import io.zilla.specs.tls.types.stream.TlsBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The streams of one kafka proxy binding on one worker. Each stream from the tcp server is one client connection
 * and opens one stream to the exit (a tcp client) toward the broker it stands for.
 * <p>
 * Requests pass through in place with the exit's own credit, while {@link KafkaRequestScanner} notes what each
 * one was. Responses pass through in place too, within the client's credit; only what the client cannot take yet,
 * and the responses that {@link KafkaResponseRewriter} must see whole (Metadata, FindCoordinator, DescribeCluster,
 * ApiVersions), wait in {@link HeldBytes}, whose capacity is the credit offered to the broker.
 * <p>
 * Which broker a connection stands for: in port mode the local port (a TcpBeginEx's, or a TlsBeginEx's behind a tls
 * server) is the bootstrap port or a node's port; in SNI mode ({@link KafkaSniConfig}) the TLS server name that a
 * tls server in front puts on the TlsBeginEx names the bootstrap servers or a node.
 */
public final class KafkaProxyFactory implements BindingHandler
{
    /** The largest response a broker may send: the ones rewritten are held whole. */
    static final int MAX_RESPONSE_SIZE = 100 * 1024 * 1024;

    private static final int SIGNAL_REQUEST_TIMEOUT = 1;

    private static final int TCP_TYPE_ID = "tcp".hashCode();
    private static final int TLS_TYPE_ID = "tls".hashCode();
    private static final int RESPONSE_HEADER = 8;
    private static final int MAX_NAME_LENGTH = 253;
    private static final DirectBuffer NOTHING = new UnsafeBuffer(new byte[0]);

    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final EndFW endRO = new EndFW();
    private final AbortFW abortRO = new AbortFW();
    private final WindowFW windowRO = new WindowFW();
    private final ResetFW resetRO = new ResetFW();
    private final SignalFW signalRO = new SignalFW();
    private final ExtensionFW extensionRO = new ExtensionFW();
    private final TcpBeginExFW tcpBeginExRO = new TcpBeginExFW();
    private final TlsBeginExFW tlsBeginExRO = new TlsBeginExFW();

    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final TcpBeginExFW.Builder tcpBeginExRW = new TcpBeginExFW.Builder();
    private final MutableDirectBuffer extensionBuffer = new UnsafeBuffer(new byte[512]);

    private final RequestHeaderDecoder requestHeader = new RequestHeaderDecoder();
    private final KafkaResponseRewriter rewriter;

    private final EngineContext context;
    private final BindingConfig binding;
    private final KafkaOptionsConfig options;
    private final KafkaSniConfig sni;
    private final Int2ObjectHashMap<BrokerAddress> sniAddresses = new Int2ObjectHashMap<>();
    private final Map<Integer, BrokerAddress> brokers;
    private final List<BrokerAddress> bootstrapServers;
    private final MutableDirectBuffer writeBuffer;
    private final StreamFrames frames;
    private final AtomicCounter malformed;
    private final AtomicCounter unsupported;
    private final AtomicCounter sniUnknown;
    private final AtomicCounter oversized;
    private final AtomicCounter refused;
    private final AtomicCounter timedOut;
    private final AtomicCounter backlogged;
    private final AtomicCounter partial;
    private final KafkaProxyLimits limits;
    private final KafkaPartialRequests partialRequests;
    private final Long2ObjectHashMap<KafkaProxy> proxies = new Long2ObjectHashMap<>();
    private final List<KafkaProxy> awaitingLookup = new ArrayList<>();

    private final ReadyCondition reachable;

    private int nextBootstrap;
    private KafkaBrokerLookup lookup;
    private KafkaBrokerLookup probe;

    KafkaProxyFactory(EngineContext context, BindingConfig binding, Map<Integer, BrokerAddress> brokers,
        KafkaPartialRequests partialRequests)
    {
        this.context = context;
        this.binding = binding;
        this.options = (KafkaOptionsConfig) binding.options();
        this.sni = options != null ? options.sni() : null;
        this.brokers = brokers;
        this.bootstrapServers = options != null
            ? options.bootstrap().stream().map(KafkaProxyFactory::address).toList()
            : List.of();
        this.writeBuffer = context.writeBuffer();
        this.frames = new StreamFrames(writeBuffer);
        this.malformed = context.supplyCounter(binding.id(), "frames.malformed");
        this.unsupported = context.supplyCounter(binding.id(), "requests.unsupported");
        this.sniUnknown = context.supplyCounter(binding.id(), "sni.unknown");
        this.oversized = context.supplyCounter(binding.id(), "requests.oversized");
        this.refused = context.supplyCounter(binding.id(), "requests.refused");
        this.timedOut = context.supplyCounter(binding.id(), "requests.timedout");
        this.backlogged = context.supplyCounter(binding.id(), "requests.backlogged");
        this.partial = context.supplyCounter(binding.id(), "requests.partial");
        this.limits = options != null ? options.limits() : KafkaProxyLimits.DEFAULTS;
        this.partialRequests = partialRequests;
        this.rewriter = new KafkaResponseRewriter(this::mapBroker, MAX_RESPONSE_SIZE);
        // one worker answers for the binding: the cluster is as reachable from one worker as from another
        this.reachable = options != null && !bootstrapServers.isEmpty() && context.index() == 0
            ? context.supplyReadyCondition(binding.id(), "kafka " + binding.name(), this::checkReachable)
            : null;
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final RouteConfig route = binding.resolveAny();
        MessageConsumer receiver = null;
        if (route != null && options != null)
        {
            final KafkaProxy proxy = new KafkaProxy(sender, begin.originId(), begin.routedId(), begin.streamId(),
                route.exitId());
            proxies.put(proxy.initialId, proxy);
            receiver = proxy::onAppMessage;
        }
        return receiver;
    }

    void close()
    {
        if (reachable != null)
        {
            reachable.close();
        }
        final long traceId = context.supplyTraceId();
        for (KafkaProxy proxy : new ArrayList<>(proxies.values()))
        {
            proxy.doCloseAll(traceId);
        }
    }

    // readiness: the Metadata request a lookup sends, to the next bootstrap server, whenever the health endpoint asks
    private void checkReachable()
    {
        final RouteConfig route = binding.resolveAny();
        if (route == null)
        {
            reachable.unmet("no route to the brokers");
        }
        else if (probe == null)
        {
            final BrokerAddress server = nextBootstrapServer();
            final KafkaBrokerLookup started = new KafkaBrokerLookup(context, frames, rewriter, binding.id(), route.exitId(),
                () -> onProbeComplete(server));
            probe = started;
            started.start(context.supplyTraceId(), server.host(), server.port());
        }
    }

    private void onProbeComplete(BrokerAddress server)
    {
        if (probe.answered())
        {
            reachable.met();
        }
        else
        {
            reachable.unmet(server.host() + ":" + server.port() + ": no Metadata answer (the connection failed or closed)");
        }
        probe = null;
    }

    // rare (control-plane responses only): allocation is fine here
    private BrokerAddress mapBroker(int nodeId, String host, int port)
    {
        brokers.put(nodeId, new BrokerAddress(host, port));
        final BrokerAddress mapped;
        if (sni != null)
        {
            // every node has a name, so no response ever names a broker's own address
            mapped = sniAddresses.computeIfAbsent(nodeId, id -> new BrokerAddress(sni.brokerName(id), sni.port()));
        }
        else
        {
            final Integer advertised = options.ports().get(nodeId);
            mapped = advertised != null ? new BrokerAddress(options.advertiseHost(), advertised) : new BrokerAddress(host, port);
        }
        return mapped;
    }

    // host:port, as the schema requires
    private static BrokerAddress address(String server)
    {
        final int colon = server.lastIndexOf(':');
        return new BrokerAddress(server.substring(0, colon), Integer.parseInt(server.substring(colon + 1)));
    }

    // one lookup at a time per worker and binding: every connection to a node not known yet waits for it
    private void lookupBrokers(KafkaProxy proxy, long exitId, long traceId)
    {
        awaitingLookup.add(proxy);
        if (lookup == null)
        {
            lookup = new KafkaBrokerLookup(context, frames, rewriter, binding.id(), exitId, this::onLookupComplete);
            final BrokerAddress bootstrap = nextBootstrapServer();
            lookup.start(traceId, bootstrap.host(), bootstrap.port());
        }
    }

    private void onLookupComplete()
    {
        lookup = null;
        final long traceId = context.supplyTraceId();
        final List<KafkaProxy> waiting = new ArrayList<>(awaitingLookup);
        awaitingLookup.clear();
        for (KafkaProxy proxy : waiting)
        {
            proxy.onLookupComplete(traceId);
        }
    }

    // a connection that stands for no known broker goes to the bootstrap servers in turn, so one that is down
    // costs the client one reconnect
    private BrokerAddress nextBootstrapServer()
    {
        final BrokerAddress server = bootstrapServers.get(nextBootstrap);
        nextBootstrap = (nextBootstrap + 1) % bootstrapServers.size();
        return server;
    }

    private final class KafkaProxy
    {
        private final long initialId;
        private final long exitId;
        private final KafkaRequestScanner requests;
        private final HeldBytes held;
        private final HeldBytes rewritten;

        // the client's connection (receives requests, sends responses) and the broker's (the other way round)
        private final StreamSide app = new StreamSide(frames);
        private final StreamSide net = new StreamSide(frames);

        private int nodeId = -1;
        private String serverName;

        // the response being passed on: bytes of it still to send, or the request it answers while it is gathered
        private int passRemaining;
        private int gathering = KafkaRequestScanner.NO_REQUEST;
        private int gatherSize;

        private boolean netReplyEnded;

        // the request that spans Data frames: what it declared (counted in partialRequests), when it began, its timer
        private int partialClaimed;
        private long partialRequest;
        private long partialStartedAt;
        private long timeoutId = Signaler.NO_CANCEL_ID;

        KafkaProxy(MessageConsumer sender, long originId, long routedId, long initialId, long exitId)
        {
            this.initialId = initialId;
            this.exitId = exitId;
            final long netInitialId = context.supplyInitialId(exitId);
            final long netReplyId = context.supplyReplyId(netInitialId);
            app.set(sender, originId, routedId, initialId, initialId & ~1L);
            net.set(null, routedId, exitId, netReplyId, netInitialId);
            this.requests = new KafkaRequestScanner(requestHeader, limits.requestMaxBytes());
            this.held = new HeldBytes(context.bufferPool(), netReplyId);
            this.rewritten = new HeldBytes(context.bufferPool(), app.outboundId);
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
            app.onInBegin(begin);
            net.outSeq = app.inSeq;
            net.outAck = app.inAck;

            nodeId = sni != null ? sniNode(begin.extension()) : portNode(begin.extension());
            final BrokerAddress broker = nodeId >= 0 ? brokers.get(nodeId) : null;
            if (nodeId == KafkaSniConfig.UNKNOWN)
            {
                sniUnknown.increment();
                context.event(app.routedId, begin.traceId(), "kafka.sni.unknown", "bindings." + binding.name()
                    + ": the server name " + printable(serverName) + " is neither the bootstrap name nor a broker's, "
                    + "connection closed");
                doCloseAll(begin.traceId());
            }
            else if (broker != null)
            {
                doNetBegin(begin.traceId(), broker.host(), broker.port());
            }
            else if (nodeId >= 0)
            {
                lookupBrokers(this, exitId, begin.traceId());
            }
            else
            {
                final BrokerAddress bootstrap = nextBootstrapServer();
                doNetBegin(begin.traceId(), bootstrap.host(), bootstrap.port());
            }
        }

        // port mode: the local port, as a tcp server (or a tls server behind it) tells it; none: a bootstrap server
        private int portNode(OctetsFW extension)
        {
            int localPort = options.bootstrapPort();
            final int typeId = extensionTypeId(extension);
            if (typeId == TCP_TYPE_ID)
            {
                final TcpBeginExFW tcpBeginEx = tcpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit());
                localPort = tcpBeginEx != null ? tcpBeginEx.destinationPort() : localPort;
            }
            else if (typeId == TLS_TYPE_ID)
            {
                final TlsBeginExFW tlsBeginEx = tlsBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit());
                localPort = tlsBeginEx != null ? tlsBeginEx.destinationPort() : localPort;
            }
            return localPort == options.bootstrapPort() ? -1 : options.nodeOf(localPort);
        }

        // SNI mode: the server name a tls server put on the Begin; none (plain tcp, or no SNI) stands for a bootstrap server
        private int sniNode(OctetsFW extension)
        {
            int node = KafkaSniConfig.BOOTSTRAP;
            if (extensionTypeId(extension) == TLS_TYPE_ID)
            {
                final TlsBeginExFW tlsBeginEx = tlsBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit());
                // once per connection, not on the data path: the name as a String is fine here
                serverName = tlsBeginEx != null ? tlsBeginEx.authority().asString() : "(unreadable TlsBeginEx)";
                node = tlsBeginEx != null ? sni.nodeOf(serverName) : KafkaSniConfig.UNKNOWN;
            }
            return node;
        }

        // the client chose the name: what goes into an event is visible ASCII, and no longer than a DNS name
        private String printable(String name)
        {
            final String visible = name.replaceAll("[^\\x21-\\x7e]", "?");
            return visible.length() > MAX_NAME_LENGTH ? visible.substring(0, MAX_NAME_LENGTH) + "..." : visible;
        }

        private int extensionTypeId(OctetsFW extension)
        {
            return extension != null && extension.sizeof() > 0
                && extensionRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) != null
                ? extensionRO.typeId()
                : 0;
        }

        void onLookupComplete(long traceId)
        {
            final BrokerAddress broker = brokers.get(nodeId);
            if (app.inClosed || app.outClosed)
            {
                doCloseAll(traceId);
            }
            else if (broker != null)
            {
                doNetBegin(traceId, broker.host(), broker.port());
            }
            else
            {
                context.event(app.routedId, traceId, "kafka.broker.unknown", "bindings." + binding.name() + ": node "
                    + nodeId + " is not in the cluster's metadata, connection closed");
                doCloseAll(traceId);
            }
        }

        private void onAppData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            if (!app.onInData(data.sequence(), reserved))
            {
                doCloseAll(traceId);
                return;
            }
            final OctetsFW payload = data.payload();
            final int scanned = payload != null
                ? requests.scan(payload.buffer(), payload.offset(), payload.limit())
                : KafkaRequestScanner.VALID;
            switch (scanned)
            {
                case KafkaRequestScanner.MALFORMED -> onMalformed(traceId, "malformed request frame");
                case KafkaRequestScanner.UNSUPPORTED -> onUnsupported(traceId);
                case KafkaRequestScanner.OVERSIZED -> onOversized(traceId);
                case KafkaRequestScanner.BACKLOGGED -> onBacklogged(traceId);
                default ->
                {
                    if (followPartialRequest(traceId))
                    {
                        doNetData(data, payload);
                    }
                }
            }
        }

        /**
         * A request that goes on past this Data frame has made the broker allocate its declared size: that size counts
         * against {@code limits.partial-requests-max-bytes} until the request is whole, and its time against
         * {@code limits.request-timeout}. Requests that arrive whole in one frame, the common case, cost nothing here.
         *
         * @return false when the request would take the binding over its bound: the connection is closed
         */
        private boolean followPartialRequest(long traceId)
        {
            boolean admitted = true;
            final int partialSize = requests.partialSize();
            if (partialSize != partialClaimed)
            {
                partialRequests.release(partialClaimed);
                partialClaimed = 0;
                if (partialSize > 0 && !partialRequests.claim(partialSize, limits.partialRequestsMaxBytes()))
                {
                    admitted = false;
                    onRefused(traceId, partialSize);
                }
                else
                {
                    partialClaimed = partialSize;
                }
            }
            if (admitted && requests.midRequest())
            {
                if (requests.requestsBegun() != partialRequest)
                {
                    // it began in this frame, or in the last one that ended between requests
                    partialRequest = requests.requestsBegun();
                    partialStartedAt = System.currentTimeMillis();
                    partial.increment();
                }
                if (timeoutId == Signaler.NO_CANCEL_ID)
                {
                    timeoutId = context.signaler().signalAt(partialStartedAt + limits.requestTimeout(), app.originId,
                        app.routedId, app.outboundId, traceId, SIGNAL_REQUEST_TIMEOUT, 0);
                }
            }
            return admitted;
        }

        // one timer per connection at most, armed for the partial request that was first to need it
        private void onAppSignal(SignalFW signal)
        {
            if (signal.signalId() == SIGNAL_REQUEST_TIMEOUT)
            {
                timeoutId = Signaler.NO_CANCEL_ID;
                if (requests.midRequest() && !app.inClosed)
                {
                    final long deadline = partialStartedAt + limits.requestTimeout();
                    if (System.currentTimeMillis() >= deadline)
                    {
                        onRequestTimeout(signal.traceId());
                    }
                    else
                    {
                        // another request, begun later, is partial now
                        timeoutId = context.signaler().signalAt(deadline, app.originId, app.routedId, app.outboundId,
                            signal.traceId(), SIGNAL_REQUEST_TIMEOUT, 0);
                    }
                }
            }
        }

        private void onAppEnd(EndFW end)
        {
            app.inClosed = true;
            if (requests.midRequest())
            {
                onMalformed(end.traceId(), "truncated request frame");
            }
            else
            {
                net.doOutEnd(end.traceId());
            }
        }

        private void onAppAbort(AbortFW abort)
        {
            app.inClosed = true;
            net.doOutAbort(abort.traceId());
            cleanup();
        }

        private void onAppWindow(WindowFW window)
        {
            app.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
            passHeldResponses();
            afterResponses(window.traceId());
        }

        private void onAppReset(ResetFW reset)
        {
            app.outClosed = true;
            net.doInReset(reset.traceId());
            cleanup();
        }

        private void onNetBegin(BeginFW begin)
        {
            net.onInBegin(begin);
            app.doOutBegin(begin.traceId(), null, 0, 0);
            doNetReplyWindow(begin.traceId());
        }

        private void onNetData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            final OctetsFW payload = data.payload();
            if (!net.onInData(data.sequence(), reserved))
            {
                doCloseAll(traceId);
                return;
            }
            if (payload != null && payload.sizeof() > 0)
            {
                if (held.isEmpty() && rewritten.isEmpty())
                {
                    // the common case: pass the responses on straight from the frame, hold only what is left
                    final int progress = passResponses(payload.buffer(), payload.offset(), payload.limit());
                    if (!app.outClosed)
                    {
                        held.ensureCapacity(gatherSize);
                        if (progress < payload.limit() && !held.append(payload.buffer(), progress, payload.limit() - progress))
                        {
                            doCloseAll(traceId);
                        }
                    }
                }
                else if (held.append(payload.buffer(), payload.offset(), payload.sizeof()))
                {
                    passHeldResponses();
                }
                else
                {
                    doCloseAll(traceId);
                }
            }
            afterResponses(traceId);
        }

        private void onNetEnd(EndFW end)
        {
            netReplyEnded = true;
            net.inClosed = true;
            afterResponses(end.traceId());
        }

        private void onNetAbort(AbortFW abort)
        {
            net.inClosed = true;
            doCloseAll(abort.traceId());
        }

        private void onNetWindow(WindowFW window)
        {
            net.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
            app.doInWindow(window.traceId(), net.outAck, net.outMax, net.outPad);
        }

        private void onNetReset(ResetFW reset)
        {
            net.outClosed = true;
            doCloseAll(reset.traceId());
        }

        private void onMalformed(long traceId, String what)
        {
            malformed.increment();
            context.event(app.routedId, traceId, "kafka.frame.malformed",
                "bindings." + binding.name() + ": " + what + ", connection closed");
            doCloseAll(traceId);
        }

        private void onOversized(long traceId)
        {
            oversized.increment();
            context.event(app.routedId, traceId, "kafka.request.oversized", "bindings." + binding.name() + ": a request of "
                + requests.partialSize() + " bytes, over limits.request-max-bytes (" + limits.requestMaxBytes()
                + "), connection closed");
            doCloseAll(traceId);
        }

        private void onRefused(long traceId, int partialSize)
        {
            refused.increment();
            context.event(app.routedId, traceId, "kafka.request.refused", "bindings." + binding.name() + ": a request of "
                + partialSize + " bytes would take the requests still arriving over limits.partial-requests-max-bytes ("
                + limits.partialRequestsMaxBytes() + "), connection closed");
            doCloseAll(traceId);
        }

        private void onRequestTimeout(long traceId)
        {
            timedOut.increment();
            final int partialSize = requests.partialSize();
            context.event(app.routedId, traceId, "kafka.request.timeout", "bindings." + binding.name() + ": a request"
                + (partialSize > 0 ? " of " + partialSize + " bytes" : "") + " was not whole after limits.request-timeout ("
                + limits.requestTimeout() + " ms), connection closed");
            doCloseAll(traceId);
        }

        private void onBacklogged(long traceId)
        {
            backlogged.increment();
            context.event(app.routedId, traceId, "kafka.requests.backlogged", "bindings." + binding.name() + ": more than "
                + KafkaRequestScanner.MAX_PENDING + " Metadata, FindCoordinator, DescribeCluster or ApiVersions requests "
                + "awaiting their responses, connection closed");
            doCloseAll(traceId);
        }

        private void onUnsupported(long traceId)
        {
            unsupported.increment();
            context.event(app.routedId, traceId, "kafka.request.unsupported", "bindings." + binding.name()
                + ": a request version the proxy did not offer in ApiVersions, connection closed");
            doCloseAll(traceId);
        }

        /**
         * Passes on the responses in {@code [offset, limit)} as far as the client's credit goes, rewritten ones
         * whole once all their bytes are here.
         *
         * @return how far the bytes were used; the rest must be held
         */
        private int passResponses(DirectBuffer buffer, int offset, int limit)
        {
            int progress = offset;
            boolean moving = app.outOpened && !app.outClosed;
            while (moving)
            {
                if (!rewritten.isEmpty())
                {
                    final int sent = doAppData(rewritten.buffer(), rewritten.offset(), rewritten.size());
                    rewritten.consume(sent);
                    moving = rewritten.isEmpty();
                }
                else if (passRemaining > 0)
                {
                    final int sent = doAppData(buffer, progress, Math.min(passRemaining, limit - progress));
                    progress += sent;
                    passRemaining -= sent;
                    moving = sent > 0;
                }
                else if (limit - progress >= RESPONSE_HEADER)
                {
                    final int next = onResponse(buffer, progress, limit);
                    moving = next != progress || passRemaining > 0;
                    progress = next;
                }
                else
                {
                    moving = false;
                }
                moving &= !app.outClosed;
            }
            return progress;
        }

        // a response's header is here: pass it on as it is, or gather it whole and rewrite it
        private int onResponse(DirectBuffer buffer, int offset, int limit)
        {
            final int size = buffer.getInt(offset, BIG_ENDIAN);
            int progress = offset;
            if (size < Integer.BYTES || size > MAX_RESPONSE_SIZE)
            {
                onMalformed(context.supplyTraceId(), "malformed response frame");
            }
            else
            {
                final int frameSize = Integer.BYTES + size;
                if (gathering == KafkaRequestScanner.NO_REQUEST)
                {
                    final int request = requests.take(buffer.getInt(offset + Integer.BYTES, BIG_ENDIAN));
                    if (request != KafkaRequestScanner.NO_REQUEST
                        && KafkaResponseRewriter.rewrites(KafkaRequestScanner.apiKey(request)))
                    {
                        gathering = request;
                        gatherSize = frameSize;
                    }
                    else
                    {
                        passRemaining = frameSize;
                    }
                }
                if (gathering != KafkaRequestScanner.NO_REQUEST && limit - offset >= frameSize)
                {
                    final int written = rewriter.rewrite(KafkaRequestScanner.apiKey(gathering),
                        KafkaRequestScanner.apiVersion(gathering), buffer, offset, offset + frameSize);
                    gathering = KafkaRequestScanner.NO_REQUEST;
                    if (written == KafkaResponseRewriter.FAILED)
                    {
                        onMalformed(context.supplyTraceId(), "unreadable response to rewrite");
                    }
                    else
                    {
                        rewritten.ensureCapacity(written);
                        rewritten.append(rewriter.buffer(), 0, written);
                        progress = offset + frameSize;
                    }
                }
            }
            return progress;
        }

        // held bytes move only here, never while passResponses reads them
        private void passHeldResponses()
        {
            if (held.isEmpty())
            {
                passResponses(NOTHING, 0, 0);
            }
            else
            {
                final int progress = passResponses(held.buffer(), held.offset(), held.limit());
                if (!app.outClosed)
                {
                    held.consume(progress - held.offset());
                }
            }
            if (!app.outClosed)
            {
                held.ensureCapacity(gatherSize);
            }
        }

        // ends the client's reply once the broker's has ended and everything has gone on, and credits the broker
        private void afterResponses(long traceId)
        {
            if (netReplyEnded && !app.outClosed && rewritten.isEmpty())
            {
                if (held.isEmpty())
                {
                    app.doOutEnd(traceId);
                    cleanup();
                }
                else if (passRemaining == 0 && (gathering != KafkaRequestScanner.NO_REQUEST || held.size() < RESPONSE_HEADER))
                {
                    // the broker ended inside a response: nothing will complete it
                    doCloseAll(traceId);
                }
            }
            else if (!net.inClosed && !app.outClosed)
            {
                doNetReplyWindow(traceId);
            }
        }

        private int doAppData(DirectBuffer buffer, int offset, int length)
        {
            final int size = Math.min(Math.min(length, app.outCredit()), writeBuffer.capacity() >> 1);
            int sent = 0;
            if (size > 0)
            {
                app.doOutData(context.supplyTraceId(), buffer, offset, size);
                sent = size;
            }
            return sent;
        }

        private void doNetData(DataFW data, OctetsFW payload)
        {
            net.doOutData(data.traceId(), data.flags(), data.reserved(), payload);
        }

        private void doNetBegin(long traceId, String host, int port)
        {
            final TcpBeginExFW beginEx = tcpBeginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .typeId(TCP_TYPE_ID)
                .sourceHost((String) null)
                .sourcePort(0)
                .destinationHost(host)
                .destinationPort(port)
                .build();
            final BeginFW begin = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(net.originId).routedId(net.routedId).streamId(net.outboundId)
                .sequence(net.outSeq).acknowledge(net.outAck).maximum(net.outMax)
                .traceId(traceId)
                .extension(beginEx.buffer(), beginEx.offset(), beginEx.sizeof())
                .build();
            net.target = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), this::onNetMessage);
            net.outOpened = net.target != null;
            if (net.target == null)
            {
                doCloseAll(traceId);
            }
        }

        private void doNetReplyWindow(long traceId)
        {
            final long ack = net.inSeq - held.size();
            final int max = held.capacity();
            // credit goes back per half window, as tcp does: the broker always keeps at least half of it, and
            // a stream of small responses costs one Window frame per half window instead of one per Data frame
            if (ack - net.inAck >= max >> 1 || max != net.inMax)
            {
                net.doInWindow(traceId, ack, max, 0);
            }
        }

        void doCloseAll(long traceId)
        {
            app.doInReset(traceId);
            app.doOutAbort(traceId);
            net.doOutAbort(traceId);
            net.doInReset(traceId);
            cleanup();
        }

        private void cleanup()
        {
            if (app.inClosed)
            {
                partialRequests.release(partialClaimed);
                partialClaimed = 0;
                if (timeoutId != Signaler.NO_CANCEL_ID)
                {
                    context.signaler().cancel(timeoutId);
                    timeoutId = Signaler.NO_CANCEL_ID;
                }
            }
            if (app.outClosed)
            {
                held.release();
                rewritten.release();
            }
            if (app.closed() && net.closed())
            {
                proxies.remove(initialId);
            }
        }
    }
}
