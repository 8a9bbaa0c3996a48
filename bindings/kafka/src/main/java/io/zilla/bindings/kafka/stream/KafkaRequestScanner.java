/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.codec.RequestHeaderDecoder;
import io.zilla.specs.kafka.codec.VarUints;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Follows the requests of one client connection while their bytes pass through unchanged, split across Data
 * frames however the network split them. It copies only the first bytes of each request (its length, header and,
 * for Produce, the transactional id's length, which it checks) and remembers, by correlation id, the api key and
 * version of the requests whose responses the proxy rewrites ({@link KafkaResponseRewriter#rewrites}), so that each
 * such response can be read in its own version. The others (Produce, Fetch...) are not remembered: their responses
 * pass through as they are, and a Produce with {@code acks=0}, never answered, leaves nothing behind. At most
 * {@link #MAX_PENDING} may wait for their responses.
 */
final class KafkaRequestScanner
{
    /** The outcome of {@link #scan}: every request so far may go to the broker. */
    static final int VALID = 0;

    /**
     * A length out of range, a negative api key or version, a header cut short by its own length, or a Produce whose
     * transactional id is longer than Kafka allows or runs past its frame.
     */
    static final int MALFORMED = 1;

    /** A version the proxy refuses to pass on, see {@link #unsupported(int, int)}. */
    static final int UNSUPPORTED = 2;

    /** A length over the largest request allowed: {@link #partialSize()} tells it. */
    static final int OVERSIZED = 3;

    /** More than {@link #MAX_PENDING} requests whose responses the proxy rewrites wait for them. */
    static final int BACKLOGGED = 4;

    /**
     * The most requests whose responses the proxy rewrites (Metadata, FindCoordinator, DescribeCluster, ApiVersions)
     * that may wait for them on one connection: a client has a few in flight (kafka-clients at most
     * max.in.flight.requests.per.connection, 5), one that sends them without reading the answers is cut off here.
     */
    static final int MAX_PENDING = 1024;

    /** Returned by {@link #take} for a correlation id without a pending request. */
    static final int NO_REQUEST = -1;

    /** Produce v10 and Fetch v16 may carry nodeEndpoints (KIP-951) naming real brokers: the proxy stops before. */
    static final int PRODUCE_MAX_VERSION = 9;
    static final int FETCH_MAX_VERSION = 15;

    // length, api key, api version, correlation id: the least a request can be
    private static final int MIN_REQUEST_SIZE = 8;

    // Kafka's strings are at most this long, whatever their length's encoding allows (its generated readers refuse more)
    private static final int MAX_STRING_LENGTH = Short.MAX_VALUE;

    private static final int VARUINT32_MAX_SIZE = 5;

    // what transactionalIdLimit returns when it cannot tell where the id ends (no offset is negative)
    private static final long LIMIT_UNKNOWN = -1L;
    private static final long LIMIT_MALFORMED = -2L;

    // enough for the header with a client id of a couple of hundred bytes, then Produce's transactional id's length
    private static final int PREFIX_CAPACITY = 320;

    private final RequestHeaderDecoder header;
    private final int maxRequestSize;
    private final MutableDirectBuffer prefix = new UnsafeBuffer(new byte[PREFIX_CAPACITY]);
    private final Int2IntHashMap pending = new Int2IntHashMap(NO_REQUEST);

    private int prefixLimit;
    private int prefixWanted;
    private int remaining;
    private int size;
    private long begun;

    KafkaRequestScanner(RequestHeaderDecoder header, int maxRequestSize)
    {
        this.header = header;
        this.maxRequestSize = maxRequestSize;
    }

    /** Reads the request bytes {@code [offset, limit)}, which continue those of the previous call. */
    int scan(DirectBuffer buffer, int offset, int limit)
    {
        int result = VALID;
        int progress = offset;
        while (result == VALID && progress < limit)
        {
            if (remaining > 0)
            {
                final int skip = Math.min(remaining, limit - progress);
                progress += skip;
                remaining -= skip;
            }
            else
            {
                final int wanted = prefixLimit < Integer.BYTES ? Integer.BYTES : prefixWanted;
                if (prefixLimit == 0)
                {
                    begun++;
                    size = 0;
                }
                final int copy = Math.min(wanted - prefixLimit, limit - progress);
                prefix.putBytes(prefixLimit, buffer, progress, copy);
                prefixLimit += copy;
                progress += copy;
                if (prefixLimit == Integer.BYTES && wanted == Integer.BYTES)
                {
                    size = prefix.getInt(0, BIG_ENDIAN);
                    if (size < MIN_REQUEST_SIZE)
                    {
                        result = MALFORMED;
                    }
                    else if (size > maxRequestSize)
                    {
                        result = OVERSIZED;
                    }
                    prefixWanted = (int) Math.min(Integer.BYTES + (long) size, PREFIX_CAPACITY);
                }
                else if (prefixLimit == prefixWanted)
                {
                    result = onRequest();
                }
            }
        }
        return result;
    }

    /** Whether the connection stopped inside a request: closing it there leaves a truncated frame. */
    boolean midRequest()
    {
        return prefixLimit > 0 || remaining > 0;
    }

    /**
     * The size the request in progress declared (without the 4 bytes that give it), once they are all here; 0 before,
     * and between requests. After {@link #OVERSIZED}, the size refused.
     */
    int partialSize()
    {
        return midRequest() ? size : 0;
    }

    /** How many requests have begun so far, the one in progress included: tells one partial request from the next. */
    long requestsBegun()
    {
        return begun;
    }

    /** Whether responses the proxy rewrites are still owed. */
    boolean awaitingResponses()
    {
        return !pending.isEmpty();
    }

    /**
     * Forgets the request answered by the response with {@code correlationId}.
     *
     * @return its api key and version packed as {@code key << 16 | version}, or {@link #NO_REQUEST}
     */
    int take(int correlationId)
    {
        return pending.remove(correlationId);
    }

    static int apiKey(int request)
    {
        return request >>> 16;
    }

    static int apiVersion(int request)
    {
        return request & 0xffff;
    }

    /**
     * Versions the proxy will not pass on: Produce and Fetch newer than the ApiVersions it offers (their responses
     * may name real brokers), and SaslHandshake v0, after which the SASL tokens travel without Kafka framing.
     */
    static boolean unsupported(int apiKey, int apiVersion)
    {
        return apiKey == KafkaApis.PRODUCE && apiVersion > PRODUCE_MAX_VERSION
            || apiKey == KafkaApis.FETCH && apiVersion > FETCH_MAX_VERSION
            || apiKey == KafkaApis.SASL_HANDSHAKE && apiVersion == 0;
    }

    private int onRequest()
    {
        // a long: the size may be up to Integer.MAX_VALUE
        final long frameLimit = Integer.BYTES + (long) prefix.getInt(0, BIG_ENDIAN);
        final boolean whole = frameLimit == prefixLimit;
        final int apiKey = prefix.getShort(Integer.BYTES, BIG_ENDIAN);
        final int apiVersion = prefix.getShort(Integer.BYTES + Short.BYTES, BIG_ENDIAN);
        final int correlationId = prefix.getInt(Integer.BYTES + 2 * Short.BYTES, BIG_ENDIAN);

        int result = VALID;
        if (apiKey < 0 || apiVersion < 0)
        {
            result = MALFORMED;
        }
        else if (unsupported(apiKey, apiVersion))
        {
            result = UNSUPPORTED;
        }
        else
        {
            final int body = header.wrap(prefix, Integer.BYTES, prefixLimit);
            if (body == RequestHeaderDecoder.MALFORMED && whole
                || apiKey == KafkaApis.PRODUCE && body >= 0 && produceMalformed(body, apiVersion, frameLimit, whole))
            {
                result = MALFORMED;
            }
            else if (KafkaResponseRewriter.rewrites(apiKey))
            {
                pending.put(correlationId, apiKey << 16 | apiVersion);
                if (pending.size() > MAX_PENDING)
                {
                    result = BACKLOGGED;
                }
            }
        }
        remaining = (int) (frameLimit - prefixLimit);
        prefixLimit = 0;
        return result;
    }

    // a Produce body starts with transactional_id (v3+, compact from v9) then acks: whether the id's length is out of
    // Kafka's range, or it and the acks run past the frame (as far as the prefix shows them)
    private boolean produceMalformed(int offset, int apiVersion, long frameLimit, boolean whole)
    {
        final long idLimit = apiVersion >= 3 ? transactionalIdLimit(offset, apiVersion, whole) : offset;
        return idLimit == LIMIT_MALFORMED || idLimit + Short.BYTES > frameLimit;
    }

    // where the transactional id at offset ends, LIMIT_UNKNOWN when its length is not in the prefix (a request that is
    // not whole in it), or LIMIT_MALFORMED; a long, since the client's length may point far past any buffer
    private long transactionalIdLimit(int offset, int apiVersion, boolean whole)
    {
        long limit;
        if (apiVersion >= 9)
        {
            final long varint = VarUints.read(prefix, offset, prefixLimit);
            if (varint < 0)
            {
                // over five bytes is malformed, and so is a length cut short by the end of a request that is whole
                // here; cut short by the prefix only, the frame may hold the rest
                limit = whole || prefixLimit - offset >= VARUINT32_MAX_SIZE ? LIMIT_MALFORMED : LIMIT_UNKNOWN;
            }
            else
            {
                // a compact string's varint is its length + 1, and 0 for null
                final long length = Math.max(VarUints.value(varint) - 1, 0);
                limit = length > MAX_STRING_LENGTH ? LIMIT_MALFORMED : offset + VarUints.sizeOf(varint) + length;
            }
        }
        else
        {
            // an int16 length, negative for null as Kafka reads it; cut short by the end of a whole request, malformed
            if (offset + Short.BYTES <= prefixLimit)
            {
                limit = offset + Short.BYTES + Math.max(prefix.getShort(offset, BIG_ENDIAN), 0);
            }
            else
            {
                limit = whole ? LIMIT_MALFORMED : LIMIT_UNKNOWN;
            }
        }
        return limit;
    }
}
