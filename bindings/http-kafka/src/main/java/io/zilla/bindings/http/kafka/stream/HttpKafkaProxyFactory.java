/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.zilla.bindings.http.kafka.config.HttpKafkaConditionConfig;
import io.zilla.bindings.http.kafka.config.HttpKafkaOptionsConfig;
import io.zilla.bindings.http.kafka.config.HttpKafkaWithConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.PathCaptures;
import io.zilla.engine.config.PathPattern;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import io.zilla.specs.kafka.codec.KafkaProgressToken;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaResetExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The http-kafka proxies of one worker: each http request whose method and path a route matches becomes an exchange,
 * a produce ({@link HttpKafkaProduceExchange}) or a fetch ({@link HttpKafkaFetchExchange}). Requests that produce to
 * the same exit, topic and acks share one MERGED produce stream of this worker ({@link HttpKafkaProducer}); a fetch,
 * and the look-up of a reply, open a MERGED fetch of their own ({@link HttpKafkaReader}). The flyweights and scratch
 * buffers here are shared by the worker's streams: a worker is one thread, and a frame is read within one call.
 */
public final class HttpKafkaProxyFactory implements BindingHandler
{
    static final int HTTP_TYPE_ID = "http".hashCode();
    static final int KAFKA_TYPE_ID = "kafka".hashCode();
    // closed produce exchanges kept per worker: as many as requests in flight at once, within reason
    private static final int MAX_RECYCLED = 4096;

    final BeginFW beginRO = new BeginFW();
    final DataFW dataRO = new DataFW();
    final EndFW endRO = new EndFW();
    final AbortFW abortRO = new AbortFW();
    final FlushFW flushRO = new FlushFW();
    final WindowFW windowRO = new WindowFW();
    final ResetFW resetRO = new ResetFW();
    final SignalFW signalRO = new SignalFW();
    final HttpBeginExFW httpBeginExRO = new HttpBeginExFW();
    final HttpHeaderFW httpHeaderRO = new HttpHeaderFW();
    final KafkaDataExFW kafkaDataExRO = new KafkaDataExFW();
    final KafkaFlushExFW kafkaFlushExRO = new KafkaFlushExFW();
    final KafkaResetExFW kafkaResetExRO = new KafkaResetExFW();
    final KafkaBeginExFW.Builder kafkaBeginExRW = new KafkaBeginExFW.Builder();
    final HttpKafkaProduceExtension produceExtension = new HttpKafkaProduceExtension();
    final HttpKafkaNames names = new HttpKafkaNames();
    final HttpKafkaResponse response = new HttpKafkaResponse();
    final KafkaProgressToken token = new KafkaProgressToken();

    final EngineContext context;
    final HttpKafkaIdempotency idempotency;
    final HttpKafkaFreshness freshness;
    final StreamFrames frames;
    /** Extensions are built here, apart from the write buffer where frames are built. */
    final MutableDirectBuffer extensionBuffer;
    /** Templates are resolved here before they are copied out. */
    final MutableDirectBuffer scratch;

    private final Long2ObjectHashMap<BindingConfig> bindings = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<HttpKafkaExchange> exchanges = new Long2ObjectHashMap<>();
    private final Map<HttpKafkaProducer.Key, HttpKafkaProducer> producers = new HashMap<>();
    private final HttpKafkaProducer.Key producerKey = new HttpKafkaProducer.Key();
    private final PathCaptures captures = new PathCaptures();
    // closed produce exchanges, to be used again: a request then allocates nothing (an exchange, its stream side and
    // buffers were a third of what a produce allocated)
    private final ArrayDeque<HttpKafkaProduceExchange> recycled = new ArrayDeque<>();
    // the request the next http stream is read into: it goes with the exchange that takes it, and the exchange's
    // previous one (if any) is the next
    private HttpKafkaRequest request = new HttpKafkaRequest();

    public HttpKafkaProxyFactory(EngineContext context, HttpKafkaIdempotency idempotency, HttpKafkaFreshness freshness)
    {
        this.context = context;
        this.idempotency = idempotency;
        this.freshness = freshness;
        this.frames = new StreamFrames(context.writeBuffer());
        this.extensionBuffer = new UnsafeBuffer(new byte[context.writeBuffer().capacity()]);
        this.scratch = new UnsafeBuffer(new byte[context.writeBuffer().capacity()]);
    }

    public void attach(BindingConfig binding)
    {
        bindings.put(binding.id(), binding);
        for (RouteConfig route : binding.routes())
        {
            route.when().forEach(condition -> captures.fit(((HttpKafkaConditionConfig) condition).path()));
        }
    }

    /** The binding is going away: its exchanges are answered 503, its produce streams end. */
    public void detach(long bindingId)
    {
        bindings.remove(bindingId);
        final long traceId = context.supplyTraceId();
        for (HttpKafkaExchange exchange : new ArrayList<>(exchanges.values()))
        {
            if (exchange.bindingId == bindingId)
            {
                exchange.fail(traceId, 503);
            }
        }
        for (HttpKafkaProducer producer : new ArrayList<>(producers.values()))
        {
            if (producer.bindingId == bindingId)
            {
                producer.close(traceId);
            }
        }
    }

    HttpKafkaOptionsConfig options(long bindingId)
    {
        final BindingConfig binding = bindings.get(bindingId);
        return binding != null && binding.options() instanceof HttpKafkaOptionsConfig options ? options
            : HttpKafkaOptionsConfig.DEFAULTS;
    }

