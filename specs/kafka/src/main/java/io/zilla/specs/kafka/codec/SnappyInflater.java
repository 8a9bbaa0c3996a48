/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static io.zilla.specs.kafka.codec.RecordsInflater.CORRUPT;
import static io.zilla.specs.kafka.codec.RecordsInflater.TOO_LARGE;

import java.io.IOException;

import org.agrona.ExpandableArrayBuffer;
import org.xerial.snappy.Snappy;

/**
 * Snappy as kafka-clients reads it (SnappyInputStream): the xerial stream header, then blocks of a big-endian int32
 * length and a raw snappy block, a header again where streams were concatenated; input without the header is one
 * raw snappy block, as SnappyInputStream falls back to. Each block inflates straight into the output's array.
 */
final class SnappyInflater
{
    /**
     * Inflates {@code [offset, offset + length)} of {@code input} to {@code output} from index 0.
     *
     * @return the inflated length, or {@link RecordsInflater#TOO_LARGE} beyond {@code maxLength}, or
     *     {@link RecordsInflater#CORRUPT}
     */
    int inflate(
        byte[] input,
        int offset,
        int length,
        ExpandableArrayBuffer output,
        int maxLength) throws IOException
    {
        final int limit = offset + length;
        int size;
        if (!startsWithMagic(input, offset, limit))
        {
            size = inflateBlock(input, offset, length, output, 0, maxLength);
        }
        else
        {
            size = 0;
            int position = offset;
            while (position < limit && size >= 0)
            {
                if (startsWithMagic(input, position, limit))
                {
                    position = limit - position >= SnappyDeflater.HEADER_LENGTH ? position + SnappyDeflater.HEADER_LENGTH
                        : Integer.MIN_VALUE;
                }
                else if (limit - position >= Integer.BYTES)
                {
                    final int blockLength = readIntBE(input, position);
                    position += Integer.BYTES;
                    if (blockLength < 0 || blockLength > limit - position)
                    {
                        size = CORRUPT;
                    }
                    else
                    {
                        size = inflateBlock(input, position, blockLength, output, size, maxLength);
                        position += blockLength;
                    }
                }
                else
                {
                    position = Integer.MIN_VALUE;
                }
                if (position < 0)
                {
                    size = CORRUPT;
                }
            }
        }
        return size;
    }

    private static int inflateBlock(
        byte[] input,
        int offset,
        int length,
        ExpandableArrayBuffer output,
        int size,
        int maxLength) throws IOException
    {
        final int inflatedLength = Snappy.uncompressedLength(input, offset, length);
        int result;
        if (inflatedLength < 0)
        {
            result = CORRUPT;
        }
        else if (inflatedLength > maxLength - size)
        {
            result = TOO_LARGE;
        }
        else
        {
            output.checkLimit(size + inflatedLength);
            result = size + Snappy.uncompress(input, offset, length, output.byteArray(), size);
        }
        return result;
    }

    private static boolean startsWithMagic(
        byte[] input,
        int position,
        int limit)
    {
        boolean magic = limit - position >= SnappyDeflater.MAGIC_LENGTH;
        for (int i = 0; magic && i < SnappyDeflater.MAGIC_LENGTH; i++)
        {
            magic = input[position + i] == SnappyDeflater.HEADER[i];
        }
        return magic;
    }

    private static int readIntBE(
        byte[] input,
        int position)
    {
        return (input[position] & 0xff) << 24 | (input[position + 1] & 0xff) << 16 | (input[position + 2] & 0xff) << 8
            | (input[position + 3] & 0xff);
    }
}
