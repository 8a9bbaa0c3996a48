/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static java.nio.ByteOrder.BIG_ENDIAN;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.message.ApiVersionsResponseData.FinalizedFeatureKey;

/**
 * ApiVersions responses as the proxy answers them: the broker's response intersected with what the proxy
 * supports, and the KIP-511 answer to a version the proxy does not know.
 */
public final class ApiVersionsResponses
{
    /** Returned for a malformed body, an unsupported version, or a destination too small. */
    public static final int FAILED = ControlMessageCodec.FAILED;

    /** Kafka's error code UNSUPPORTED_VERSION. */
    public static final short UNSUPPORTED_VERSION = 35;

    /** The feature whose level 2 (KIP-890 part 2) has the producer add partitions to a transaction by Produce v12+. */
    public static final String TRANSACTION_VERSION = "transaction.version";

    private static final short VERSION_0 = 0;

    // the first Produce version that adds a partition to its transaction (transaction.version 2)
    private static final short PRODUCE_TRANSACTION_V2 = 12;
    private static final short TRANSACTION_V1 = 1;

    private ApiVersionsResponses()
    {
    }

    /**
     * Writes the broker's ApiVersions response body {@code [offset, offset + length)} into {@code destination}
     * with each api key's versions intersected with the proxy's: keys either side lacks, or whose ranges do not
     * overlap, are left out. Everything else (error code, throttle time, features) is kept, except that a finalized
     * {@code transaction.version} above 1 becomes 1 when the intersected Produce stops below v12: a client at
     * transaction.version 2 no longer sends AddPartitionsToTxn and counts on Produce v12+ to add each partition, so
     * over Produce v11 or older the broker would refuse its transactional records. A broker that did
     * not know the version answers in v0 with UNSUPPORTED_VERSION (KIP-511), so such a body is read as v0, as
     * kafka-clients does, and written back as v0.
     *
     * @return the intersected body's length, or {@link #FAILED}
     */
    public static int intersect(
        DirectBuffer source,
        int offset,
        int length,
        short version,
        ApiVersionRanges proxy,
        MutableDirectBuffer destination,
        int destinationOffset,
        int destinationMaxLimit)
    {
        int written = FAILED;
        final ApiVersionsResponseData prototype = new ApiVersionsResponseData();
        if (version >= prototype.lowestSupportedVersion() && version <= prototype.highestSupportedVersion()
            && offset >= 0 && length >= 0 && (long) offset + length <= source.capacity())
        {
            short readVersion = version;
            ApiVersionsResponseData response = read(source, offset, length, version);
            if ((response == null || response.errorCode() == UNSUPPORTED_VERSION) && version != VERSION_0)
            {
                final ApiVersionsResponseData v0 = read(source, offset, length, VERSION_0);
                if (v0 != null && v0.errorCode() == UNSUPPORTED_VERSION)
                {
                    response = v0;
                    readVersion = VERSION_0;
                }
            }
            if (response != null)
            {
                response.setApiKeys(intersect(response.apiKeys(), proxy));
                capTransactionVersion(response);
                written = ControlMessageCodec.write(response, readVersion, destination, destinationOffset, destinationMaxLimit);
            }
        }
        return written;
    }

    /**
     * Writes the KIP-511 answer to an ApiVersions request of a version newer than the proxy knows: response header
     * v0 (the correlation id) then an ApiVersions v0 body with error UNSUPPORTED_VERSION and the proxy's versions,
     * from which the client picks a version both sides know and asks again.
     *
     * @return the length of header and body (without the frame's size), or {@link #FAILED} when it does not fit
     */
    public static int unsupportedVersion(
        int correlationId,
        ApiVersionRanges proxy,
        MutableDirectBuffer destination,
        int destinationOffset,
        int destinationMaxLimit)
    {
        int written = FAILED;
        if (destinationMaxLimit - destinationOffset >= Integer.BYTES)
        {
            destination.putInt(destinationOffset, correlationId, BIG_ENDIAN);
            final ApiVersionsResponseData response = new ApiVersionsResponseData()
                .setErrorCode(UNSUPPORTED_VERSION)
                .setApiKeys(proxy.toApiVersions());
            final int body = ControlMessageCodec.write(response, VERSION_0, destination,
                destinationOffset + Integer.BYTES, destinationMaxLimit);
            written = body == FAILED ? FAILED : Integer.BYTES + body;
        }
        return written;
    }

    private static ApiVersionsResponseData read(
        DirectBuffer source,
        int offset,
        int length,
        short version)
    {
        ApiVersionsResponseData response;
        try
        {
            response = new ApiVersionsResponseData(ControlMessageCodec.reader(source, offset, length), version);
        }
        catch (RuntimeException ex)
        {
            // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
            response = null;
        }
        return response;
    }

    private static void capTransactionVersion(
        ApiVersionsResponseData response)
    {
        final ApiVersion produce = response.apiKeys().find(KafkaApis.PRODUCE);
        final FinalizedFeatureKey transaction = response.finalizedFeatures().find(TRANSACTION_VERSION);
        if (transaction != null && transaction.maxVersionLevel() > TRANSACTION_V1
            && (produce == null || produce.maxVersion() < PRODUCE_TRANSACTION_V2))
        {
            transaction.setMaxVersionLevel(TRANSACTION_V1);
            transaction.setMinVersionLevel((short) Math.min(transaction.minVersionLevel(), TRANSACTION_V1));
        }
    }

    private static ApiVersionCollection intersect(
        ApiVersionCollection broker,
        ApiVersionRanges proxy)
    {
        final ApiVersionCollection intersected = new ApiVersionCollection();
        for (ApiVersion apiVersion : broker)
        {
            final short apiKey = apiVersion.apiKey();
            if (proxy.supports(apiKey))
            {
                final short min = (short) Math.max(apiVersion.minVersion(), proxy.minVersion(apiKey));
                final short max = (short) Math.min(apiVersion.maxVersion(), proxy.maxVersion(apiKey));
                if (min <= max)
                {
                    intersected.add(new ApiVersion().setApiKey(apiKey).setMinVersion(min).setMaxVersion(max));
                }
            }
        }
        return intersected;
    }
}
