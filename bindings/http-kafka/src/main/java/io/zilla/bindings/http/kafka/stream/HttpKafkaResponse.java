/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import java.util.function.Consumer;

import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Builds a response's HttpBeginEx, header by header, through one item mutator held in a field. */
final class HttpKafkaResponse
{
    private final HttpBeginExFW.Builder beginExRW = new HttpBeginExFW.Builder();
    private final Consumer<HttpHeaderFW.Builder> item = this::item;
    private final MutableDirectBuffer digits = new UnsafeBuffer(new byte[20]);

    private String name;
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
        return header(name, new UnsafeBuffer(value), 0, value.length);
    }

    HttpKafkaResponse header(String name, DirectBuffer value, int offset, int length)
    {
        this.name = name;
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
        header.name(name).value(value, valueOffset, valueLength);
    }
}
