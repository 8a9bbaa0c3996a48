/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static java.nio.ByteOrder.BIG_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.message.ApiVersionsResponseData.FinalizedFeatureKey;
import org.apache.kafka.common.message.ApiVersionsResponseData.FinalizedFeatureKeyCollection;
import org.apache.kafka.common.message.ApiVersionsResponseData.SupportedFeatureKey;
import org.apache.kafka.common.message.ApiVersionsResponseData.SupportedFeatureKeyCollection;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.Test;

class ApiVersionsResponsesTest
{
    private static final int OFFSET = 9;
    private static final short FIRST_FLEXIBLE = 3;

    private final ApiVersionRanges proxy = new ApiVersionRanges()
        .supports(KafkaApis.PRODUCE, 0, 11)
        .supports(KafkaApis.FETCH, 0, 3)
        .supports(KafkaApis.METADATA, 5, 20)
        .supports(KafkaApis.API_VERSIONS, 0, 3)
        .supports(KafkaApis.SASL_HANDSHAKE, 0, 1);

    private final UnsafeBuffer destination = new UnsafeBuffer(new byte[4096]);

    @Test
    void shouldIntersectEveryVersion()
    {
        final short highest = new ApiVersionsResponseData().highestSupportedVersion();
        for (short version = 0; version <= highest; version++)
        {
            final ApiVersionsResponseData broker = response(version);
            final byte[] bytes = Messages.bytes(broker, version);
            final UnsafeBuffer buffer = Messages.withJunkAfter(OFFSET, bytes);

            final ApiVersionsResponseData expected = Messages.copy(broker, version, ApiVersionsResponseData::new);
            final ApiVersionCollection apiKeys = new ApiVersionCollection();
            apiKeys.add(apiVersion(KafkaApis.PRODUCE, 3, 11));     // Fetch 4-18 and 0-3 do not overlap: left out
            apiKeys.add(apiVersion(KafkaApis.METADATA, 5, 13));
            apiKeys.add(apiVersion(KafkaApis.API_VERSIONS, 0, 3)); // DescribeCluster: the proxy does not know it
            expected.setApiKeys(apiKeys);

            final int written = ApiVersionsResponses.intersect(buffer, OFFSET, bytes.length, version, proxy,
                destination, 0, destination.capacity());
            final String what = "ApiVersions v" + version;
            assertEquals(Messages.bytes(expected, version).length, written, what);
            assertEquals(expected, new ApiVersionsResponseData(Messages.reader(destination, 0, written), version), what);

            for (int length = 0; length < bytes.length; length++)
            {
                assertEquals(ApiVersionsResponses.FAILED, ApiVersionsResponses.intersect(buffer, OFFSET, length, version, proxy,
                    destination, 0, destination.capacity()), what + " truncated to " + length);
            }
            assertEquals(ApiVersionsResponses.FAILED, ApiVersionsResponses.intersect(buffer, OFFSET, bytes.length, version,
                proxy, destination, 0, written - 1), what);

            for (int index = 0; index < bytes.length; index++)
            {
                for (int corrupt : new int[] {0x00, 0x7f, 0x80, 0xff})
                {
                    final UnsafeBuffer corrupted = Messages.withJunkAfter(OFFSET, bytes);
                    corrupted.putByte(OFFSET + index, (byte) corrupt);
                    final int result = ApiVersionsResponses.intersect(corrupted, OFFSET, bytes.length, version, proxy,
                        destination, 0, destination.capacity());
                    assertTrue(result == ApiVersionsResponses.FAILED || result > 0, what + " corrupted at " + index);
                }
            }
        }
    }

    @Test
    void shouldReadABrokersUnsupportedVersionAnswerAsV0()
    {
        final ApiVersionsResponseData broker = new ApiVersionsResponseData()
            .setErrorCode(ApiVersionsResponses.UNSUPPORTED_VERSION);
        broker.apiKeys().add(apiVersion(KafkaApis.API_VERSIONS, 0, 2));
        broker.apiKeys().add(apiVersion(KafkaApis.METADATA, 0, 9));
        final byte[] bytes = Messages.bytes(broker, (short) 0);
        final UnsafeBuffer buffer = Messages.withJunkAfter(OFFSET, bytes);

        // the client asked for v3, the broker knew only up to v2 and answered in v0
        final int written = ApiVersionsResponses.intersect(buffer, OFFSET, bytes.length, (short) 3, proxy,
            destination, 0, destination.capacity());
        final ApiVersionsResponseData intersected =
            new ApiVersionsResponseData(Messages.reader(destination, 0, written), (short) 0);
        assertEquals(ApiVersionsResponses.UNSUPPORTED_VERSION, intersected.errorCode());
        assertEquals(2, intersected.apiKeys().size());
        assertEquals(apiVersion(KafkaApis.API_VERSIONS, 0, 2), intersected.apiKeys().find(KafkaApis.API_VERSIONS));
        assertEquals(apiVersion(KafkaApis.METADATA, 5, 9), intersected.apiKeys().find(KafkaApis.METADATA));
    }

