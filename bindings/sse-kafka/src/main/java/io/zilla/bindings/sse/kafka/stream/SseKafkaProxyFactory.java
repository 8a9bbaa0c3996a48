/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.stream;

import java.util.ArrayList;
import java.util.function.Consumer;

import io.zilla.bindings.sse.kafka.config.SseKafkaConditionConfig;
import io.zilla.bindings.sse.kafka.config.SseKafkaWithConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
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
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.kafka.codec.Base64Url;
import io.zilla.specs.kafka.codec.KafkaProgressToken;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFW;
import io.zilla.specs.kafka.types.stream.KafkaResetExFW;
import io.zilla.specs.sse.types.stream.SseBeginExFW;
import io.zilla.specs.sse.types.stream.SseDataExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The sse-kafka proxies of one worker: each sse stream whose path a route matches becomes a MERGED fetch-only stream
 * to the route's exit, and each record of it one event on the sse stream's reply ({@link SseKafkaStream}). The
 * flyweights and scratch buffers here are shared by the worker's streams: a worker is one thread, and a frame is
 * read and written within one call.
 */
public final class SseKafkaProxyFactory implements BindingHandler
{
    static final int SSE_TYPE_ID = "sse".hashCode();
    static final int KAFKA_TYPE_ID = "kafka".hashCode();

    final BeginFW beginRO = new BeginFW();
    final DataFW dataRO = new DataFW();
    final EndFW endRO = new EndFW();
    final AbortFW abortRO = new AbortFW();
    final FlushFW flushRO = new FlushFW();
    final WindowFW windowRO = new WindowFW();
    final ResetFW resetRO = new ResetFW();
    final SseBeginExFW sseBeginExRO = new SseBeginExFW();
    final KafkaDataExFW kafkaDataExRO = new KafkaDataExFW();
    final KafkaResetExFW kafkaResetExRO = new KafkaResetExFW();
    final SseDataExFW.Builder sseDataExRW = new SseDataExFW.Builder();
    final KafkaBeginExFW.Builder kafkaBeginExRW = new KafkaBeginExFW.Builder();

    final EngineContext context;
    final MutableDirectBuffer writeBuffer;
    final StreamFrames frames;
    /** Extensions are built here, apart from the write buffer where frames are built. */
    final MutableDirectBuffer extensionBuffer;
    /** An event's id, and a delete event's data, are written here before they go into a frame. */
    final MutableDirectBuffer idBuffer = new UnsafeBuffer(new byte[String16FW.MAX_LENGTH]);
    final MutableDirectBuffer deleteBuffer;
    final KafkaProgressToken token = new KafkaProgressToken();
    final Consumer<KafkaOffsetFW> putProgress = offset -> token.put(offset.partitionId(), offset.partitionOffset());

    private final Long2ObjectHashMap<BindingConfig> bindings = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<SseKafkaStream> streams = new Long2ObjectHashMap<>();
    // per binding: merged streams opened again after an event that did not fit (zilla metrics: merged.reopened)
    private final Long2ObjectHashMap<AtomicCounter> reopened = new Long2ObjectHashMap<>();
    private final PathCaptures captures = new PathCaptures();

    public SseKafkaProxyFactory(EngineContext context)
    {
        this.context = context;
        this.writeBuffer = context.writeBuffer();
        this.frames = new StreamFrames(writeBuffer);
        this.extensionBuffer = new UnsafeBuffer(new byte[writeBuffer.capacity()]);
        this.deleteBuffer = new UnsafeBuffer(new byte[writeBuffer.capacity()]);
    }

    public void attach(BindingConfig binding)
    {
        bindings.put(binding.id(), binding);
        reopened.put(binding.id(), context.supplyCounter(binding.id(), "merged.reopened"));
        for (RouteConfig route : binding.routes())
        {
            route.when().forEach(condition -> captures.fit(((SseKafkaConditionConfig) condition).path()));
        }
    }

    /** The binding is going away: its streams end (the sse ones with an Abort, the kafka ones with an Abort too). */
    public void detach(long bindingId)
    {
        bindings.remove(bindingId);
        for (SseKafkaStream stream : new ArrayList<>(streams.values()))
        {
            if (stream.bindingId == bindingId)
            {
                stream.doAbortAll(context.supplyTraceId());
            }
        }
    }

