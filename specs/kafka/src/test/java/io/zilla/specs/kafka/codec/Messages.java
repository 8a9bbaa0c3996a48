/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.nio.ByteBuffer;
import java.util.function.BiFunction;

import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.Readable;

/** Serializes kafka-clients messages, the reference the codecs are tested against. */
final class Messages
{
    private Messages()
    {
    }

    static byte[] bytes(
        Message message,
        short version)
    {
        final ObjectSerializationCache cache = new ObjectSerializationCache();
        final ByteBuffer out = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(out), cache, version);
        return out.array();
    }

    /** A deep copy, unknown tagged fields included (which {@code duplicate()} leaves out). */
    static <T extends Message> T copy(
        T message,
        short version,
        BiFunction<Readable, Short, T> parser)
    {
        return parser.apply(new ByteBufferAccessor(ByteBuffer.wrap(bytes(message, version))), version);
    }

    static ByteBufferAccessor reader(
        UnsafeBuffer buffer,
        int offset,
        int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return new ByteBufferAccessor(ByteBuffer.wrap(bytes));
    }

    /** The bytes at {@code offset} of a buffer that goes on past them with junk, to catch reads past a limit. */
    static UnsafeBuffer withJunkAfter(
        int offset,
        byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[offset + bytes.length + 64]);
        buffer.setMemory(0, buffer.capacity(), (byte) 0xff);
        buffer.putBytes(offset, bytes);
        return buffer;
    }
}
