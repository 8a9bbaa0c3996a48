/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

import java.util.ArrayList;
import java.util.Map;

import io.zilla.bindings.kafka.config.KafkaOptionsConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.ApiVersionRanges;
import io.zilla.specs.kafka.codec.ApiVersionsResponses;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.BrokerAddressMapper;
import io.zilla.specs.kafka.codec.DescribeClusterResponseRewriter;
import io.zilla.specs.kafka.codec.FindCoordinatorResponseRewriter;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.codec.MetadataResponseRewriter;
import io.zilla.specs.kafka.codec.ResponseHeaderDecoder;
import io.zilla.specs.kafka.codec.ResponseRewriter;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The streams of one kafka proxy binding on one worker. Each stream from the tcp server is one client connection
 * and opens one stream to the exit (a tcp client) toward the broker it stands for. Requests pass through as they
 * are, with the exit's credit; responses wait in a slot until framed, and Metadata, FindCoordinator,
 * DescribeCluster and ApiVersions bodies are rewritten.
 */
public final class KafkaProxyFactory implements BindingHandler
{
    /** Produce v10 and Fetch v16 may carry nodeEndpoints (KIP-951): the proxy offers the versions before them. */
    public static final int PRODUCE_MAX_VERSION = 9;
    public static final int FETCH_MAX_VERSION = 15;

    private static final int TCP_TYPE_ID = "tcp".hashCode();
    private static final int REQUEST_HEADER = 12;
    private static final int RESPONSE_HEADER = 8;
    private static final int MAX_REQUEST_SIZE = 100 * 1024 * 1024;
    private static final int NO_REQUEST = -1;

    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final EndFW endRO = new EndFW();
    private final AbortFW abortRO = new AbortFW();
    private final WindowFW windowRO = new WindowFW();
    private final ResetFW resetRO = new ResetFW();
    private final TcpBeginExFW tcpBeginExRO = new TcpBeginExFW();

    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final DataFW.Builder dataRW = new DataFW.Builder();
    private final EndFW.Builder endRW = new EndFW.Builder();
    private final AbortFW.Builder abortRW = new AbortFW.Builder();
    private final WindowFW.Builder windowRW = new WindowFW.Builder();
    private final ResetFW.Builder resetRW = new ResetFW.Builder();
    private final TcpBeginExFW.Builder tcpBeginExRW = new TcpBeginExFW.Builder();

    private final ResponseHeaderDecoder responseHeader = new ResponseHeaderDecoder();
    private final ResponseRewriter<?> metadataRewriter = new MetadataResponseRewriter();
    private final ResponseRewriter<?> findCoordinatorRewriter = new FindCoordinatorResponseRewriter();
    private final ResponseRewriter<?> describeClusterRewriter = new DescribeClusterResponseRewriter();
    private final ApiVersionRanges versions = proxyVersions();

    private final EngineContext context;
    private final BindingConfig binding;
    private final KafkaOptionsConfig options;
    private final Map<Integer, BrokerAddress> brokers;
    private final BrokerAddressMapper mapper;
    private final MutableDirectBuffer writeBuffer;
    private final MutableDirectBuffer extensionBuffer = new UnsafeBuffer(new byte[512]);
    private final BufferPool bufferPool;
    private final AtomicCounter malformed;
    private final Long2ObjectHashMap<KafkaProxy> proxies = new Long2ObjectHashMap<>();

    KafkaProxyFactory(EngineContext context, BindingConfig binding, Map<Integer, BrokerAddress> brokers)
    {
        this.context = context;
        this.binding = binding;
        this.options = (KafkaOptionsConfig) binding.options();
        this.brokers = brokers;
        this.writeBuffer = context.writeBuffer();
        this.bufferPool = context.bufferPool();
        this.malformed = context.supplyCounter(binding.id(), "frames.malformed");
        this.mapper = this::mapBroker;
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
        final long traceId = context.supplyTraceId();
        for (KafkaProxy proxy : new ArrayList<>(proxies.values()))
        {
            proxy.doCloseAll(traceId);
        }
    }

    // rare (control-plane responses only): allocation is fine here
    private BrokerAddress mapBroker(int nodeId, String host, int port)
    {
        brokers.put(nodeId, new BrokerAddress(host, port));
        final Integer advertised = options.ports().get(nodeId);
        return advertised != null ? new BrokerAddress(options.advertiseHost(), advertised) : new BrokerAddress(host, port);
    }

