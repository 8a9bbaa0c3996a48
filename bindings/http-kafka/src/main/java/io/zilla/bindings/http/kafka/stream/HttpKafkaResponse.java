/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Builds a response's HttpBeginEx, header by header, through one item mutator held in a field. The names given as
 * Strings (the binding's own: :status, content-length, location...) are encoded once, not per response.
 */
final class HttpKafkaResponse
{
    private static final int MAX_NAMES = 256;

    private final HttpBeginExFW.Builder beginExRW = new HttpBeginExFW.Builder();
    private final Consumer<HttpHeaderFW.Builder> item = this::item;
    private final MutableDirectBuffer digits = new UnsafeBuffer(new byte[20]);
    private final Map<String, DirectBuffer> encoded = new HashMap<>();
    private final UnsafeBuffer valueRO = new UnsafeBuffer(0, 0);

    private DirectBuffer name;
    private int nameOffset;
    private int nameLength;
    private DirectBuffer value;
    private int valueOffset;
    private int valueLength;

    HttpKafkaResponse begin(MutableDirectBuffer buffer, int status)
    {
        beginExRW.wrap(buffer, 0, buffer.capacity()).typeId(HttpKafkaProxyFactory.HTTP_TYPE_ID);
        return header(":status", status);
    }

    HttpKafkaResponse header(String name, long number)
    {
        final int length = digits.putLongAscii(0, number);
        return header(name, digits, 0, length);
    }

    HttpKafkaResponse header(String name, byte[] value)
    {
        valueRO.wrap(value);
        return header(name, valueRO, 0, value.length);
    }

    HttpKafkaResponse header(String name, DirectBuffer value, int offset, int length)
    {
        final DirectBuffer bytes = encoded(name);
        return header(bytes, 0, bytes.capacity(), value, offset, length);
    }

    HttpKafkaResponse header(DirectBuffer name, int nameOffset, int nameLength, DirectBuffer value, int offset, int length)
    {
        this.name = name;
        this.nameOffset = nameOffset;
        this.nameLength = nameLength;
        this.value = value;
        this.valueOffset = offset;
        this.valueLength = length;
        beginExRW.headersItem(item);
        return this;
    }

    /** @return the length of the HttpBeginEx built from 0 of the buffer given to {@link #begin} */
    int build()
    {
        return beginExRW.build().sizeof();
    }

    private void item(HttpHeaderFW.Builder header)
    {
        header.name(name, nameOffset, nameLength).value(value, valueOffset, valueLength);
    }

    private DirectBuffer encoded(String text)
    {
        DirectBuffer bytes = encoded.get(text);
        if (bytes == null)
        {
            if (encoded.size() >= MAX_NAMES)
            {
                encoded.clear();
            }
            bytes = new UnsafeBuffer(text.getBytes(UTF_8));
            encoded.put(text, bytes);
        }
        return bytes;
    }
}
