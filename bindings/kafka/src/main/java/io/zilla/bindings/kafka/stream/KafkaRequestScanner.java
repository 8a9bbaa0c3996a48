/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.codec.RequestHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Follows the requests of one client connection while their bytes pass through unchanged, split across Data
 * frames however the network split them. It copies only the first bytes of each request (its length, header and,
 * for Produce, the {@code acks}) and remembers, by correlation id, the api key and version of every request that
 * will be answered, so that each response can be read in its own version. Produce with {@code acks=0} is never
 * answered, so it is not remembered.
 */
final class KafkaRequestScanner
{
    /** The outcome of {@link #scan}: every request so far may go to the broker. */
    static final int VALID = 0;

    /** A length out of range, a negative api key or version, or a header cut short by its own length. */
    static final int MALFORMED = 1;

    /** A version the proxy refuses to pass on, see {@link #unsupported(int, int)}. */
    static final int UNSUPPORTED = 2;

    /** Returned by {@link #take} for a correlation id without a pending request. */
    static final int NO_REQUEST = -1;

    /** Produce v10 and Fetch v16 may carry nodeEndpoints (KIP-951) naming real brokers: the proxy stops before. */
    static final int PRODUCE_MAX_VERSION = 9;
    static final int FETCH_MAX_VERSION = 15;

    // length, api key, api version, correlation id: the least a request can be
    private static final int MIN_REQUEST_SIZE = 8;

    // enough for the header with a client id of a couple of hundred bytes, then Produce's transactional id and acks
    private static final int PREFIX_CAPACITY = 320;

    private final RequestHeaderDecoder header;
    private final int maxRequestSize;
    private final MutableDirectBuffer prefix = new UnsafeBuffer(new byte[PREFIX_CAPACITY]);
    private final Int2IntHashMap pending = new Int2IntHashMap(NO_REQUEST);

    private int prefixLimit;
    private int prefixWanted;
    private int remaining;

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
                final int copy = Math.min(wanted - prefixLimit, limit - progress);
                prefix.putBytes(prefixLimit, buffer, progress, copy);
                prefixLimit += copy;
                progress += copy;
                if (prefixLimit == Integer.BYTES && wanted == Integer.BYTES)
                {
                    final int size = prefix.getInt(0, BIG_ENDIAN);
                    if (size < MIN_REQUEST_SIZE || size > maxRequestSize)
                    {
                        result = MALFORMED;
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

    /** Whether responses are still owed. */
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
        final int size = prefix.getInt(0, BIG_ENDIAN);
        final int frameLimit = Integer.BYTES + size;
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
            if (body == RequestHeaderDecoder.MALFORMED && whole)
            {
                result = MALFORMED;
            }
            else if (apiKey != KafkaApis.PRODUCE || body < 0 || produceAcks(body, apiVersion) != 0)
            {
                pending.put(correlationId, apiKey << 16 | apiVersion);
            }
        }
        remaining = frameLimit - prefixLimit;
        prefixLimit = 0;
        return result;
    }

    // a Produce body starts with transactional_id (v3+, compact from v9) then acks; -1 when not in the prefix
    private int produceAcks(int offset, int apiVersion)
    {
        int progress = offset;
        if (apiVersion >= 9)
        {
            int length = 0;
            int shift = 0;
            int octet = 0x80;
            while ((octet & 0x80) != 0 && shift <= 28 && progress < prefixLimit)
            {
                octet = prefix.getByte(progress++) & 0xff;
                length |= (octet & 0x7f) << shift;
                shift += 7;
            }
            progress = (octet & 0x80) != 0 ? prefixLimit : progress + Math.max(length - 1, 0);
        }
        else if (apiVersion >= 3)
        {
            progress = progress + Short.BYTES <= prefixLimit
                ? progress + Short.BYTES + Math.max(prefix.getShort(progress, BIG_ENDIAN), 0)
                : prefixLimit;
        }
        return progress + Short.BYTES <= prefixLimit ? prefix.getShort(progress, BIG_ENDIAN) : -1;
    }
}