    private static ApiVersionRanges proxyVersions()
    {
        final ApiVersionRanges ranges = new ApiVersionRanges();
        for (ApiKeys key : ApiKeys.values())
        {
            int max = key.latestVersion(true);
            if (key.id == KafkaApis.PRODUCE)
            {
                max = Math.min(max, PRODUCE_MAX_VERSION);
            }
            else if (key.id == KafkaApis.FETCH)
            {
                max = Math.min(max, FETCH_MAX_VERSION);
            }
            if (max >= key.oldestVersion())
            {
                ranges.supports(key.id, key.oldestVersion(), max);
            }
        }
        return ranges;
    }

    private final class KafkaProxy
    {
        private final MessageConsumer app;
        private final long originId;
        private final long routedId;
        private final long initialId;
        private final long replyId;
        private final long exitId;
        private final long netInitialId;
        private final long netReplyId;
        private final MutableDirectBuffer requestHeader = new UnsafeBuffer(new byte[REQUEST_HEADER]);
        private final Int2IntHashMap requests = new Int2IntHashMap(NO_REQUEST);

        private MessageConsumer net;

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

        private int requestHeaderBytes;
        private int requestRemaining;

        private int replySlot = BufferPool.NO_SLOT;
        private int replyOffset;
        private int replyLimit;
        private int replyRemaining;
        private int encodeSlot = BufferPool.NO_SLOT;
        private int encodeOffset;
        private int encodeLimit;

        private boolean appInitialClosed;
        private boolean appReplyOpened;
        private boolean appReplyClosed;
        private boolean netInitialClosed;
        private boolean netReplyClosed;
        private boolean netReplyEnded;

        KafkaProxy(MessageConsumer app, long originId, long routedId, long initialId, long exitId)
        {
            this.app = app;
            this.originId = originId;
            this.routedId = routedId;
            this.initialId = initialId;
            this.replyId = initialId & ~1L;
            this.exitId = exitId;
            this.netInitialId = context.supplyInitialId(exitId);
            this.netReplyId = context.supplyReplyId(netInitialId);
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
                default ->
                {
                    // flushes, signals and challenges mean nothing to the proxy
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
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            netInitialSeq = initialSeq;
            netInitialAck = initialAck;

            int localPort = options.bootstrapPort();
            final OctetsFW extension = begin.extension();
            if (extension != null && extension.sizeof() > 0
                && tcpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) != null
                && tcpBeginExRO.typeId() == TCP_TYPE_ID)
            {
                localPort = tcpBeginExRO.destinationPort();
            }
            String host = null;
            int port = 0;
            final int nodeId = localPort == options.bootstrapPort() ? -1 : options.nodeOf(localPort);
            final BrokerAddress broker = nodeId != -1 ? brokers.get(nodeId) : null;
            if (broker != null)
            {
                host = broker.host();
                port = broker.port();
            }
            else
            {
                final String bootstrap = options.bootstrap().get(0);
                final int colon = bootstrap.lastIndexOf(':');
                host = bootstrap.substring(0, colon);
                port = Integer.parseInt(bootstrap.substring(colon + 1));
            }
            doNetBegin(begin.traceId(), host, port);
        }

        private void onAppData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            if (data.sequence() != initialSeq || initialSeq + reserved > initialAck + initialMax)
            {
                doCloseAll(traceId);
                return;
            }
            initialSeq += reserved;
            final OctetsFW payload = data.payload();
            if (payload != null && !scanRequests(payload.buffer(), payload.offset(), payload.limit()))
            {
                malformed.increment();
                context.event(routedId, traceId, "kafka.frame.malformed", "bindings." + binding.name()
                    + ": malformed request frame, connection closed");
                doCloseAll(traceId);
                return;
            }
            final DataFW.Builder builder = dataRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(routedId).routedId(exitId).streamId(netInitialId)
                .sequence(netInitialSeq).acknowledge(netInitialAck).maximum(netInitialMax)
                .traceId(traceId)
                .flags(data.flags())
                .budgetId(0L)
                .reserved(reserved);
            if (payload != null)
            {
                builder.payload(payload);
            }
            final DataFW forward = builder.build();
            net.accept(DataFW.TYPE_ID, forward.buffer(), forward.offset(), forward.sizeof());
            netInitialSeq += reserved;
        }

