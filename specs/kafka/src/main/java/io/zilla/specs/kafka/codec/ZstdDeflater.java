/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.nio.ByteBuffer;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import org.agrona.ExpandableArrayBuffer;

/**
 * Zstd as kafka-clients writes it (ZstdOutputStreamNoFinalizer at level 3 behind a BufferedOutputStream): one frame
 * compressed as a stream, so without the content size in its header, its data flushed into a block when the stream
 * is closed and then ended by an empty last block. The same stream directives on one reused ZstdCompressCtx give the
 * same bytes. The context works on heap ByteBuffers over the records' and the output's arrays, kept and rewrapped
 * only when an array grows.
 */
final class ZstdDeflater
{
    static final int LEVEL = 3;

    private final ZstdCompressCtx context = new ZstdCompressCtx();
    private ByteBuffer inputView = ByteBuffer.allocate(0);
    private ByteBuffer outputView = ByteBuffer.allocate(0);

    /** Compresses {@code [offset, offset + length)} of {@code input} to {@code output} from index 0; returns the length. */
    int deflate(
        byte[] input,
        int offset,
        int length,
        ExpandableArrayBuffer output)
    {
        context.reset();
        context.setLevel(LEVEL);
        output.checkLimit((int) Math.min(Integer.MAX_VALUE - 8, Zstd.compressBound(length) + 64));

        final ByteBuffer source = view(input, inputView);
        inputView = source;
        source.limit(offset + length).position(offset);
        ByteBuffer target = view(output.byteArray(), outputView);
        target.clear();

        // as the stream does: records in, a flush on close, then the end of the frame
        while (source.hasRemaining())
        {
            context.compressByteBufferStream(target, source, EndDirective.CONTINUE);
            target = grow(output, target);
        }
        while (!context.compressByteBufferStream(target, source, EndDirective.FLUSH))
        {
            target = grow(output, target);
        }
        while (!context.compressByteBufferStream(target, source, EndDirective.END))
        {
            target = grow(output, target);
        }
        outputView = target;
        return target.position();
    }

    private ByteBuffer grow(
        ExpandableArrayBuffer output,
        ByteBuffer target)
    {
        ByteBuffer grown = target;
        if (!target.hasRemaining())
        {
            final int position = target.position();
            output.checkLimit(position + (position >> 1) + 1024);
            grown = view(output.byteArray(), target);
            grown.clear().position(position);
        }
        return grown;
    }

    private static ByteBuffer view(
        byte[] array,
        ByteBuffer view)
    {
        return view.hasArray() && view.array() == array ? view : ByteBuffer.wrap(array);
    }
}
