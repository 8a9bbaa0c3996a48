/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import io.zilla.specs.kafka.codec.ControlMessageCodec;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.apache.kafka.common.protocol.ApiMessage;
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
        return ControlMessageCodec.reader(buffer, offset, limit - offset);
    }

    /**
     * Writes {@code message} at {@code version} from {@code offset}.
     *
     * @return the limit, or {@link KafkaClientRequest#ENCODE_FAILED} when it does not fit or cannot be written
     */
    static int write(ApiMessage message, short version, MutableDirectBuffer buffer, int offset, int maxLimit)
    {
        final int written = ControlMessageCodec.write(message, version, buffer, offset, maxLimit);
        return written == ControlMessageCodec.FAILED ? KafkaClientRequest.ENCODE_FAILED : offset + written;
    }
}
