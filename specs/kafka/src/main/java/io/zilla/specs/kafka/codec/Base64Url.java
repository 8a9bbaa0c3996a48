/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static java.nio.charset.StandardCharsets.US_ASCII;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** base64url without padding (RFC 4648 section 5), from buffer to buffer, allocating nothing: a record's key. */
public final class Base64Url
{
    private static final byte[] ALPHABET =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".getBytes(US_ASCII);

    private Base64Url()
    {
    }

    public static int encodedLength(int length)
    {
        return length / 3 * 4 + (length % 3 == 0 ? 0 : length % 3 + 1);
    }

    /** @return the length written, or -1 when it does not fit before {@code limit} (nothing is written then) */
    public static int encode(DirectBuffer source, int offset, int length, MutableDirectBuffer target, int at, int limit)
    {
        final int encoded = encodedLength(length);
        if (at + encoded > limit)
        {
            return -1;
        }
        int out = at;
        int i = 0;
        for (; i + 3 <= length; i += 3)
        {
            final int bits = (source.getByte(offset + i) & 0xff) << 16 | (source.getByte(offset + i + 1) & 0xff) << 8
                | source.getByte(offset + i + 2) & 0xff;
            target.putByte(out++, ALPHABET[bits >>> 18]);
            target.putByte(out++, ALPHABET[bits >>> 12 & 0x3f]);
            target.putByte(out++, ALPHABET[bits >>> 6 & 0x3f]);
            target.putByte(out++, ALPHABET[bits & 0x3f]);
        }
        final int left = length - i;
        if (left > 0)
        {
            final int bits = (source.getByte(offset + i) & 0xff) << 16
                | (left == 2 ? (source.getByte(offset + i + 1) & 0xff) << 8 : 0);
            target.putByte(out++, ALPHABET[bits >>> 18]);
            target.putByte(out++, ALPHABET[bits >>> 12 & 0x3f]);
            if (left == 2)
            {
                target.putByte(out++, ALPHABET[bits >>> 6 & 0x3f]);
            }
        }
        return out - at;
    }
}
