/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;

/**
 * Rewrites the broker addresses of one kind of response body (after the response header): reads it at the
 * version of the request it answers, asks the mapper for each broker's proxy address, and writes it again at
 * the same version. Every other field is written back as read.
 *
 * @param <T> kafka-clients' message class of the response body
 */
public abstract class ResponseRewriter<T extends ApiMessage>
{
    /** Returned by {@link #rewrite} for a malformed body, an unsupported version, or a destination too small. */
    public static final int FAILED = ControlMessageCodec.FAILED;

    private final short lowestVersion;
    private final short highestVersion;

    protected ResponseRewriter(
        T prototype)
    {
        this.lowestVersion = prototype.lowestSupportedVersion();
        this.highestVersion = prototype.highestSupportedVersion();
    }

    /**
     * Rewrites the response body {@code [offset, offset + length)} of {@code source} into {@code destination}.
     *
     * @return the rewritten body's length, or {@link #FAILED}
     */
    public final int rewrite(
        DirectBuffer source,
        int offset,
        int length,
        short version,
        BrokerAddressMapper mapper,
        MutableDirectBuffer destination,
        int destinationOffset,
        int destinationMaxLimit)
    {
        int written = FAILED;
        if (version >= lowestVersion && version <= highestVersion && offset >= 0 && length >= 0
            && (long) offset + length <= source.capacity())
        {
            try
            {
                final T message = read(ControlMessageCodec.reader(source, offset, length), version);
                rewrite(message, version, mapper);
                written = ControlMessageCodec.write(message, version, destination, destinationOffset, destinationMaxLimit);
            }
            catch (RuntimeException ex)
            {
                // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
                written = FAILED;
            }
        }
        return written;
    }

    /** The first version this rewriter reads, as the kafka-clients on the class path knows it. */
    public final short lowestVersion()
    {
        return lowestVersion;
    }

    /** The last version this rewriter reads. */
    public final short highestVersion()
    {
        return highestVersion;
    }

    protected abstract T read(
        ByteBufferAccessor reader,
        short version);

    protected abstract void rewrite(
        T message,
        short version,
        BrokerAddressMapper mapper);
}
