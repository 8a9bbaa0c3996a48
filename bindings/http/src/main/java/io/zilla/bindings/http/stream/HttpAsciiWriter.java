/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes an HTTP/1.1 head or chunk frame into a buffer from the start: text, bytes, decimal and hex numbers. It
 * reports overflow rather than throwing, so that a response head too large for the buffer is a status, not a fault.
 */
final class HttpAsciiWriter
{
    private static final byte[] HEX = "0123456789abcdef".getBytes();

    final MutableDirectBuffer buffer;
    int position;
    boolean overflow;

    HttpAsciiWriter(MutableDirectBuffer buffer)
    {
        this.buffer = buffer;
    }

    HttpAsciiWriter reset()
    {
        position = 0;
        overflow = false;
        return this;
    }

    HttpAsciiWriter text(String text)
    {
        if (fits(text.length()))
        {
            buffer.putStringWithoutLengthAscii(position, text);
            position += text.length();
        }
        return this;
    }

    HttpAsciiWriter bytes(DirectBuffer source, int offset, int length)
    {
        if (fits(length))
        {
            buffer.putBytes(position, source, offset, length);
            position += length;
        }
        return this;
    }

    /** Writes {@code length} bytes of {@code source} in lower case, as HTTP/2 and our extensions name headers. */
    HttpAsciiWriter lower(DirectBuffer source, int offset, int length)
    {
        if (fits(length))
        {
            for (int i = 0; i < length; i++)
            {
                buffer.putByte(position + i, HttpRequestHead.toLower(source.getByte(offset + i)));
            }
            position += length;
        }
        return this;
    }

    HttpAsciiWriter decimal(long value)
    {
        if (fits(20))
        {
            position += buffer.putLongAscii(position, value);
        }
        return this;
    }

    HttpAsciiWriter hex(long value)
    {
        final int digits = hexDigits(value);
        if (fits(digits))
        {
            putHex(buffer, position, value, digits);
            position += digits;
        }
        return this;
    }

    /** How many hex digits {@code value} takes, without leading zeros (at least one). */
    static int hexDigits(long value)
    {
        return Math.max(1, (Long.SIZE - Long.numberOfLeadingZeros(value) + 3) >> 2);
    }

    /** Writes {@code value} as {@code digits} lower-case hex digits at {@code index}. */
    static void putHex(MutableDirectBuffer target, int index, long value, int digits)
    {
        for (int i = digits - 1; i >= 0; i--)
        {
            target.putByte(index + digits - 1 - i, HEX[(int) (value >>> (i << 2)) & 0xf]);
        }
    }

    HttpAsciiWriter crlf()
    {
        return text("\r\n");
    }

    HttpAsciiWriter header(String name, String value)
    {
        return text(name).text(": ").text(value).crlf();
    }

    private boolean fits(int length)
    {
        if (position + length > buffer.capacity())
        {
            overflow = true;
        }
        return !overflow;
    }
}
