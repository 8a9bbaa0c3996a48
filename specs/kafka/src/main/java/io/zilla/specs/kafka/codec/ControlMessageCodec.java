/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

/**
 * Reads and writes control-plane message bodies with kafka-clients' generated message classes, for the proxy's
 * rewriters and the kafka client's requests and responses. They are rare, so copying them onto the heap is acceptable
 * (ARCHITECTURE.md section 6), and kafka-clients' own serialization keeps every field, including unknown tagged
 * fields, exactly as the broker wrote them.
 */
public final class ControlMessageCodec
{
    /** Returned when a body cannot be read or the result does not fit. */
    public static final int FAILED = -1;

    private ControlMessageCodec()
    {
    }

    /** A heap copy of the body, for kafka-clients' readers. */
    public static ByteBufferAccessor reader(
        DirectBuffer buffer,
        int offset,
        int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return new ByteBufferAccessor(ByteBuffer.wrap(bytes));
    }

    /**
     * Writes {@code message} at {@code version} into {@code buffer} from {@code offset} to at most {@code maxLimit}.
     *
     * @return the number of bytes written, or {@link #FAILED} when they do not fit or cannot be written
     */
    public static int write(
        ApiMessage message,
        short version,
        MutableDirectBuffer buffer,
        int offset,
        int maxLimit)
    {
        int written = FAILED;
        try
        {
            final ObjectSerializationCache cache = new ObjectSerializationCache();
            final int size = message.size(cache, version);
            if (size <= maxLimit - offset)
            {
                final ByteBuffer out = ByteBuffer.allocate(size);
                message.write(new ByteBufferAccessor(out), cache, version);
                buffer.putBytes(offset, out.array(), 0, size);
                written = size;
            }
        }
        catch (RuntimeException ex)
        {
            // a field this version cannot carry (UnsupportedVersionException), or a body that reads but cannot be
            // written back (tagged fields out of order): either way nothing usable to send
            written = FAILED;
        }
        return written;
    }
}
