/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.function.Predicate;

import io.zilla.bindings.sse.SseBinding;
import io.zilla.bindings.sse.config.SseConditionConfig;
import io.zilla.bindings.sse.config.SseOptionsConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import io.zilla.specs.sse.types.stream.SseBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * One sse server binding on one worker. Each http request stream it accepts is read once, at its Begin: its method,
 * path, scheme, authority and last event id decide whether it is answered here (405, 404, 400) or opens an sse stream
 * to its route's exit ({@link SseServerStream}). A stream object serves one request after another, kept as a spare
 * between them, so that a request allocates nothing once the worker is warm.
 */
final class SseServerFactory implements BindingHandler
{
    private static final byte[] METHOD = SseServerShared.bytes(":method");
    private static final byte[] SCHEME = SseServerShared.bytes(":scheme");
    private static final byte[] AUTHORITY = SseServerShared.bytes(":authority");
    private static final byte[] PATH = SseServerShared.bytes(":path");
    private static final byte[] LAST_EVENT_ID = SseServerShared.bytes("last-event-id");
    private static final byte[] GET = SseServerShared.bytes("GET");
    private static final byte[] LAST_EVENT_ID_PARAM = SseServerShared.bytes("lastEventId");

    final SseServerShared shared;
    final EngineContext context;
    final BindingConfig binding;
    final SseOptionsConfig options;
    final SseMetrics metrics;
    private final Long2ObjectHashMap<SseServerStream> streams = new Long2ObjectHashMap<>();
    private final ArrayDeque<SseServerStream> spares = new ArrayDeque<>();

    // the request being read: ranges of the Begin's buffer, valid while its frame is
    private DirectBuffer requestBuffer;
    private int pathOffset;
    private int pathLength;
    private final Predicate<ConditionConfig> pathMatcher = this::matchesPath;

    SseServerFactory(EngineContext context, SseServerShared shared, BindingConfig binding)
    {
        this.context = context;
        this.shared = shared;
        this.binding = binding;
        this.options = binding.options() instanceof SseOptionsConfig sse ? sse : SseOptionsConfig.DEFAULTS;
        this.metrics = new SseMetrics(context, binding);
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = shared.beginRO.wrap(buffer, index, index + length);
        final SseServerStream spare = spares.poll();
        final SseServerStream stream = spare != null ? spare : new SseServerStream(this);
        stream.http.set(sender, begin.originId(), begin.routedId(), begin.streamId(), begin.streamId() & ~1L);
        streams.put(stream.http.inboundId, stream);
        return stream;
    }

    /**
     * Reads the request of {@code begin} and opens its stream to the exit.
     *
     * @return the HTTP status to answer with here, or 0 when the stream to the exit is open
     */
    int open(SseServerStream stream, BeginFW begin)
    {
        final OctetsFW extension = begin.extension();
        final HttpBeginExFW httpBeginEx = extension != null && extension.sizeof() > 0
            ? shared.httpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        if (httpBeginEx == null || httpBeginEx.typeId() != SseServerShared.HTTP_TYPE_ID)
        {
            return 400;
        }
        boolean get = false;
        int schemeOffset = 0;
        int schemeLength = -1;
        int authorityOffset = 0;
        int authorityLength = -1;
        int lastIdOffset = 0;
        int lastIdLength = -1;
        DirectBuffer lastIdBuffer = null;
        pathLength = -1;
        final DirectBuffer buffer = httpBeginEx.buffer();
        requestBuffer = buffer;
        final int count = httpBeginEx.headers().count();
        int offset = httpBeginEx.headers().offset() + Integer.BYTES;
        for (int i = 0; i < count; i++)
        {
            final HttpHeaderFW header = shared.headerRO.wrap(buffer, offset, httpBeginEx.limit());
            offset = header.limit();
            final int valueOffset = header.value().valueOffset();
            final int valueLength = header.value().length();
            if (SseServerShared.nameIs(header, METHOD))
            {
                get = equals(buffer, valueOffset, valueLength, GET);
            }
            else if (SseServerShared.nameIs(header, PATH))
            {
                pathOffset = valueOffset;
                pathLength = valueLength;
            }
            else if (SseServerShared.nameIs(header, SCHEME))
            {
                schemeOffset = valueOffset;
                schemeLength = valueLength;
            }
            else if (SseServerShared.nameIs(header, AUTHORITY))
            {
                authorityOffset = valueOffset;
                authorityLength = valueLength;
            }
            else if (SseServerShared.nameIs(header, LAST_EVENT_ID) && valueLength > 0)
            {
                lastIdBuffer = buffer;
                lastIdOffset = valueOffset;
                lastIdLength = valueLength;
            }
        }
        if (!get)
        {
            return 405;
        }
        if (pathLength < 0)
        {
            return 400;
        }
        final RouteConfig route = binding.resolve(pathMatcher);
        if (route == null)
        {
            return 404;
        }
        if (lastIdBuffer == null)
        {
            // the header wins; without it, the query's lastEventId (an EventSource cannot set headers on its first request)
            final int decoded = decodeLastIdParam(buffer, pathOffset, pathLength);
            if (decoded == -2)
            {
                return 400;
            }
            // an empty one is no id, as an empty header is
            if (decoded > 0)
            {
                lastIdBuffer = shared.decoded;
                lastIdOffset = 0;
                lastIdLength = decoded;
            }
        }
        if (lastIdLength > options.lastIdLimit())
        {
            context.event(binding.id(), begin.traceId(), "sse.request.last.id",
                "a last event id of " + lastIdLength + " bytes, more than " + options.lastIdLimit() + ": 400");
            return 400;
        }
        final SseBeginExFW.Builder sseBeginEx = shared.sseBeginExRW.wrap(shared.extension, 0, shared.extension.capacity())
            .typeId(SseBinding.TYPE_ID);
        if (schemeLength >= 0)
        {
            sseBeginEx.scheme(buffer, schemeOffset, schemeLength);
        }
        else
        {
            sseBeginEx.scheme((String) null);
        }
        if (authorityLength >= 0)
        {
            sseBeginEx.authority(buffer, authorityOffset, authorityLength);
        }
        else
        {
            sseBeginEx.authority((String) null);
        }
        sseBeginEx.path(buffer, pathOffset, pathLength);
        if (lastIdBuffer != null)
        {
            sseBeginEx.lastId(lastIdBuffer, lastIdOffset, lastIdLength);
        }
        else
        {
            sseBeginEx.lastId((String) null);
        }
        final int extensionLength = sseBeginEx.build().sizeof();
        stream.resuming = lastIdBuffer != null;
        return stream.openExit(begin.traceId(), route.exitId(), shared.extension, extensionLength) ? 0 : 503;
    }

