/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static io.zilla.specs.kafka.codec.RecordsInflater.TOO_LARGE;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import org.agrona.ExpandableArrayBuffer;

/**
 * Zstd as kafka-clients reads it (ZstdInputStreamNoFinalizer): one or more frames, with or without their content
 * size. One reused ZstdDecompressCtx inflates them in one call, from the input's array straight into the output's;
 * when the output is too small (Kafka's frames do not say their size) it grows, up to the bound, and the call is
 * repeated: that happens while the output grows to the largest batch seen, not in steady state.
 */
final class ZstdInflater
{
    private final ZstdDecompressCtx context = new ZstdDecompressCtx();

    /**
     * Inflates {@code [offset, offset + length)} of {@code input} to {@code output} from index 0.
     *
     * @return the inflated length, or {@link RecordsInflater#TOO_LARGE} beyond {@code maxLength}; corrupt input throws
     */
    int inflate(
        byte[] input,
        int offset,
        int length,
        ExpandableArrayBuffer output,
        int maxLength)
    {
        int size = TOO_LARGE;
        boolean inflated = false;
        while (!inflated)
        {
            final int room = Math.min(output.capacity(), maxLength);
            try
            {
                context.reset();
                size = context.decompressByteArray(output.byteArray(), 0, room, input, offset, length);
                inflated = true;
            }
            catch (ZstdException ex)
            {
                if (ex.getErrorCode() != Zstd.errDstSizeTooSmall())
                {
                    throw ex;
                }
                inflated = room >= maxLength;
                output.checkLimit((int) Math.min(maxLength, room * 2L));
            }
        }
        return size;
    }
}
