/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

import io.zilla.specs.kafka.codec.ApiVersionRanges;
import io.zilla.specs.kafka.codec.ApiVersionsResponses;
import io.zilla.specs.kafka.codec.BrokerAddressMapper;
import io.zilla.specs.kafka.codec.DescribeClusterResponseRewriter;
import io.zilla.specs.kafka.codec.FindCoordinatorResponseRewriter;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.codec.MetadataResponseRewriter;
import io.zilla.specs.kafka.codec.ResponseHeaderDecoder;
import io.zilla.specs.kafka.codec.ResponseRewriter;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Rewrites the few responses that name brokers or versions: Metadata, FindCoordinator and DescribeCluster get the
 * proxy's addresses, ApiVersions is intersected with what the proxy passes on. These are control-plane responses,
 * so the rewritten frame is built on the heap, in one scratch buffer per worker that grows to the largest seen.
 */
final class KafkaResponseRewriter
{
    static final int FAILED = ResponseRewriter.FAILED;

    private final ResponseHeaderDecoder header = new ResponseHeaderDecoder();
    private final ResponseRewriter<?> metadata = new MetadataResponseRewriter();
    private final ResponseRewriter<?> findCoordinator = new FindCoordinatorResponseRewriter();
    private final ResponseRewriter<?> describeCluster = new DescribeClusterResponseRewriter();
    private final ApiVersionRanges versions = proxyVersions();
    private final MutableDirectBuffer scratch = new ExpandableArrayBuffer(4096);
    private final BrokerAddressMapper mapper;
    private final int maxResponseSize;

    KafkaResponseRewriter(BrokerAddressMapper mapper, int maxResponseSize)
    {
        this.mapper = mapper;
        this.maxResponseSize = maxResponseSize;
    }

    /** Whether responses to this api key are rewritten, and so must be whole before they go on. */
    static boolean rewrites(int apiKey)
    {
        return apiKey == KafkaApis.METADATA || apiKey == KafkaApis.FIND_COORDINATOR
            || apiKey == KafkaApis.DESCRIBE_CLUSTER || apiKey == KafkaApis.API_VERSIONS;
    }

    /** Where {@link #rewrite} leaves the rewritten frame, from index 0. */
    DirectBuffer buffer()
    {
        return scratch;
    }

    /**
     * Rewrites the whole response frame {@code [offset, limit)} (its length included) of a request with this
     * api key and version into {@link #buffer()}.
     *
     * @return the rewritten frame's length, or {@link #FAILED} for a response the codecs cannot read
     */
    int rewrite(int apiKey, int apiVersion, DirectBuffer source, int offset, int limit)
    {
        int written = FAILED;
        final int bodyOffset = header.wrap(source, offset + Integer.BYTES, limit, apiKey, apiVersion);
        if (bodyOffset != ResponseHeaderDecoder.MALFORMED)
        {
            final int headerSize = bodyOffset - offset;
            final int bodyLength = limit - bodyOffset;
            final short version = (short) apiVersion;
            if (apiKey == KafkaApis.API_VERSIONS && apiVersion > ApiVersionsResponseData.HIGHEST_SUPPORTED_VERSION)
            {
                // KIP-511: a version newer than the proxy knows is answered in v0 with the proxy's own versions
                final int answer = ApiVersionsResponses.unsupportedVersion(header.correlationId(), versions, scratch,
                    Integer.BYTES, maxResponseSize);
                written = answer == FAILED ? FAILED : Integer.BYTES + answer;
            }
            else
            {
                scratch.putBytes(0, source, offset, headerSize);
                final int body = switch (apiKey)
                {
                    case KafkaApis.METADATA -> metadata.rewrite(source, bodyOffset, bodyLength, version, mapper, scratch,
                        headerSize, maxResponseSize);
                    case KafkaApis.FIND_COORDINATOR -> findCoordinator.rewrite(source, bodyOffset, bodyLength, version,
                        mapper, scratch, headerSize, maxResponseSize);
                    case KafkaApis.DESCRIBE_CLUSTER -> describeCluster.rewrite(source, bodyOffset, bodyLength, version,
                        mapper, scratch, headerSize, maxResponseSize);
                    default -> ApiVersionsResponses.intersect(source, bodyOffset, bodyLength, version, versions, scratch,
                        headerSize, maxResponseSize);
                };
                written = body == FAILED ? FAILED : headerSize + body;
            }
            if (written != FAILED)
            {
                scratch.putInt(0, written - Integer.BYTES, BIG_ENDIAN);
            }
        }
        return written;
    }

    // every api key kafka-clients knows, but Produce and Fetch only up to the versions without nodeEndpoints and
    // SaslHandshake from v1, after which SASL tokens stay in Kafka framing (SaslAuthenticate)
    private static ApiVersionRanges proxyVersions()
    {
        final ApiVersionRanges ranges = new ApiVersionRanges();
        for (ApiKeys key : ApiKeys.values())
        {
            int min = key.oldestVersion();
            int max = key.latestVersion(true);
            if (key.id == KafkaApis.PRODUCE)
            {
                max = Math.min(max, KafkaRequestScanner.PRODUCE_MAX_VERSION);
            }
            else if (key.id == KafkaApis.FETCH)
            {
                max = Math.min(max, KafkaRequestScanner.FETCH_MAX_VERSION);
            }
            else if (key.id == KafkaApis.SASL_HANDSHAKE)
            {
                min = Math.max(min, 1);
            }
            if (max >= min)
            {
                ranges.supports(key.id, min, max);
            }
        }
        return ranges;
    }
}