        // finds each request's header, across Data frames, and remembers its api key and version by correlation id
        private boolean scanRequests(DirectBuffer buffer, int offset, int limit)
        {
            boolean valid = true;
            int progress = offset;
            while (valid && progress < limit)
            {
                if (requestRemaining > 0)
                {
                    final int skip = Math.min(requestRemaining, limit - progress);
                    progress += skip;
                    requestRemaining -= skip;
                }
                else
                {
                    final int copy = Math.min(REQUEST_HEADER - requestHeaderBytes, limit - progress);
                    requestHeader.putBytes(requestHeaderBytes, buffer, progress, copy);
                    requestHeaderBytes += copy;
                    progress += copy;
                    if (requestHeaderBytes >= Integer.BYTES)
                    {
                        final int size = requestHeader.getInt(0, BIG_ENDIAN);
                        valid = size >= REQUEST_HEADER - Integer.BYTES && size <= MAX_REQUEST_SIZE;
                    }
                    if (valid && requestHeaderBytes == REQUEST_HEADER)
                    {
                        final int size = requestHeader.getInt(0, BIG_ENDIAN);
                        final short apiKey = requestHeader.getShort(4, BIG_ENDIAN);
                        final short apiVersion = requestHeader.getShort(6, BIG_ENDIAN);
                        final int correlationId = requestHeader.getInt(8, BIG_ENDIAN);
                        valid = apiKey >= 0 && apiVersion >= 0;
                        requests.put(correlationId, apiKey << 16 | apiVersion);
                        requestRemaining = size - (REQUEST_HEADER - Integer.BYTES);
                        requestHeaderBytes = 0;
                    }
                }
            }
            return valid;
        }

        private void onAppEnd(EndFW end)
        {
            appInitialClosed = true;
            doNetEnd(end.traceId());
        }

        private void onAppAbort(AbortFW abort)
        {
            appInitialClosed = true;
            doNetAbort(abort.traceId());
            cleanup();
        }

        private void onAppWindow(WindowFW window)
        {
            replyAck = Math.max(replyAck, window.acknowledge());
            replyMax = window.maximum();
            replyPad = window.padding();
            flushReplies(window.traceId());
        }

        private void onAppReset(ResetFW reset)
        {
            appReplyClosed = true;
            doNetReset(reset.traceId());
            cleanup();
        }

        private void onNetBegin(BeginFW begin)
        {
            netReplySeq = begin.sequence();
            netReplyAck = begin.acknowledge();
            doAppReplyBegin(begin.traceId());
            doNetReplyWindow(begin.traceId());
        }

