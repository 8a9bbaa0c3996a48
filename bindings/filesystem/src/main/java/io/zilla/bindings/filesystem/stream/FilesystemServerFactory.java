/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.filesystem.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;

import io.zilla.bindings.filesystem.FilesystemBinding;
import io.zilla.bindings.filesystem.config.FilesystemOptionsConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.config.BindingConfig;
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
 * Filesystem servers on one worker. A stream's Begin names a file; its reply Begin says what the file is, its Data
 * carry the bytes within the reply's credit, and End follows the last. Every disk access (resolving the path, stat,
 * open, each read of a chunk, close) is a {@link FileRead} performed by the worker's {@link FileReader} thread; the
 * worker only copies a chunk already in memory into Data frames, as the reply's credit allows, and asks for the next
 * chunk when it has sent the last. A file that cannot be served resets the request: a mapping answers it (404).
 */
public final class FilesystemServerFactory implements BindingHandler
{
    /** Capability bits of FileSystemBeginEx: the file's bytes, its metadata. */
    public static final int READ_PAYLOAD = 1;
    public static final int READ_EXTENSION = 2;

    // a chunk read at a time: large enough for few reads of a page's files, small enough to keep per stream
    static final int CHUNK_SIZE = 64 * 1024;
    // the largest Data frame sent: well under the ring's largest message
    static final int MAX_FRAME = 16 * 1024;
    // requests a worker's reader holds at once: streams beyond it are refused rather than queued without bound
    static final int READER_CAPACITY = 1024;

    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final WindowFW windowRO = new WindowFW();
    private final EndFW endRO = new EndFW();
    private final AbortFW abortRO = new AbortFW();
    private final ResetFW resetRO = new ResetFW();
    private final FileSystemBeginExFW beginExRO = new FileSystemBeginExFW();
    private final FileSystemBeginExFW.Builder beginExRW = new FileSystemBeginExFW.Builder();

    private final EngineContext context;
    private final StreamFrames frames;
    private final MutableDirectBuffer extBuffer = new UnsafeBuffer(new byte[4096]);
    private final Long2ObjectHashMap<FileServer> servers = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<FilesystemOptionsConfig> options = new Long2ObjectHashMap<>();
    // the servers of ended streams (their chunk buffers with them), for the next ones
    private final ArrayDeque<FileServer> spares = new ArrayDeque<>();
    private final FileReader reader;

    FilesystemServerFactory(EngineContext context)
    {
        this.context = context;
        this.frames = new StreamFrames(context.writeBuffer());
        this.reader = new FileReader("zilla-filesystem-" + context.index(), READER_CAPACITY);
        reader.start(context.supplyDoorbell(this::onReaderDone));
    }

    BindingHandler attach(BindingConfig binding)
    {
        options.put(binding.id(), (FilesystemOptionsConfig) binding.options());
        return this;
    }

    void detach(long bindingId)
    {
        options.remove(bindingId);
        // a copy: aborting a stream removes it from the map
        for (FileServer server : new ArrayList<>(servers.values()))
        {
            if (server.side.routedId == bindingId)
            {
                server.doFail(0L);
            }
        }
    }

    void close()
    {
        reader.close();
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final FilesystemOptionsConfig config = options.get(begin.routedId());
        if (config == null)
        {
            return null;
        }
        final FileServer spare = spares.poll();
        final FileServer server = spare != null ? spare : new FileServer();
        server.config = config;
        server.side.set(sender, begin.originId(), begin.routedId(), begin.streamId(), begin.streamId() & ~1L);
        servers.put(server.side.inboundId, server);
        return server.handler;
    }

    // the reader's doorbell: every request it finished since, back on the worker
    private void onReaderDone()
    {
        for (FileRead read = reader.poll(); read != null; read = reader.poll())
        {
            read.onDone.run();
        }
    }

    private final class FileServer
    {
        private final StreamSide side = new StreamSide(frames);
        private final MessageConsumer handler = this::onMessage;
        private final FileRead read = new FileRead(CHUNK_SIZE);

        private FilesystemOptionsConfig config;
        private long traceId;
        private boolean payload;
        private boolean busy;
        private boolean done;
        private long remaining;
        private int chunkOffset;
        private int chunkLimit;

        FileServer()
        {
            read.onDone = this::onReadDone;
        }

        void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            if (done || !side.owns(buffer, index))
            {
                // a late frame of a stream already done, or of the one this server served before
                return;
            }
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onBegin(beginRO.wrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onData(dataRO.wrap(buffer, index, index + length));
                case EndFW.TYPE_ID -> onEnd(endRO.wrap(buffer, index, index + length));
                case AbortFW.TYPE_ID -> onAbort(abortRO.wrap(buffer, index, index + length));
                case WindowFW.TYPE_ID -> onWindow(windowRO.wrap(buffer, index, index + length));
                case ResetFW.TYPE_ID -> onReset(resetRO.wrap(buffer, index, index + length));
                default ->
                {
                    // signals and challenges mean nothing to a file
                }
            }
        }

