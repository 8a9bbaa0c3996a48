/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.io.IOException;
import java.nio.ByteOrder;

import org.agrona.ExpandableArrayBuffer;
import org.xerial.snappy.Snappy;

/**
 * Snappy in the xerial framing kafka-clients writes (SnappyOutputStream, default block size): the 16-byte stream
 * header, then per 32 KiB of records a big-endian int32 length and the raw snappy block. Snappy's raw compress runs
 * from the records' array straight into the output's, so nothing is kept but the output.
 */
final class SnappyDeflater
{
    static final int BLOCK_SIZE = 32 * 1024;
    static final int HEADER_LENGTH = 16;
    // SnappyCodec.MAGIC_HEADER, then the stream version and the minimum compatible version, both 1
    static final byte[] HEADER = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1};
    static final int MAGIC_LENGTH = 8;

    /** Compresses {@code [offset, offset + length)} of {@code input} to {@code output} from index 0; returns the length. */
    int deflate(
        byte[] input,
        int offset,
        int length,
        ExpandableArrayBuffer output) throws IOException
    {
        output.checkLimit(HEADER_LENGTH);
        output.putBytes(0, HEADER);
        int limit = HEADER_LENGTH;
        for (int block = 0; block < length; block += BLOCK_SIZE)
        {
            final int blockLength = Math.min(BLOCK_SIZE, length - block);
            output.checkLimit(limit + Integer.BYTES + Snappy.maxCompressedLength(blockLength));
            final int compressed = Snappy.rawCompress(input, offset + block, blockLength, output.byteArray(),
                limit + Integer.BYTES);
            output.putInt(limit, compressed, ByteOrder.BIG_ENDIAN);
            limit += Integer.BYTES + compressed;
        }
        return limit;
    }
}
