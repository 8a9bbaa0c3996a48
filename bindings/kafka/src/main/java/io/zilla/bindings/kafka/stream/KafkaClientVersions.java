/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import io.zilla.specs.kafka.codec.ApiVersionRanges;
import io.zilla.specs.kafka.codec.KafkaApis;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;

/**
 * The api versions the kafka client binding speaks, per api key; a connection uses, per key, the highest version in
 * the intersection with the broker's ApiVersions. Each capability adds the apis it needs here (produce, fetch...).
 */
final class KafkaClientVersions
{
    /** The ApiVersions version sent first on every connection (flexible, with the client software name, KIP-511). */
    static final short API_VERSIONS_VERSION = (short) Math.min(3, new ApiVersionsRequestData().highestSupportedVersion());

    static final ApiVersionRanges SUPPORTED = supported();

    private KafkaClientVersions()
    {
    }

    private static ApiVersionRanges supported()
    {
        final ApiVersionRanges ranges = new ApiVersionRanges();
        final MetadataRequestData metadata = new MetadataRequestData();
        // Metadata v4 is the first with allow_auto_topic_creation: a META stream must never create a topic
        ranges.supports(KafkaApis.METADATA, Math.max(4, metadata.lowestSupportedVersion()), metadata.highestSupportedVersion());
        ranges.supports(KafkaApis.API_VERSIONS, 0, API_VERSIONS_VERSION);
        // FindCoordinator, the group apis, OffsetFetch and OffsetCommit
        KafkaClientCoordinator.supports(ranges);
        // PRODUCE: v3 is the first with record batch v2, v13 names topics by id (KafkaProduceRequests writes v3 to v12)
        ranges.supports(KafkaApis.PRODUCE, KafkaProduceRequests.MIN_VERSION, KafkaProduceRequests.MAX_VERSION);
        final InitProducerIdRequestData initProducerId = new InitProducerIdRequestData();
        ranges.supports(KafkaApis.INIT_PRODUCER_ID, initProducerId.lowestSupportedVersion(),
            initProducerId.highestSupportedVersion());
        final SaslHandshakeRequestData handshake = new SaslHandshakeRequestData();
        ranges.supports(KafkaApis.SASL_HANDSHAKE, handshake.lowestSupportedVersion(), handshake.highestSupportedVersion());
        final SaslAuthenticateRequestData authenticate = new SaslAuthenticateRequestData();
        ranges.supports(KafkaApis.SASL_AUTHENTICATE, authenticate.lowestSupportedVersion(),
            authenticate.highestSupportedVersion());
        KafkaClientFetchFactory.supports(ranges);
        KafkaClientDescribeFactory.supports(ranges);
        return ranges;
    }
}
