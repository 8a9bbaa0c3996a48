/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import org.agrona.ExpandableArrayBuffer;

/**
 * Gzip as kafka-clients writes it (java.util.zip.GZIPOutputStream at the default level): one member, its 10-byte header,
 * the raw deflate stream, the CRC32 and length trailer. The Deflater and CRC32 are reset per batch, never reallocated.
 */
final class GzipDeflater
{
    static final int HEADER_LENGTH = 10;
    static final int TRAILER_LENGTH = 8;

    // what GZIPOutputStream writes since JDK 16 (JDK-8244706): no flags, no time, OS "unknown" (255)
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff};

    private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    private final CRC32 crc = new CRC32();

    /** Compresses {@code [offset, offset + length)} of {@code input} to {@code output} from index 0; returns the length. */
    int deflate(
        byte[] input,
        int offset,
        int length,
        ExpandableArrayBuffer output)
    {
        deflater.reset();
        crc.reset();
        crc.update(input, offset, length);

        output.checkLimit(HEADER_LENGTH + length + (length >> 4) + 64);
        output.putBytes(0, HEADER);
        int limit = HEADER_LENGTH;

        deflater.setInput(input, offset, length);
        deflater.finish();
        while (!deflater.finished())
        {
            if (limit == output.capacity())
            {
                output.checkLimit(limit + (limit >> 1) + 64);
            }
            limit += deflater.deflate(output.byteArray(), limit, output.capacity() - limit);
        }

        output.checkLimit(limit + TRAILER_LENGTH);
        output.putInt(limit, (int) crc.getValue(), ByteOrder.LITTLE_ENDIAN);
        output.putInt(limit + Integer.BYTES, length, ByteOrder.LITTLE_ENDIAN);
        return limit + TRAILER_LENGTH;
    }
}
