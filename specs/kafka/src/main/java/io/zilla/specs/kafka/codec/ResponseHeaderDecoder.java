/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import io.zilla.specs.kafka.types.codec.ResponseHeaderV0FW;
import org.agrona.DirectBuffer;

/**
 * Decodes a response header in place. A response does not say which request it answers until its correlation
 * id is read, and its header version follows from that request's api key and version, which the caller tracked.
 */
public final class ResponseHeaderDecoder
{
    /** Returned by {@link #wrap} for a truncated or malformed header. */
    public static final int MALFORMED = -1;

    private final ResponseHeaderV0FW headerV0RO = new ResponseHeaderV0FW();
    private final TaggedFields taggedFields = new TaggedFields();

    private int correlationId;

    /**
     * Reads only the correlation id at {@code offset}, to find the tracked request.
     *
     * @return the correlation id's limit, or {@link #MALFORMED}
     */
    public int wrapCorrelationId(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        final ResponseHeaderV0FW header = headerV0RO.tryWrap(buffer, offset, limit);
        int progress = MALFORMED;
        if (header != null)
        {
            correlationId = header.correlationId();
            progress = header.limit();
        }
        return progress;
    }

    /**
     * Wraps the response header at {@code offset}, of the request with this api key and version.
     *
     * @return the offset where the response body starts, or {@link #MALFORMED}
     */
    public int wrap(
        DirectBuffer buffer,
        int offset,
        int limit,
        int apiKey,
        int apiVersion)
    {
        int progress = wrapCorrelationId(buffer, offset, limit);
        if (progress != MALFORMED && KafkaApis.isKnown(apiKey) && KafkaApis.responseHeaderVersion(apiKey, apiVersion) == 1)
        {
            progress = taggedFields.skip(buffer, progress, limit);
        }
        return progress;
    }

    public int correlationId()
    {
        return correlationId;
    }
}