    /**
     * An sse stream: the first route whose path matches takes it; none (or a Begin without an SseBeginEx) resets it,
     * which the sse server answers as an HTTP error.
     */
    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final BindingConfig binding = bindings.get(begin.routedId());
        final OctetsFW extension = begin.extension();
        final SseBeginExFW beginEx = binding != null && extension.sizeof() >= Integer.BYTES
            && extension.buffer().getInt(extension.offset()) == SSE_TYPE_ID
            ? sseBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        if (beginEx == null || beginEx.path().isNull())
        {
            return null;
        }
        final String16FW path = beginEx.path();
        final DirectBuffer pathBuffer = path.buffer();
        final int pathOffset = path.valueOffset();
        final int pathLength = path.length();
        for (RouteConfig route : binding.routes())
        {
            if (!route.servable() || !(route.with() instanceof SseKafkaWithConfig with))
            {
                continue;
            }
            PathPattern matched = null;
            for (int i = 0; matched == null && i < route.when().size(); i++)
            {
                final PathPattern pattern = ((SseKafkaConditionConfig) route.when().get(i)).path();
                if (pattern.matches(pathBuffer, pathOffset, pathLength, captures.starts(), captures.ends()))
                {
                    matched = pattern;
                }
            }
            if (matched != null || route.when().isEmpty())
            {
                final SseKafkaStream stream = new SseKafkaStream(this, binding.id(), route.exitId(), with);
                if (!stream.resolve(matched, pathBuffer, captures.starts(), captures.ends(), beginEx.lastId()))
                {
                    context.event(binding.id(), begin.traceId(), "sse-kafka.path.unresolved", "a value of the route's"
                        + " with is longer than a frame once the path's parameters are in it");
                    return null;
                }
                stream.sse.set(sender, begin.originId(), begin.routedId(), begin.streamId(), begin.streamId() & ~1L);
                streams.put(begin.streamId(), stream);
                return stream;
            }
        }
        return null;
    }

    void onReopened(long bindingId)
    {
        final AtomicCounter counter = reopened.get(bindingId);
        if (counter != null)
        {
            counter.increment();
        }
    }

    void onClosed(SseKafkaStream stream)
    {
        streams.remove(stream.sse.inboundId, stream);
    }

    /** The scratch id of the factory's token as an event id of {@code format}, in {@link #idBuffer}: its length. */
    int writeId(SseKafkaWithConfig.EventIdFormat format, OctetsFW key)
    {
        if (format == SseKafkaWithConfig.EventIdFormat.ETAG)
        {
            return token.encode(idBuffer, 0, idBuffer.capacity());
        }
        int at = 0;
        idBuffer.putByte(at++, (byte) '[');
        idBuffer.putByte(at++, (byte) '"');
        if (key != null)
        {
            final int length = Base64Url.encode(key.buffer(), key.offset(), key.sizeof(), idBuffer, at,
                idBuffer.capacity() - 4);
            if (length < 0)
            {
                return -1;
            }
            at += length;
        }
        idBuffer.putByte(at++, (byte) '"');
        idBuffer.putByte(at++, (byte) ',');
        idBuffer.putByte(at++, (byte) '"');
        final int length = token.encode(idBuffer, at, idBuffer.capacity() - 2);
        if (length < 0)
        {
            return -1;
        }
        at += length;
        idBuffer.putByte(at++, (byte) '"');
        idBuffer.putByte(at++, (byte) ']');
        return at;
    }

    /**
     * Reads a last event id into the factory's token: the token itself ({@code ${etag}}) or the JSON array form
     * {@code ["key","token"]}, whichever the route writes (a client may hold either).
     *
     * @return whether it is a token this binding wrote; when false the token is empty
     */
    boolean readId(DirectBuffer buffer, int offset, int length)
    {
        int start = offset;
        int end = offset + length;
        if (length >= 2 && buffer.getByte(offset) == '[')
        {
            if (length < 7 || buffer.getByte(end - 1) != ']' || buffer.getByte(end - 2) != '"')
            {
                token.clear();
                return false;
            }
            end -= 2;
            start = -1;
            for (int i = end - 1; i > offset && start < 0; i--)
            {
                if (buffer.getByte(i) == '"')
                {
                    start = i + 1;
                }
            }
            if (start < 0 || start - offset < 5 || buffer.getByte(start - 2) != ',' || buffer.getByte(start - 3) != '"')
            {
                token.clear();
                return false;
            }
        }
        return token.decode(buffer, start, end - start);
    }
}
