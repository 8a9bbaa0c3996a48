/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.filesystem.stream;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * http.idl's HttpBeginEx as bytes: a type id, an array32 count, then each header as a string16 name and value
 * (native byte order). Reads a request's headers in place and writes a response's into a buffer of its own.
 */
final class HttpHeaders
{
    static final int HTTP_TYPE_ID = "http".hashCode();

    private final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private int position;
    private int count;

    // the request's headers this proxy reads, as found by find()
    String method;
    String path;
    String ifNoneMatch;

    /** Reads :method, :path and if-none-match of an HttpBeginEx; false when it is not one. */
    boolean read(DirectBuffer extension, int offset, int limit)
    {
        method = null;
        path = null;
        ifNoneMatch = null;
        if (limit - offset < 2 * Integer.BYTES || extension.getInt(offset, ByteOrder.nativeOrder()) != HTTP_TYPE_ID)
        {
            return false;
        }
        final int headers = extension.getInt(offset + Integer.BYTES, ByteOrder.nativeOrder());
        int at = offset + 2 * Integer.BYTES;
        for (int i = 0; i < headers; i++)
        {
            if (at + Short.BYTES > limit)
            {
                return false;
            }
            final int nameLength = extension.getShort(at, ByteOrder.nativeOrder()) & 0xffff;
            final int nameAt = at + Short.BYTES;
            at = nameAt + nameLength;
            if (at + Short.BYTES > limit)
            {
                return false;
            }
            final int valueLength = extension.getShort(at, ByteOrder.nativeOrder()) & 0xffff;
            final int valueAt = at + Short.BYTES;
            at = valueAt + valueLength;
            if (at > limit)
            {
                return false;
            }
            if (is(extension, nameAt, nameLength, ":method"))
            {
                method = extension.getStringWithoutLengthUtf8(valueAt, valueLength);
            }
            else if (is(extension, nameAt, nameLength, ":path"))
            {
                path = extension.getStringWithoutLengthUtf8(valueAt, valueLength);
            }
            else if (is(extension, nameAt, nameLength, "if-none-match"))
            {
                // several if-none-match fields are one list (RFC 9110 5.3)
                final String value = extension.getStringWithoutLengthUtf8(valueAt, valueLength);
                ifNoneMatch = ifNoneMatch == null ? value : ifNoneMatch + ", " + value;
            }
        }
        return true;
    }

    private static boolean is(DirectBuffer buffer, int offset, int length, String name)
    {
        if (length != name.length())
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != name.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    HttpHeaders begin(int status)
    {
        buffer.putInt(0, HTTP_TYPE_ID, ByteOrder.nativeOrder());
        position = 2 * Integer.BYTES;
        count = 0;
        return header(":status", Integer.toString(status));
    }

    HttpHeaders header(String name, String value)
    {
        final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (position + 2 * Short.BYTES + name.length() + bytes.length <= buffer.capacity())
        {
            buffer.putShort(position, (short) name.length(), ByteOrder.nativeOrder());
            buffer.putStringWithoutLengthAscii(position + Short.BYTES, name);
            position += Short.BYTES + name.length();
            buffer.putShort(position, (short) bytes.length, ByteOrder.nativeOrder());
            buffer.putBytes(position + Short.BYTES, bytes);
            position += Short.BYTES + bytes.length;
            count++;
        }
        return this;
    }

    MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /** Ends the list: its length from offset 0 of {@link #buffer()}. */
    int end()
    {
        buffer.putInt(Integer.BYTES, count, ByteOrder.nativeOrder());
        return position;
    }
}