    /**
     * An http request: the first route whose method and path match takes it; none (or a Begin without an HttpBeginEx)
     * resets it, which the http server answers 404.
     */
    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final BindingConfig binding = bindings.get(begin.routedId());
        final OctetsFW extension = begin.extension();
        final HttpBeginExFW beginEx = binding != null && extension.sizeof() >= 2 * Integer.BYTES
            && extension.buffer().getInt(extension.offset()) == HTTP_TYPE_ID
            ? httpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        final HttpKafkaRequest request = this.request;
        if (beginEx == null || !request.read(httpHeaderRO, beginEx, names.bytes(options(binding.id()).idempotencyHeader())))
        {
            return null;
        }
        final DirectBuffer path = request.head();
        final List<RouteConfig> routes = binding.routes();
        for (int r = 0; r < routes.size(); r++)
        {
            final RouteConfig route = routes.get(r);
            if (!route.servable() || !(route.with() instanceof HttpKafkaWithConfig with))
            {
                continue;
            }
            PathPattern matched = null;
            boolean any = route.when().isEmpty();
            for (int i = 0; !any && i < route.when().size(); i++)
            {
                final HttpKafkaConditionConfig when = (HttpKafkaConditionConfig) route.when().get(i);
                if ((when.method() == null || when.method().equals(request.method))
                    && when.path().matches(path, 0, request.pathLength(), captures.starts(), captures.ends()))
                {
                    matched = when.path();
                    any = true;
                }
            }
            if (any)
            {
                final HttpKafkaExchange exchange = exchange(binding.id(), route.exitId(), with, request);
                if (!exchange.resolve(matched, captures.starts(), captures.ends()))
                {
                    context.event(binding.id(), begin.traceId(), "http-kafka.path.unresolved", "a value of the route's"
                        + " with is longer than a frame once the path's parameters are in it");
                    return null;
                }
                exchange.http.set(sender, begin.originId(), begin.routedId(), begin.streamId(), begin.streamId() & ~1L);
                exchanges.put(begin.streamId(), exchange);
                return exchange;
            }
        }
        return null;
    }

    // an exchange for the request: a produce one used before if there is one
    private HttpKafkaExchange exchange(long bindingId, long exitId, HttpKafkaWithConfig with, HttpKafkaRequest request)
    {
        final HttpKafkaExchange exchange;
        if (with.capability() == HttpKafkaWithConfig.Capability.FETCH)
        {
            exchange = new HttpKafkaFetchExchange(this, bindingId, exitId, with, request);
            this.request = new HttpKafkaRequest();
        }
        else
        {
            final HttpKafkaProduceExchange produce = recycled.isEmpty() ? new HttpKafkaProduceExchange(this)
                : recycled.poll();
            final HttpKafkaRequest previous = produce.request;
            produce.init(bindingId, exitId, with, request);
            this.request = previous != null ? previous : new HttpKafkaRequest();
            exchange = produce;
        }
        return exchange;
    }

    /** The worker's produce stream for {@code topic} through {@code exitId} with {@code acks}, opened on first use. */
    HttpKafkaProducer producer(long bindingId, long exitId, DirectBuffer topic, int topicLength, short acks, long traceId)
    {
        HttpKafkaProducer producer = producers.get(producerKey.set(exitId, acks, topic, topicLength));
        if (producer == null || producer.closed())
        {
            final byte[] name = new byte[topicLength];
            topic.getBytes(0, name);
            final HttpKafkaProducer.Key key = new HttpKafkaProducer.Key().set(exitId, acks, new UnsafeBuffer(name),
                topicLength);
            producer = new HttpKafkaProducer(this, key, bindingId);
            producers.put(key, producer);
            producer.open(traceId);
        }
        return producer;
    }

    void onClosed(HttpKafkaProducer producer)
    {
        producers.remove(producer.key, producer);
    }

    /** The exchange is over: forgotten, and used again for another request when nothing refers to it any more. */
    void onClosed(HttpKafkaExchange exchange)
    {
        exchanges.remove(exchange.http.inboundId, exchange);
        if (exchange instanceof HttpKafkaProduceExchange produce && !produce.recycling && produce.recyclable()
            && recycled.size() < MAX_RECYCLED)
        {
            produce.recycling = true;
            recycled.add(produce);
        }
    }

    /**
     * Opens {@code side}'s stream to {@code exitId}, its Begin carrying the extension built at 0 of
     * {@link #extensionBuffer}, {@code handler} receiving what comes back.
     *
     * @return false when the exit is not there (the side is then closed)
     */
    boolean open(StreamSide side, long bindingId, long exitId, long traceId, int extensionLength, MessageConsumer handler)
    {
        final long initialId = context.supplyInitialId(bindingId);
        final BeginFW begin = new BeginFW.Builder().wrap(context.writeBuffer(), 0, context.writeBuffer().capacity())
            .originId(bindingId).routedId(exitId).streamId(initialId)
            .sequence(0).acknowledge(0).maximum(0).timestamp(0L)
            .traceId(traceId).authorization(0L).affinity(0L)
            .extension(extensionBuffer, 0, extensionLength)
            .build();
        final MessageConsumer receiver = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(),
            handler);
        side.set(receiver != null ? receiver : MessageConsumer.NOOP, bindingId, exitId, context.supplyReplyId(initialId),
            initialId);
        side.outOpened = true;
        side.outClosed = receiver == null;
        return receiver != null;
    }

    /** The Kafka error of a Reset, or -1 without a KafkaResetEx. */
    int error(ResetFW reset)
    {
        final OctetsFW extension = reset.extension();
        final KafkaResetExFW resetEx = extension.sizeof() > 0
            ? kafkaResetExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        return resetEx != null ? resetEx.error() : -1;
    }
}