    private boolean matchesPath(ConditionConfig condition)
    {
        return condition instanceof SseConditionConfig sse && sse.matches(requestBuffer, pathOffset, pathLength);
    }

    /**
     * Percent-decodes the value of the query's first {@code lastEventId} parameter into {@code shared.decoded}.
     *
     * @return its length, -1 when there is none, -2 when it is not valid percent-encoding or longer than a slot
     */
    private int decodeLastIdParam(DirectBuffer buffer, int offset, int length)
    {
        final int limit = offset + length;
        int index = offset;
        while (index < limit && buffer.getByte(index) != '?')
        {
            index++;
        }
        while (index < limit)
        {
            // index is at the ? or & before a parameter
            final int name = index + 1;
            int end = name;
            while (end < limit && buffer.getByte(end) != '&')
            {
                end++;
            }
            final int nameEnd = name + LAST_EVENT_ID_PARAM.length;
            if (nameEnd < end && buffer.getByte(nameEnd) == '=' && equals(buffer, name, LAST_EVENT_ID_PARAM.length,
                LAST_EVENT_ID_PARAM))
            {
                return percentDecode(buffer, nameEnd + 1, end);
            }
            if (nameEnd == end && equals(buffer, name, LAST_EVENT_ID_PARAM.length, LAST_EVENT_ID_PARAM))
            {
                return 0;
            }
            index = end;
        }
        return -1;
    }

    private int percentDecode(DirectBuffer buffer, int from, int to)
    {
        final int capacity = shared.decoded.capacity();
        int length = 0;
        for (int i = from; i < to; i++)
        {
            byte b = buffer.getByte(i);
            if (b == '%')
            {
                final int high = i + 2 < to ? hex(buffer.getByte(i + 1)) : -1;
                final int low = high >= 0 ? hex(buffer.getByte(i + 2)) : -1;
                if (low < 0)
                {
                    return -2;
                }
                b = (byte) (high << 4 | low);
                i += 2;
            }
            if (length == capacity)
            {
                return -2;
            }
            shared.decoded.putByte(length++, b);
        }
        return length;
    }

    private static int hex(byte b)
    {
        if (b >= '0' && b <= '9')
        {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f')
        {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F')
        {
            return b - 'A' + 10;
        }
        return -1;
    }

    private static boolean equals(DirectBuffer buffer, int offset, int length, byte[] expected)
    {
        if (length != expected.length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != expected[i])
            {
                return false;
            }
        }
        return true;
    }

    /** The stream is done both ways: it becomes a spare for the next request. */
    void release(SseServerStream stream, long httpInitialId)
    {
        if (streams.remove(httpInitialId) == stream)
        {
            spares.push(stream);
        }
    }

    void event(long traceId, String event, String detail)
    {
        context.event(binding.id(), traceId, event, detail);
    }

    /** The binding is going away: abort every stream it still serves. */
    void close()
    {
        for (SseServerStream stream : new ArrayList<>(streams.values()))
        {
            stream.doAbortAll(0L);
        }
    }
}
