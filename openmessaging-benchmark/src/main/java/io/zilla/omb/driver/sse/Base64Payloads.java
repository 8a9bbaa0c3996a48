/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import java.util.Arrays;
import java.util.Base64;

/**
 * The payloads as text: an SSE event's data is text that the server splits at CR and LF, so a payload of random bytes
 * (with its binary send-time stamp) goes to Kafka base64-encoded (RFC 4648, standard alphabet, padded: 4 bytes per 3,
 * a 100-byte payload is a 136-byte record) and the consumer decodes the event's data back to the payload.
 */
final class Base64Payloads
{
    private static final byte[] VALUES = new byte[128];

    static
    {
        Arrays.fill(VALUES, (byte) -1);
        final String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < alphabet.length(); i++)
        {
            VALUES[alphabet.charAt(i)] = (byte) i;
        }
    }

    private Base64Payloads()
    {
    }

    static byte[] encode(byte[] payload)
    {
        return Base64.getEncoder().encode(payload);
    }

    /** The bytes that {@code length} base64 characters from {@code offset} encode, in a new array. */
    static byte[] decode(byte[] text, int offset, int length)
    {
        int end = offset + length;
        while (end > offset && text[end - 1] == '=')
        {
            end--;
        }
        final int chars = end - offset;
        if (chars % 4 == 1 || length % 4 != 0 && end != offset + length)
        {
            throw new IllegalArgumentException("not base64: " + length + " characters");
        }
        final byte[] bytes = new byte[chars * 3 / 4];
        int bits = 0;
        int count = 0;
        int out = 0;
        for (int i = offset; i < end; i++)
        {
            final int c = text[i];
            final int value = c >= 0 && c < 128 ? VALUES[c] : -1;
            if (value < 0)
            {
                throw new IllegalArgumentException("not base64: byte 0x" + Integer.toHexString(c & 0xff));
            }
            bits = bits << 6 | value;
            count += 6;
            if (count >= 8)
            {
                count -= 8;
                bytes[out++] = (byte) (bits >>> count);
            }
        }
        return bytes;
    }
}
