/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static io.zilla.specs.kafka.codec.Lz4Deflater.DESCRIPTOR_OFFSET;
import static io.zilla.specs.kafka.codec.Lz4Deflater.FLG_BLOCK_CHECKSUM;
import static io.zilla.specs.kafka.codec.Lz4Deflater.FLG_BLOCK_INDEPENDENCE;
import static io.zilla.specs.kafka.codec.Lz4Deflater.FLG_CONTENT_SIZE;
import static io.zilla.specs.kafka.codec.Lz4Deflater.FLG_VERSION;
import static io.zilla.specs.kafka.codec.Lz4Deflater.MAGIC;
import static io.zilla.specs.kafka.codec.Lz4Deflater.UNCOMPRESSED_BLOCK;
import static io.zilla.specs.kafka.codec.RecordsInflater.CORRUPT;
import static io.zilla.specs.kafka.codec.RecordsInflater.TOO_LARGE;

import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;
import org.agrona.ExpandableArrayBuffer;

/**
 * LZ4 in Kafka's frame, as kafka-clients reads it (Lz4BlockInputStream) for v2 batches: the magic, a frame descriptor
 * of version 1 with independent blocks (its reserved bits zero, a block size of 64 KiB to 4 MiB, an optional content
 * size) whose checksum must match, then blocks (compressed, or stored with the high bit of the length set, each with
 * its xxhash32 when the descriptor says so) up to the end mark; the content checksum after it, if any, is not checked,
 * as Kafka does not. Each block inflates straight into the output's array.
 */
final class Lz4Inflater
{
    private static final int FLG_RESERVED = 0x03;
    private static final int FLG_VERSION_MASK = 0xc0;
    private static final int BD_RESERVED = 0x8f;

    private final LZ4SafeDecompressor decompressor = LZ4Factory.fastestInstance().safeDecompressor();
    private final XXHash32 checksum = XXHashFactory.fastestInstance().hash32();

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
        int maxLength)
    {
        final int limit = offset + length;
        int size = CORRUPT;
        if (length >= DESCRIPTOR_OFFSET + 3 && readIntLE(input, offset) == MAGIC)
        {
            final int flg = input[offset + DESCRIPTOR_OFFSET] & 0xff;
            final int bd = input[offset + DESCRIPTOR_OFFSET + 1] & 0xff;
            final int blockSizeId = (bd >> 4) & 0x07;
            final int descriptorLength = 2 + ((flg & FLG_CONTENT_SIZE) != 0 ? Long.BYTES : 0);
            final boolean valid = (flg & FLG_VERSION_MASK) == FLG_VERSION && (flg & FLG_RESERVED) == 0
                && (flg & FLG_BLOCK_INDEPENDENCE) != 0 && (bd & BD_RESERVED) == 0 && blockSizeId >= 4
                && length >= DESCRIPTOR_OFFSET + descriptorLength + 1
                && Lz4Deflater.descriptorChecksum(checksum, input, offset + DESCRIPTOR_OFFSET, descriptorLength)
                    == input[offset + DESCRIPTOR_OFFSET + descriptorLength];
            if (valid)
            {
                size = inflateBlocks(input, offset + DESCRIPTOR_OFFSET + descriptorLength + 1, limit, output, maxLength,
                    1 << (2 * blockSizeId + 8), (flg & FLG_BLOCK_CHECKSUM) != 0);
            }
        }
        return size;
    }

    private int inflateBlocks(
        byte[] input,
        int position,
        int limit,
        ExpandableArrayBuffer output,
        int maxLength,
        int maxBlockSize,
        boolean blockChecksum)
    {
        int size = 0;
        boolean ended = false;
        while (!ended && size >= 0)
        {
            if (limit - position < Integer.BYTES)
            {
                size = CORRUPT;
                break;
            }
            final int header = readIntLE(input, position);
            position += Integer.BYTES;
            final int blockLength = header & ~UNCOMPRESSED_BLOCK;
            final int trailerLength = blockChecksum ? Integer.BYTES : 0;
            if (header == 0)
            {
                ended = true;
            }
            else if (blockLength > maxBlockSize || blockLength > limit - position - trailerLength
                || blockChecksum
                && checksum.hash(input, position, blockLength, 0) != readIntLE(input, position + blockLength))
            {
                size = CORRUPT;
            }
            else if ((header & UNCOMPRESSED_BLOCK) != 0)
            {
                size = blockLength > maxLength - size ? TOO_LARGE : copyBlock(input, position, blockLength, output, size);
            }
            else
            {
                // room for a whole block: a block that inflates beyond it is corrupt, beyond the bound too large
                output.checkLimit(size + maxBlockSize);
                final int inflated = decompressor.decompress(input, position, blockLength, output.byteArray(), size,
                    maxBlockSize);
                size = inflated > maxLength - size ? TOO_LARGE : size + inflated;
            }
            position += blockLength + trailerLength;
        }
        return size;
    }

    private static int copyBlock(
        byte[] input,
        int position,
        int length,
        ExpandableArrayBuffer output,
        int size)
    {
        output.checkLimit(size + length);
        output.putBytes(size, input, position, length);
        return size + length;
    }

    private static int readIntLE(
        byte[] input,
        int position)
    {
        return (input[position] & 0xff) | (input[position + 1] & 0xff) << 8 | (input[position + 2] & 0xff) << 16
            | (input[position + 3] & 0xff) << 24;
    }
}
