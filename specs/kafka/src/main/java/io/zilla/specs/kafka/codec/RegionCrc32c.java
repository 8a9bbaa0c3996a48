/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.util.zip.CRC32C;

import org.agrona.DirectBuffer;

/** CRC32C (a record batch's checksum) of a region of a {@link DirectBuffer}, without allocating once warmed up. */
final class RegionCrc32c
{
    private final CRC32C crc = new CRC32C();
    private final ByteBufferView view = new ByteBufferView();

    /** The CRC32C of {@code [offset, offset + length)}, as the unsigned 32-bit value Kafka stores. */
    long compute(
        DirectBuffer buffer,
        int offset,
        int length)
    {
        crc.reset();
        final byte[] array = buffer.byteArray();
        if (array != null)
        {
            crc.update(array, buffer.wrapAdjustment() + offset, length);
        }
        else
        {
            crc.update(view.wrap(buffer, offset, length));
        }
        return crc.getValue();
    }
}