    @Test
    void shouldAnswerAnUnknownVersionWithTheProxysVersions()
    {
        final int written = ApiVersionsResponses.unsupportedVersion(77, proxy, destination, 3, destination.capacity());
        assertEquals(77, destination.getInt(3, BIG_ENDIAN));
        final ApiVersionsResponseData response =
            new ApiVersionsResponseData(Messages.reader(destination, 3 + 4, written - 4), (short) 0);
        assertEquals(ApiVersionsResponses.UNSUPPORTED_VERSION, response.errorCode());
        assertEquals(5, response.apiKeys().size());
        assertEquals(apiVersion(KafkaApis.PRODUCE, 0, 11), response.apiKeys().find(KafkaApis.PRODUCE));
        assertEquals(apiVersion(KafkaApis.FETCH, 0, 3), response.apiKeys().find(KafkaApis.FETCH));
        assertEquals(apiVersion(KafkaApis.METADATA, 5, 20), response.apiKeys().find(KafkaApis.METADATA));
        assertEquals(apiVersion(KafkaApis.API_VERSIONS, 0, 3), response.apiKeys().find(KafkaApis.API_VERSIONS));
        assertEquals(apiVersion(KafkaApis.SASL_HANDSHAKE, 0, 1), response.apiKeys().find(KafkaApis.SASL_HANDSHAKE));

        assertEquals(ApiVersionsResponses.FAILED,
            ApiVersionsResponses.unsupportedVersion(77, proxy, destination, 0, written - 1));
        assertEquals(ApiVersionsResponses.FAILED, ApiVersionsResponses.unsupportedVersion(77, proxy, destination, 0, 3));
    }

    @Test
    void shouldCapTransactionVersionWhenProduceStopsBeforeV12()
    {
        final short version = 3;
        final ApiVersionsResponseData broker = response(version);
        final FinalizedFeatureKeyCollection finalized = new FinalizedFeatureKeyCollection();
        finalized.add(new FinalizedFeatureKey().setName("metadata.version").setMinVersionLevel((short) 27)
            .setMaxVersionLevel((short) 27));
        finalized.add(new FinalizedFeatureKey().setName(ApiVersionsResponses.TRANSACTION_VERSION)
            .setMinVersionLevel((short) 2).setMaxVersionLevel((short) 2));
        broker.setFinalizedFeatures(finalized);

        final ApiVersionsResponseData capped = intersect(broker, version, proxy);
        assertEquals(11, capped.apiKeys().find(KafkaApis.PRODUCE).maxVersion());
        final FinalizedFeatureKey transaction = capped.finalizedFeatures().find(ApiVersionsResponses.TRANSACTION_VERSION);
        assertEquals(1, transaction.minVersionLevel());
        assertEquals(1, transaction.maxVersionLevel());
        assertEquals(27, capped.finalizedFeatures().find("metadata.version").maxVersionLevel());
        assertEquals(broker.supportedFeatures(), capped.supportedFeatures());

        final ApiVersionRanges produceV12 = new ApiVersionRanges().supports(KafkaApis.PRODUCE, 0, 12);
        final ApiVersionsResponseData kept = intersect(broker, version, produceV12);
        assertEquals(broker.finalizedFeatures(), kept.finalizedFeatures());
    }

    @Test
    void shouldRejectAnInvalidRange()
    {
        assertThrows(IllegalArgumentException.class, () -> new ApiVersionRanges().supports(0, 3, 2));
        assertThrows(IllegalArgumentException.class, () -> new ApiVersionRanges().supports(-1, 0, 2));
    }

    private static ApiVersionsResponseData response(
        short version)
    {
        final ApiVersionsResponseData response = new ApiVersionsResponseData().setErrorCode((short) 0);
        response.apiKeys().add(apiVersion(KafkaApis.PRODUCE, 3, 13));
        response.apiKeys().add(apiVersion(KafkaApis.FETCH, 4, 18));
        response.apiKeys().add(apiVersion(KafkaApis.METADATA, 0, 13));
        response.apiKeys().add(apiVersion(KafkaApis.API_VERSIONS, 0, 4));
        response.apiKeys().add(apiVersion(KafkaApis.DESCRIBE_CLUSTER, 0, 2));
        if (version >= 1)
        {
            response.setThrottleTimeMs(5);
        }
        if (version >= FIRST_FLEXIBLE)
        {
            final SupportedFeatureKeyCollection features = new SupportedFeatureKeyCollection();
            features.add(new SupportedFeatureKey().setName("metadata.version").setMinVersion((short) 1)
                .setMaxVersion((short) 27));
            response.setSupportedFeatures(features);
            response.setFinalizedFeaturesEpoch(12L);
            response.unknownTaggedFields().add(new RawTaggedField(50, new byte[] {5, 0}));
        }
        return response;
    }

    private ApiVersionsResponseData intersect(
        ApiVersionsResponseData broker,
        short version,
        ApiVersionRanges ranges)
    {
        final byte[] bytes = Messages.bytes(broker, version);
        final int written = ApiVersionsResponses.intersect(Messages.withJunkAfter(OFFSET, bytes), OFFSET, bytes.length, version,
            ranges, destination, 0, destination.capacity());
        assertTrue(written > 0);
        return new ApiVersionsResponseData(Messages.reader(destination, 0, written), version);
    }

    private static ApiVersion apiVersion(
        short apiKey,
        int min,
        int max)
    {
        return new ApiVersion().setApiKey(apiKey).setMinVersion((short) min).setMaxVersion((short) max);
    }
}
