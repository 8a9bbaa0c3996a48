/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.nio.ByteOrder;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;
import org.agrona.ExpandableArrayBuffer;

/**
 * LZ4 in Kafka's frame, as kafka-clients writes it (Lz4BlockOutputStream at the default level): the magic, the frame
 * descriptor (independent blocks of 64 KiB at most, no block or content checksum, no content size) and its checksum
 * byte, then per 64 KiB of records a little-endian int32 length and the block (stored as is, with the high bit of the
 * length set, when it does not compress), and the end mark. The descriptor checksum is the LZ4 frame format's
 * (xxhash32 of the descriptor without the magic); Kafka's historical quirk of hashing the magic too is for magic v0/v1
 * messages only, never v2 batches. The compressor is the fast one, as Kafka uses at the default level; it compresses
 * from the records' array straight into the output's.
 */
final class Lz4Deflater
{
    static final int MAGIC = 0x184D2204;
    static final int FLG_VERSION = 0x40;
    static final int FLG_BLOCK_INDEPENDENCE = 0x20;
    static final int FLG_BLOCK_CHECKSUM = 0x10;
    static final int FLG_CONTENT_SIZE = 0x08;
    static final int FLG_CONTENT_CHECKSUM = 0x04;
    static final int BD_64KB = 4 << 4;
    static final int UNCOMPRESSED_BLOCK = 0x80000000;
    static final int DESCRIPTOR_OFFSET = Integer.BYTES;

    private static final int BLOCK_SIZE = 64 * 1024;

    private final LZ4Compressor compressor = LZ4Factory.fastestInstance().fastCompressor();
    private final XXHash32 checksum = XXHashFactory.fastestInstance().hash32();

    /** Compresses {@code [offset, offset + length)} of {@code input} to {@code output} from index 0; returns the length. */
    int deflate(
        byte[] input,
        int offset,
        int length,
        ExpandableArrayBuffer output)
    {
        output.checkLimit(DESCRIPTOR_OFFSET + 3);
        output.putInt(0, MAGIC, ByteOrder.LITTLE_ENDIAN);
        output.putByte(DESCRIPTOR_OFFSET, (byte) (FLG_VERSION | FLG_BLOCK_INDEPENDENCE));
        output.putByte(DESCRIPTOR_OFFSET + 1, (byte) BD_64KB);
        output.putByte(DESCRIPTOR_OFFSET + 2, descriptorChecksum(checksum, output.byteArray(), DESCRIPTOR_OFFSET, 2));
        int limit = DESCRIPTOR_OFFSET + 3;

        for (int block = 0; block < length; block += BLOCK_SIZE)
        {
            final int blockOffset = offset + block;
            final int blockLength = Math.min(BLOCK_SIZE, length - block);
            final int maxCompressed = compressor.maxCompressedLength(blockLength);
            output.checkLimit(limit + Integer.BYTES + Math.max(maxCompressed, blockLength));
            final int compressed = compressor.compress(input, blockOffset, blockLength, output.byteArray(),
                limit + Integer.BYTES, maxCompressed);
            if (compressed >= blockLength)
            {
                output.putInt(limit, blockLength | UNCOMPRESSED_BLOCK, ByteOrder.LITTLE_ENDIAN);
                output.putBytes(limit + Integer.BYTES, input, blockOffset, blockLength);
                limit += Integer.BYTES + blockLength;
            }
            else
            {
                output.putInt(limit, compressed, ByteOrder.LITTLE_ENDIAN);
                limit += Integer.BYTES + compressed;
            }
        }

        output.checkLimit(limit + Integer.BYTES);
        output.putInt(limit, 0, ByteOrder.LITTLE_ENDIAN);
        return limit + Integer.BYTES;
    }

    /** The frame descriptor's checksum: the second byte of the xxhash32 (seed 0) of the descriptor without the magic. */
    static byte descriptorChecksum(
        XXHash32 checksum,
        byte[] buffer,
        int offset,
        int length)
    {
        return (byte) ((checksum.hash(buffer, offset, length, 0) >> 8) & 0xff);
    }
}
