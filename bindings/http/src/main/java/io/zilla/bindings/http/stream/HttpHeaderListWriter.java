/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.nio.ByteOrder;

import io.zilla.bindings.http.HttpBinding;
import io.zilla.specs.flyweight.String16FW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes an http.idl header list extension (HttpBeginEx, HttpEndEx: a type id, then an array32 of name and value
 * pairs) into a buffer of its own, one header at a time, names in lower case. Reused per message; allocates nothing.
 */
final class HttpHeaderListWriter
{
    private static final int HEADER_OVERHEAD = 2 * Short.BYTES;

    private final MutableDirectBuffer buffer;
    private final String16FW.Builder nameRW = new String16FW.Builder(ByteOrder.nativeOrder());
    private final String16FW.Builder valueRW = new String16FW.Builder(ByteOrder.nativeOrder());
    private int position;
    private int count;
    private boolean overflow;

    HttpHeaderListWriter(int capacity)
    {
        this.buffer = new UnsafeBuffer(new byte[capacity]);
    }

    MutableDirectBuffer buffer()
    {
        return buffer;
    }

    HttpHeaderListWriter begin()
    {
        buffer.putInt(0, HttpBinding.TYPE_ID);
        position = 2 * Integer.BYTES;
        count = 0;
        overflow = false;
        return this;
    }

    HttpHeaderListWriter header(DirectBuffer name, int nameOffset, int nameLength, DirectBuffer value, int valueOffset,
        int valueLength)
    {
        if (room(nameLength, valueLength))
        {
            nameRW.wrap(buffer, position, buffer.capacity()).set(name, nameOffset, nameLength);
            for (int i = 0; i < nameLength; i++)
            {
                final int at = position + Short.BYTES + i;
                buffer.putByte(at, HttpRequestHead.toLower(buffer.getByte(at)));
            }
            position += Short.BYTES + nameLength;
            valueRW.wrap(buffer, position, buffer.capacity()).set(value, valueOffset, valueLength);
            position += Short.BYTES + valueLength;
            count++;
        }
        return this;
    }

    HttpHeaderListWriter header(String16FW name, String16FW value)
    {
        return header(name.buffer(), name.valueOffset(), name.length(), value.buffer(), value.valueOffset(), value.length());
    }

    /** A header whose name is lower case already and whose value is ASCII text. */
    HttpHeaderListWriter header(String name, String value)
    {
        if (room(name.length(), value.length()))
        {
            buffer.putShort(position, (short) name.length(), ByteOrder.nativeOrder());
            buffer.putStringWithoutLengthAscii(position + Short.BYTES, name);
            position += Short.BYTES + name.length();
            buffer.putShort(position, (short) value.length(), ByteOrder.nativeOrder());
            buffer.putStringWithoutLengthAscii(position + Short.BYTES, value);
            position += Short.BYTES + value.length();
            count++;
        }
        return this;
    }

    /** A header whose value is from {@code value}. */
    HttpHeaderListWriter header(String name, DirectBuffer value, int valueOffset, int valueLength)
    {
        if (room(name.length(), valueLength))
        {
            buffer.putShort(position, (short) name.length(), ByteOrder.nativeOrder());
            buffer.putStringWithoutLengthAscii(position + Short.BYTES, name);
            position += Short.BYTES + name.length();
            buffer.putShort(position, (short) valueLength, ByteOrder.nativeOrder());
            buffer.putBytes(position + Short.BYTES, value, valueOffset, valueLength);
            position += Short.BYTES + valueLength;
            count++;
        }
        return this;
    }

    /** Completes the list; returns its length, or -1 when it did not fit. */
    int end()
    {
        buffer.putInt(Integer.BYTES, count, ByteOrder.nativeOrder());
        return overflow ? -1 : position;
    }

    private boolean room(int nameLength, int valueLength)
    {
        if (nameLength > String16FW.MAX_LENGTH || valueLength > String16FW.MAX_LENGTH
            || position + HEADER_OVERHEAD + nameLength + valueLength > buffer.capacity())
        {
            overflow = true;
        }
        return !overflow;
    }
}
