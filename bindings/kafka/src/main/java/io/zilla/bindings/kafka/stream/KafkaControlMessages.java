/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.Readable;

/**
 * Control-plane bodies (ApiVersions, Metadata, later FindCoordinator, JoinGroup...) through kafka-clients' generated
 * message classes. They are rare, so the heap copies here are acceptable (ARCHITECTURE.md section 6); the hot path
 * (produce and fetch record batches) never comes through here.
 */
final class KafkaControlMessages
{
    private KafkaControlMessages()
    {
    }

    /** A heap copy of a body, for a kafka-clients reader, such as {@code new MetadataResponseData(readable, version)}. */
    static Readable readable(DirectBuffer buffer, int offset, int limit)
    {
        final byte[] bytes = new byte[limit - offset];
        buffer.getBytes(offset, bytes);
        return new ByteBufferAccessor(ByteBuffer.wrap(bytes));
    }

    /**
     * Writes {@code message} at {@code version} from {@code offset}.
     *
     * @return the limit, or {@link KafkaClientRequest#ENCODE_FAILED} when it does not fit or cannot be written
     */
    static int write(ApiMessage message, short version, MutableDirectBuffer buffer, int offset, int maxLimit)
    {
        int limit = KafkaClientRequest.ENCODE_FAILED;
        try
        {
            final ObjectSerializationCache cache = new ObjectSerializationCache();
            final int size = message.size(cache, version);
            if (size <= maxLimit - offset)
            {
                final ByteBuffer out = ByteBuffer.allocate(size);
                message.write(new ByteBufferAccessor(out), cache, version);
                buffer.putBytes(offset, out.array(), 0, size);
                limit = offset + size;
            }
        }
        catch (RuntimeException ex)
        {
            // a field this version cannot carry: kafka-clients says so with an UnsupportedVersionException
            limit = KafkaClientRequest.ENCODE_FAILED;
        }
        return limit;
    }
}
