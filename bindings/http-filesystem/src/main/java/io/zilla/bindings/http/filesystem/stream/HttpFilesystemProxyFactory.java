/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.filesystem.stream;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.zilla.bindings.http.filesystem.config.HttpFilesystemConditionConfig;
import io.zilla.bindings.http.filesystem.config.HttpFilesystemWithConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.filesystem.types.stream.FileSystemBeginExFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * http-filesystem proxies on one worker. Each http request (a GET or a HEAD) becomes one filesystem stream to the
 * exit of the first route whose path matches; the file's reply Begin becomes the response's head (200 with
 * content-type, content-length, etag and last-modified; 304 when If-None-Match has the file's tag), its Data the
 * body within the http reply's credit (passed through: nothing is held here), a Reset of the request a 404.
 * Other methods are 405, a path that is not a percent-encoded UTF-8 path 400, no matching route 404. A request
 * allocates its exchange and a few strings (the path, the headers' values): per request, not per message.
 */
public final class HttpFilesystemProxyFactory implements BindingHandler
{
    static final int FILESYSTEM_TYPE_ID = "filesystem".hashCode();
    static final int READ_PAYLOAD = 1;
    static final int READ_EXTENSION = 2;

    private static final DateTimeFormatter HTTP_DATE =
        DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final WindowFW windowRO = new WindowFW();
    private final EndFW endRO = new EndFW();
    private final AbortFW abortRO = new AbortFW();
    private final ResetFW resetRO = new ResetFW();
    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final FileSystemBeginExFW fsBeginExRO = new FileSystemBeginExFW();
    private final FileSystemBeginExFW.Builder fsBeginExRW = new FileSystemBeginExFW.Builder();

    private final EngineContext context;
    private final StreamFrames frames;
    private final HttpHeaders headers = new HttpHeaders();
    private final MutableDirectBuffer extBuffer = new UnsafeBuffer(new byte[4096]);
    private final Long2ObjectHashMap<BindingConfig> bindings = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<Exchange> exchanges = new Long2ObjectHashMap<>();

    HttpFilesystemProxyFactory(EngineContext context)
    {
        this.context = context;
        this.frames = new StreamFrames(context.writeBuffer());
    }

    BindingHandler attach(BindingConfig binding)
    {
        bindings.put(binding.id(), binding);
        return this;
    }

    void detach(long bindingId)
    {
        bindings.remove(bindingId);
        for (Exchange exchange : new ArrayList<>(exchanges.values()))
        {
            if (exchange.http.routedId == bindingId)
            {
                exchange.doAbortAll(0L);
            }
        }
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final BindingConfig binding = bindings.get(begin.routedId());
        if (binding == null)
        {
            return null;
        }
        final Exchange exchange = new Exchange(binding);
        exchange.http.set(sender, begin.originId(), begin.routedId(), begin.streamId(), begin.streamId() & ~1L);
        exchanges.put(exchange.http.inboundId, exchange);
        return exchange::onHttp;
    }

    private final class Exchange
    {
        private final BindingConfig binding;
        // the http request as the proxy accepted it, and the filesystem stream it opened
        private final StreamSide http = new StreamSide(frames);
        private final StreamSide fs = new StreamSide(frames);
        private List<String> ifNoneMatch;
        private boolean head;
        private boolean discard;

        Exchange(BindingConfig binding)
        {
            this.binding = binding;
        }

        void onHttp(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onHttpBegin(beginRO.wrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onHttpData(dataRO.wrap(buffer, index, index + length));
                case EndFW.TYPE_ID -> onHttpEnd();
                case AbortFW.TYPE_ID -> onHttpAbort(abortRO.wrap(buffer, index, index + length));
                case WindowFW.TYPE_ID -> onHttpWindow(windowRO.wrap(buffer, index, index + length));
                case ResetFW.TYPE_ID -> onHttpReset(resetRO.wrap(buffer, index, index + length));
                default ->
                {
                    // nothing else concerns a file request
                }
            }
        }

        void onFs(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onFsBegin(beginRO.wrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onFsData(dataRO.wrap(buffer, index, index + length));
                case EndFW.TYPE_ID -> onFsEnd(endRO.wrap(buffer, index, index + length));
                case AbortFW.TYPE_ID -> onFsAbort(abortRO.wrap(buffer, index, index + length));
                case WindowFW.TYPE_ID -> onFsWindow(windowRO.wrap(buffer, index, index + length));
                case ResetFW.TYPE_ID -> onFsReset(resetRO.wrap(buffer, index, index + length));
                default ->
                {
                    // nothing else concerns a file request
                }
            }
        }

        private void onHttpBegin(BeginFW begin)
        {
            http.onInBegin(begin);
            final long traceId = begin.traceId();
            final OctetsFW extension = begin.extension();
            if (!headers.read(extension.buffer(), extension.offset(), extension.limit()))
            {
                respond(traceId, 400);
                return;
            }
            head = "HEAD".equals(headers.method);
            if (!head && !"GET".equals(headers.method))
            {
                respond(traceId, 405);
                return;
            }
            final String path = RequestPaths.decode(headers.path);
            if (path == null)
            {
                respond(traceId, 400);
                return;
            }
            ifNoneMatch = RequestPaths.tags(headers.ifNoneMatch);
            for (RouteConfig route : binding.routes())
            {
                final String file = route.servable() ? file(route, path) : null;
                if (file != null)
                {
                    open(traceId, route.exitId(), file);
                    return;
                }
            }
            respond(traceId, 404);
        }

        // the file a route names for the path, or null when the route does not match it
        private String file(RouteConfig route, String path)
        {
            if (route.when().isEmpty())
            {
                // a route without when, or the default exit: the path itself, relative
                return route.with() instanceof HttpFilesystemWithConfig with ? with.resolve(Map.of()) : path.substring(1);
            }
            for (ConditionConfig condition : route.when())
            {
                final Map<String, String> captured = ((HttpFilesystemConditionConfig) condition).match(path);
                if (captured != null)
                {
                    return route.with() instanceof HttpFilesystemWithConfig with ? with.resolve(captured) : path.substring(1);
                }
            }
            return null;
        }

        private void open(long traceId, long exitId, String file)
        {
            // the server skips the payload for one tag it has; with several, this proxy compares them itself
            final String tag = ifNoneMatch.size() == 1 ? ifNoneMatch.get(0) : null;
            final FileSystemBeginExFW beginEx = fsBeginExRW.wrap(extBuffer, 0, extBuffer.capacity())
                .typeId(FILESYSTEM_TYPE_ID)
                .capabilities(head ? READ_EXTENSION : READ_PAYLOAD | READ_EXTENSION)
                .path(file)
                .tag(tag)
                .build();
            final long initialId = context.supplyInitialId(exitId);
            final long replyId = context.supplyReplyId(initialId);
            final MutableDirectBuffer writeBuffer = context.writeBuffer();
            final BeginFW fsBegin = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(binding.id()).routedId(exitId).streamId(initialId)
                .sequence(0).acknowledge(0).maximum(0)
                .traceId(traceId)
                .extension(beginEx.buffer(), beginEx.offset(), beginEx.sizeof())
                .build();
            final MessageConsumer exit = context.newStream(BeginFW.TYPE_ID, fsBegin.buffer(), fsBegin.offset(),
                fsBegin.sizeof(), this::onFs);
            if (exit == null)
            {
                respond(traceId, 502);
                return;
            }
            fs.set(exit, binding.id(), exitId, replyId, initialId);
            fs.outOpened = true;
        }

        private void onHttpData(DataFW data)
        {
            // a GET or HEAD was given no credit for a body: a sender that sends one broke flow control
            doAbortAll(data.traceId());
        }

        private void onHttpEnd()
        {
            http.inClosed = true;
            cleanup();
        }

        private void onHttpAbort(AbortFW abort)
        {
            http.inClosed = true;
            doAbortAll(abort.traceId());
        }

        private void onHttpWindow(WindowFW window)
        {
            http.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
            grant(window.traceId());
        }

        private void onHttpReset(ResetFW reset)
        {
            http.outClosed = true;
            doAbortAll(reset.traceId());
        }

        private void onFsBegin(BeginFW begin)
        {
            fs.onInBegin(begin);
            final long traceId = begin.traceId();
            // the file is found: the request is complete
            fs.doOutEnd(traceId);
            final OctetsFW extension = begin.extension();
            final FileSystemBeginExFW beginEx = extension.sizeof() > 0
                ? fsBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                : null;
            if (beginEx == null || beginEx.typeId() != FILESYSTEM_TYPE_ID)
            {
                fs.doInReset(traceId);
                respond(traceId, 502);
                return;
            }
            final String tag = beginEx.tag().isNull() ? null : beginEx.tag().asString();
            final boolean notModified = tag != null && (ifNoneMatch.contains("*") || ifNoneMatch.contains(tag));
            final boolean payload = (beginEx.capabilities() & READ_PAYLOAD) != 0;
            headers.begin(notModified ? 304 : 200);
            if (!notModified)
            {
                headers.header("content-type", beginEx.type().isNull() ? "application/octet-stream"
                    : beginEx.type().asString());
                headers.header("content-length", Long.toString(beginEx.payloadSize()));
            }
            if (tag != null)
            {
                headers.header("etag", "\"" + tag + "\"");
            }
            if (beginEx.modifiedTime() > 0L)
            {
                headers.header("last-modified", HTTP_DATE.format(Instant.ofEpochMilli(beginEx.modifiedTime())));
            }
            final int length = headers.end();
            http.doOutBegin(traceId, headers.buffer(), 0, length);
            if (notModified && payload)
            {
                // a tag of several in If-None-Match matched: the server sends the file, which is not wanted
                discard = true;
                fs.doInReset(traceId);
                http.doOutEnd(traceId);
                cleanup();
                return;
            }
            grant(traceId);
        }

        // the filesystem reply may send what the http reply can take: its credit less what is in flight
        private void grant(long traceId)
        {
            if (fs.inOpened && !fs.inClosed && http.outOpened)
            {
                fs.doInWindow(traceId, fs.inSeq - (http.outSeq - http.outAck), http.outMax, http.outPad);
            }
        }

        private void onFsData(DataFW data)
        {
            if (discard)
            {
                return;
            }
            final int reserved = data.reserved();
            if (!fs.onInData(data.sequence(), reserved))
            {
                doAbortAll(data.traceId());
                return;
            }
            http.doOutData(data.traceId(), data.flags(), reserved, data.payload());
        }

        private void onFsEnd(EndFW end)
        {
            fs.inClosed = true;
            http.doOutEnd(end.traceId());
            cleanup();
        }

        private void onFsAbort(AbortFW abort)
        {
            fs.inClosed = true;
            http.doOutAbort(abort.traceId());
            http.doInReset(abort.traceId());
            cleanup();
        }

        private void onFsWindow(WindowFW window)
        {
            fs.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        }

        private void onFsReset(ResetFW reset)
        {
            fs.outClosed = true;
            final long traceId = reset.traceId();
            if (!fs.inOpened)
            {
                // the file cannot be served: missing, a directory, or a path the server refused
                fs.inClosed = true;
                respond(traceId, 404);
            }
            else
            {
                http.doOutAbort(traceId);
                http.doInReset(traceId);
                cleanup();
            }
        }

        // a response made here, without a body
        private void respond(long traceId, int status)
        {
            headers.begin(status).header("content-length", "0");
            if (status == 405)
            {
                headers.header("allow", "GET, HEAD");
            }
            final int length = headers.end();
            http.doOutBegin(traceId, headers.buffer(), 0, length);
            http.doOutEnd(traceId);
            cleanup();
        }

        void doAbortAll(long traceId)
        {
            fs.doOutAbort(traceId);
            fs.doInReset(traceId);
            http.doOutAbort(traceId);
            http.doInReset(traceId);
            cleanup();
        }

        private void cleanup()
        {
            if (http.closed() && (fs.closed() || discard))
            {
                exchanges.remove(http.inboundId, this);
            }
        }
    }
}