        private void onNetData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            final OctetsFW payload = data.payload();
            if (data.sequence() != netReplySeq || netReplySeq + reserved > netReplyAck + netReplyMax)
            {
                doCloseAll(traceId);
                return;
            }
            netReplySeq += reserved;
            if (payload != null && payload.sizeof() > 0)
            {
                if (replySlot == BufferPool.NO_SLOT)
                {
                    replySlot = bufferPool.acquire(replyId);
                }
                if (replySlot == BufferPool.NO_SLOT || replyLimit + payload.sizeof() > bufferPool.slotCapacity())
                {
                    doCloseAll(traceId);
                    return;
                }
                bufferPool.buffer(replySlot).putBytes(replyLimit, payload.buffer(), payload.offset(), payload.sizeof());
                replyLimit += payload.sizeof();
            }
            flushReplies(traceId);
        }

        private void onNetEnd(EndFW end)
        {
            netReplyEnded = true;
            netReplyClosed = true;
            flushReplies(end.traceId());
        }

        private void onNetAbort(AbortFW abort)
        {
            netReplyClosed = true;
            doAppReplyAbort(abort.traceId());
            doAppReset(abort.traceId());
            doNetReset(abort.traceId());
            doNetAbort(abort.traceId());
            cleanup();
        }

        private void onNetWindow(WindowFW window)
        {
            netInitialAck = Math.max(netInitialAck, window.acknowledge());
            netInitialMax = window.maximum();
            netInitialPad = window.padding();
            doAppWindow(window.traceId());
        }

        private void onNetReset(ResetFW reset)
        {
            netInitialClosed = true;
            doAppReset(reset.traceId());
            doAppReplyAbort(reset.traceId());
            doNetReset(reset.traceId());
            cleanup();
        }

        // sends what the client can take: a rewritten response first, then framed responses from the reply slot
        private void flushReplies(long traceId)
        {
            boolean progress = appReplyOpened && !appReplyClosed;
            while (progress)
            {
                progress = false;
                if (encodeSlot != BufferPool.NO_SLOT)
                {
                    encodeOffset += doAppData(traceId, bufferPool.buffer(encodeSlot), encodeOffset, encodeLimit - encodeOffset);
                    if (encodeOffset == encodeLimit)
                    {
                        bufferPool.release(encodeSlot);
                        encodeSlot = BufferPool.NO_SLOT;
                        progress = true;
                    }
                }
                else if (replyRemaining > 0)
                {
                    if (replyLimit > replyOffset)
                    {
                        final int sent = doAppData(traceId, bufferPool.buffer(replySlot), replyOffset,
                            Math.min(replyRemaining, replyLimit - replyOffset));
                        replyOffset += sent;
                        replyRemaining -= sent;
                        progress = sent > 0;
                    }
                }
                else if (replyLimit - replyOffset >= RESPONSE_HEADER)
                {
                    progress = onResponse(traceId);
                }
            }

            if (replySlot != BufferPool.NO_SLOT && replyOffset > 0)
            {
                final MutableDirectBuffer slot = bufferPool.buffer(replySlot);
                slot.putBytes(0, slot, replyOffset, replyLimit - replyOffset);
                replyLimit -= replyOffset;
                replyOffset = 0;
            }
            if (replySlot != BufferPool.NO_SLOT && replyLimit == 0)
            {
                bufferPool.release(replySlot);
                replySlot = BufferPool.NO_SLOT;
            }

            if (netReplyEnded && replySlot == BufferPool.NO_SLOT && encodeSlot == BufferPool.NO_SLOT)
            {
                doAppReplyEnd(traceId);
                cleanup();
            }
            else if (!netReplyClosed)
            {
                doNetReplyWindow(traceId);
            }
        }

        // one response's header is in the slot: pass it through, or rewrite it once all of it is here
        private boolean onResponse(long traceId)
        {
            final MutableDirectBuffer slot = bufferPool.buffer(replySlot);
            final int size = slot.getInt(replyOffset, BIG_ENDIAN);
            final int correlationId = slot.getInt(replyOffset + Integer.BYTES, BIG_ENDIAN);
            boolean progress = false;
            if (size < Integer.BYTES)
            {
                malformed.increment();
                context.event(routedId, traceId, "kafka.frame.malformed", "bindings." + binding.name()
                    + ": malformed response frame, connection closed");
                doCloseAll(traceId);
            }
            else
            {
                final int request = requests.get(correlationId);
                final int apiKey = request == NO_REQUEST ? -1 : request >>> 16;
                final int apiVersion = request & 0xffff;
                final boolean rewrite = apiKey == KafkaApis.METADATA || apiKey == KafkaApis.FIND_COORDINATOR
                    || apiKey == KafkaApis.DESCRIBE_CLUSTER || apiKey == KafkaApis.API_VERSIONS;
                if (!rewrite || Integer.BYTES + size > bufferPool.slotCapacity())
                {
                    requests.remove(correlationId);
                    replyRemaining = Integer.BYTES + size;
                    progress = true;
                }
                else if (replyLimit - replyOffset >= Integer.BYTES + size)
                {
                    requests.remove(correlationId);
                    encodeSlot = bufferPool.acquire(replyId);
                    if (encodeSlot == BufferPool.NO_SLOT)
                    {
                        doCloseAll(traceId);
                    }
                    else
                    {
                        rewrite(slot, apiKey, apiVersion, size);
                        replyOffset += Integer.BYTES + size;
                        progress = true;
                    }
                }
            }
            return progress;
        }

        private void rewrite(MutableDirectBuffer slot, int apiKey, int apiVersion, int size)
        {
            final MutableDirectBuffer encode = bufferPool.buffer(encodeSlot);
            final int frameOffset = replyOffset;
            final int frameLimit = frameOffset + Integer.BYTES + size;
            final int bodyOffset = responseHeader.wrap(slot, frameOffset + Integer.BYTES, frameLimit, apiKey, apiVersion);
            int written = ResponseRewriter.FAILED;
            if (bodyOffset != ResponseHeaderDecoder.MALFORMED)
            {
                final int headerSize = bodyOffset - frameOffset;
                encode.putBytes(0, slot, frameOffset, headerSize);
                final short version = (short) apiVersion;
                final int body = frameLimit - bodyOffset;
                final int limit = encode.capacity();
                written = switch (apiKey)
                {
                    case KafkaApis.METADATA ->
                        metadataRewriter.rewrite(slot, bodyOffset, body, version, mapper, encode, headerSize, limit);
                    case KafkaApis.FIND_COORDINATOR ->
                        findCoordinatorRewriter.rewrite(slot, bodyOffset, body, version, mapper, encode, headerSize, limit);
                    case KafkaApis.DESCRIBE_CLUSTER ->
                        describeClusterRewriter.rewrite(slot, bodyOffset, body, version, mapper, encode, headerSize, limit);
                    default ->
                        ApiVersionsResponses.intersect(slot, bodyOffset, body, version, versions, encode, headerSize, limit);
                };
                if (written != ResponseRewriter.FAILED)
                {
                    encode.putInt(0, headerSize - Integer.BYTES + written, BIG_ENDIAN);
                    encodeLimit = headerSize + written;
                }
            }
            if (written == ResponseRewriter.FAILED)
            {
                // a body the codecs cannot read goes to the client as it came
                encode.putBytes(0, slot, frameOffset, frameLimit - frameOffset);
                encodeLimit = frameLimit - frameOffset;
            }
            encodeOffset = 0;
        }

        private int doAppData(long traceId, DirectBuffer buffer, int offset, int length)
        {
            final int credit = replyMax - (int) (replySeq - replyAck) - replyPad;
            final int size = Math.min(Math.min(length, credit), writeBuffer.capacity() >> 1);
            int sent = 0;
            if (size > 0)
            {
                final int reserved = size + replyPad;
                final DataFW data = dataRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(replyId)
                    .sequence(replySeq).acknowledge(replyAck).maximum(replyMax)
                    .traceId(traceId)
                    .flags(0x03)
                    .budgetId(0L)
                    .reserved(reserved)
                    .payload(buffer, offset, size)
                    .build();
                app.accept(DataFW.TYPE_ID, data.buffer(), data.offset(), data.sizeof());
                replySeq += reserved;
                sent = size;
            }
            return sent;
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
                .originId(routedId).routedId(exitId).streamId(netInitialId)
                .sequence(netInitialSeq).acknowledge(netInitialAck).maximum(netInitialMax)
                .traceId(traceId)
                .extension(beginEx.buffer(), beginEx.offset(), beginEx.sizeof())
                .build();
            net = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), this::onNetMessage);
            if (net == null)
            {
                netInitialClosed = true;
                netReplyClosed = true;
                doAppReset(traceId);
                cleanup();
            }
        }

        private void doAppWindow(long traceId)
        {
            if (!appInitialClosed)
            {
                initialAck = netInitialAck;
                initialMax = netInitialMax;
                final WindowFW window = windowRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(initialId)
                    .sequence(initialSeq).acknowledge(initialAck).maximum(initialMax)
                    .traceId(traceId)
                    .budgetId(0L)
                    .padding(netInitialPad)
                    .build();
                app.accept(WindowFW.TYPE_ID, window.buffer(), window.offset(), window.sizeof());
            }
        }

        private void doNetReplyWindow(long traceId)
        {
            if (net != null && !netReplyClosed)
            {
                final int held = replyLimit - replyOffset;
                final long ack = netReplySeq - held;
                final int max = bufferPool.slotCapacity();
                if (ack > netReplyAck || max != netReplyMax)
                {
                    netReplyAck = ack;
                    netReplyMax = max;
                    final WindowFW window = windowRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                        .originId(routedId).routedId(exitId).streamId(netReplyId)
                        .sequence(netReplySeq).acknowledge(netReplyAck).maximum(netReplyMax)
                        .traceId(traceId)
                        .budgetId(0L)
                        .padding(0)
                        .build();
                    net.accept(WindowFW.TYPE_ID, window.buffer(), window.offset(), window.sizeof());
                }
            }
        }

        private void doAppReplyBegin(long traceId)
        {
            if (!appReplyOpened)
            {
                appReplyOpened = true;
                final BeginFW begin = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(replyId)
                    .sequence(replySeq).acknowledge(replyAck).maximum(replyMax)
                    .traceId(traceId)
                    .build();
                app.accept(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof());
            }
        }

        private void doAppReplyEnd(long traceId)
        {
            if (appReplyOpened && !appReplyClosed)
            {
                appReplyClosed = true;
                final EndFW end = endRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(replyId)
                    .sequence(replySeq).acknowledge(replyAck).maximum(replyMax)
                    .traceId(traceId)
                    .build();
                app.accept(EndFW.TYPE_ID, end.buffer(), end.offset(), end.sizeof());
            }
        }

        private void doAppReplyAbort(long traceId)
        {
            if (appReplyOpened && !appReplyClosed)
            {
                final AbortFW abort = abortRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(replyId)
                    .sequence(replySeq).acknowledge(replyAck).maximum(replyMax)
                    .traceId(traceId)
                    .build();
                app.accept(AbortFW.TYPE_ID, abort.buffer(), abort.offset(), abort.sizeof());
            }
            appReplyClosed = true;
        }

        private void doAppReset(long traceId)
        {
            if (!appInitialClosed)
            {
                appInitialClosed = true;
                final ResetFW reset = resetRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(initialId)
                    .sequence(initialSeq).acknowledge(initialAck).maximum(initialMax)
                    .traceId(traceId)
                    .build();
                app.accept(ResetFW.TYPE_ID, reset.buffer(), reset.offset(), reset.sizeof());
            }
        }

        private void doNetEnd(long traceId)
        {
            if (net != null && !netInitialClosed)
            {
                netInitialClosed = true;
                final EndFW end = endRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(routedId).routedId(exitId).streamId(netInitialId)
                    .sequence(netInitialSeq).acknowledge(netInitialAck).maximum(netInitialMax)
                    .traceId(traceId)
                    .build();
                net.accept(EndFW.TYPE_ID, end.buffer(), end.offset(), end.sizeof());
            }
        }

        private void doNetAbort(long traceId)
        {
            if (net != null && !netInitialClosed)
            {
                netInitialClosed = true;
                final AbortFW abort = abortRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(routedId).routedId(exitId).streamId(netInitialId)
                    .sequence(netInitialSeq).acknowledge(netInitialAck).maximum(netInitialMax)
                    .traceId(traceId)
                    .build();
                net.accept(AbortFW.TYPE_ID, abort.buffer(), abort.offset(), abort.sizeof());
            }
        }

        private void doNetReset(long traceId)
        {
            if (net != null && !netReplyClosed)
            {
                netReplyClosed = true;
                final ResetFW reset = resetRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(routedId).routedId(exitId).streamId(netReplyId)
                    .sequence(netReplySeq).acknowledge(netReplyAck).maximum(netReplyMax)
                    .traceId(traceId)
                    .build();
                net.accept(ResetFW.TYPE_ID, reset.buffer(), reset.offset(), reset.sizeof());
            }
        }

        void doCloseAll(long traceId)
        {
            doAppReset(traceId);
            doAppReplyAbort(traceId);
            doNetAbort(traceId);
            doNetReset(traceId);
            cleanup();
        }

        private void cleanup()
        {
            if (appReplyClosed || netReplyClosed)
            {
                if (replySlot != BufferPool.NO_SLOT && (appReplyClosed || replyLimit == 0))
                {
                    bufferPool.release(replySlot);
                    replySlot = BufferPool.NO_SLOT;
                }
                if (encodeSlot != BufferPool.NO_SLOT && appReplyClosed)
                {
                    bufferPool.release(encodeSlot);
                    encodeSlot = BufferPool.NO_SLOT;
                }
            }
            if (appInitialClosed && appReplyClosed && (net == null || netInitialClosed && netReplyClosed))
            {
                proxies.remove(initialId);
            }
        }
    }
}