        private void onBegin(BeginFW begin)
        {
            side.onInBegin(begin);
            traceId = begin.traceId();
            final OctetsFW extension = begin.extension();
            final FileSystemBeginExFW beginEx = extension.sizeof() > 0
                ? beginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                : null;
            if (beginEx == null || beginEx.typeId() != FilesystemBinding.TYPE_ID || beginEx.path().isNull())
            {
                // a stream that names no file
                doFail(traceId);
                return;
            }
            final String path = beginEx.path().asString();
            final String tag = beginEx.tag().isNull() ? null : beginEx.tag().asString();
            read.op = FileRead.OPEN;
            read.location = config.location();
            read.followSymlinks = config.followSymlinks();
            read.path = path;
            read.requestTag = tag;
            read.payload = (beginEx.capabilities() & READ_PAYLOAD) != 0;
            submit();
        }

        private void onData(DataFW data)
        {
            // a file request has no body: the opener broke the protocol
            doFail(data.traceId());
        }

        private void onEnd(EndFW end)
        {
            side.inClosed = true;
            cleanup();
        }

        private void onAbort(AbortFW abort)
        {
            side.inClosed = true;
            side.doOutAbort(abort.traceId());
            cleanup();
        }

        private void onWindow(WindowFW window)
        {
            side.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
            traceId = window.traceId();
            flush();
        }

        private void onReset(ResetFW reset)
        {
            side.outClosed = true;
            side.doInReset(reset.traceId());
            cleanup();
        }

        private void submit()
        {
            if (reader.submit(read))
            {
                busy = true;
            }
            else
            {
                context.event(side.routedId, traceId, "filesystem.reader.full",
                    "the worker's file reader holds " + READER_CAPACITY + " requests: stream refused");
                doFail(traceId);
            }
        }

        // back on the worker: what the reader did
        void onReadDone()
        {
            busy = false;
            if (done)
            {
                recycle();
                return;
            }
            switch (read.op)
            {
                case FileRead.OPEN -> onOpened();
                case FileRead.READ -> onChunk();
                default -> recycle();
            }
        }

        private void onOpened()
        {
            if (read.status != FileRead.OK)
            {
                side.doInReset(traceId);
                cleanup();
                return;
            }
            // no payload when the opener asked for none, or has this very file already (its tag, or any: *)
            payload = read.payload && !matches(read.requestTag, read.tag);
            final FileSystemBeginExFW replyEx = beginExRW.wrap(extBuffer, 0, extBuffer.capacity())
                .typeId(FilesystemBinding.TYPE_ID)
                .capabilities(payload ? READ_PAYLOAD | READ_EXTENSION : READ_EXTENSION)
                .path(read.path)
                .type(ContentTypes.of(read.path))
                .payloadSize(read.size)
                .modifiedTime(read.modifiedTime)
                .tag(read.tag)
                .build();
            side.doOutBegin(traceId, replyEx.buffer(), replyEx.offset(), replyEx.sizeof());
            remaining = payload ? read.size : 0L;
            chunkOffset = 0;
            chunkLimit = 0;
            flush();
        }

        private void onChunk()
        {
            if (read.status != FileRead.OK)
            {
                // the file shrank or failed while it was served: the reply is cut short, never padded
                context.event(side.routedId, traceId, "filesystem.read.failed", read.path + ": read failed, aborted");
                doFail(traceId);
                return;
            }
            chunkOffset = 0;
            chunkLimit = read.chunkLength;
            flush();
        }

        // sends what the chunk holds as the reply's credit allows, then asks for the next chunk or ends
        private void flush()
        {
            if (busy || !side.outOpened || side.outClosed)
            {
                return;
            }
            while (chunkOffset < chunkLimit)
            {
                final int credit = side.outCredit();
                if (credit <= 0)
                {
                    return;
                }
                final int length = Math.min(Math.min(credit, MAX_FRAME), chunkLimit - chunkOffset);
                side.doOutData(traceId, read.chunkBuffer, chunkOffset, length);
                chunkOffset += length;
                remaining -= length;
            }
            if (remaining > 0L)
            {
                read.op = FileRead.READ;
                submit();
            }
            else
            {
                side.doOutEnd(traceId);
                cleanup();
            }
        }

        void doFail(long traceId)
        {
            side.doInReset(traceId);
            side.doOutAbort(traceId);
            cleanup();
        }

        private void cleanup()
        {
            if (done || !side.closed())
            {
                return;
            }
            done = true;
            servers.remove(side.inboundId, this);
            if (!busy)
            {
                recycle();
            }
            // else: the reader's answer comes back to a done stream, which then recycles
        }

        // the stream is over and the reader holds nothing of it: close its file (on the reader), then reuse it
        private void recycle()
        {
            if (read.isOpen())
            {
                read.op = FileRead.CLOSE;
                if (reader.submit(read))
                {
                    busy = true;
                    return;
                }
                // the reader is full: the file is closed here, a close of a file opened for reading does not block
                read.closeNow();
            }
            side.reset();
            done = false;
            payload = false;
            remaining = 0L;
            chunkOffset = 0;
            chunkLimit = 0;
            read.path = null;
            read.requestTag = null;
            read.tag = null;
            spares.push(this);
        }
    }

    /** Whether a requester's tag is the file's (or {@code *}, any). */
    static boolean matches(String requestTag, String tag)
    {
        return requestTag != null && ("*".equals(requestTag) || requestTag.equals(tag));
    }
}
