/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.kafka.types.codec.RequestHeaderV0FW;
import io.zilla.specs.kafka.types.codec.RequestHeaderV1FW;
import org.agrona.DirectBuffer;

/**
 * Decodes a request header in place, flyweight style: {@link #wrap} checks it and returns where the body starts,
 * then the accessors read the wrapped bytes. Reusable, allocation-free, not thread-safe.
 * <p>
 * The header's version follows from its api key and version ({@link KafkaApis}), so an unknown api key can be
 * read only as far as its correlation id: enough to answer it, not to find its body.
 */
public final class RequestHeaderDecoder
{
    /** Returned by {@link #wrap} for a truncated or malformed header. */
    public static final int MALFORMED = -1;

    /** Returned by {@link #wrap} for an unknown api key; apiKey, apiVersion and correlationId are valid. */
    public static final int UNKNOWN_API_KEY = -2;

    private final RequestHeaderV0FW headerV0RO = new RequestHeaderV0FW();
    private final RequestHeaderV1FW headerV1RO = new RequestHeaderV1FW();
    private final TaggedFields taggedFields = new TaggedFields();

    private int apiKey;
    private int apiVersion;
    private int correlationId;
    private int headerVersion;
    private String16FW clientId;
    private int limit;

    /**
     * Wraps the request header at {@code offset} (just after the frame's length), reading nothing at or past
     * {@code limit}, normally the frame's end.
     *
     * @return the offset where the request body starts, or {@link #MALFORMED} or {@link #UNKNOWN_API_KEY}
     */
    public int wrap(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        this.limit = MALFORMED;
        this.clientId = null;
        final RequestHeaderV0FW prefix = headerV0RO.tryWrap(buffer, offset, limit);
        if (prefix != null)
        {
            apiKey = prefix.apiKey();
            apiVersion = prefix.apiVersion();
            correlationId = prefix.correlationId();
            if (!KafkaApis.isKnown(apiKey))
            {
                this.limit = UNKNOWN_API_KEY;
            }
            else
            {
                headerVersion = KafkaApis.requestHeaderVersion(apiKey, apiVersion);
                this.limit = headerVersion == 0 ? prefix.limit() : wrapV1(buffer, offset, limit);
            }
        }
        return this.limit;
    }

    private int wrapV1(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        final RequestHeaderV1FW header = headerV1RO.tryWrap(buffer, offset, limit);
        int progress = MALFORMED;
        if (header != null)
        {
            clientId = header.clientId();
            progress = headerVersion == 2 ? taggedFields.skip(buffer, header.limit(), limit) : header.limit();
        }
        return progress;
    }

    public int apiKey()
    {
        return apiKey;
    }

    public int apiVersion()
    {
        return apiVersion;
    }

    public int correlationId()
    {
        return correlationId;
    }

    /** 0, 1 or 2, after a successful wrap. */
    public int headerVersion()
    {
        return headerVersion;
    }

    /** The client id (its {@code length()} is -1 when null), or null for header v0 or a failed wrap. */
    public String16FW clientId()
    {
        return clientId;
    }

    /** What the last {@link #wrap} returned. */
    public int limit()
    {
        return limit;
    }
}
