/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One request that a stream (or the metadata cache) puts on a {@link KafkaClientConnection}: it writes its body at
 * the version the connection negotiated, and hears back the response's body, or why there is none. The connection
 * writes the size and the request header, and matches the response by correlation id. An implementation can be
 * reused for request after request: nothing here needs a new object per message.
 */
interface KafkaClientRequest
{
    /** Kafka's error code NETWORK_EXCEPTION: the connection failed or the broker closed it. */
    short NETWORK_EXCEPTION = 13;

    /** Kafka's error code CORRUPT_MESSAGE: the broker's response could not be read; the connection is closed. */
    short CORRUPT_MESSAGE = 2;

    /** Kafka's error code UNSUPPORTED_VERSION: the broker and this binding share no version of the api. */
    short UNSUPPORTED_VERSION = 35;

    /** Returned by {@link #encode} when the body does not fit. */
    int ENCODE_FAILED = -1;

    short apiKey();

    /**
     * Writes the request body at {@code version} from {@code offset}.
     *
     * @return the body's limit, or {@link #ENCODE_FAILED}
     */
    int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit);

    /**
     * The response's body, {@code [offset, limit)}, valid during the call only.
     *
     * @return false when the body cannot be read: the connection then treats the response as malformed
     */
    boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId);

    /** No response will come: {@code error} is one of the codes above. */
    void onFailed(short error, long traceId);

    /**
     * Whether the request may be written now: one that gathers more first (a {@link KafkaProduceGroups} group while
     * the one before awaits its answer) stays first in the queue, and those behind it wait too. Asked again after
     * each response.
     */
    default boolean ready()
    {
        return true;
    }

    /** Whether the broker answers this request: a Produce with acks 0 gets no response at all. */
    default boolean awaitsResponse()
    {
        return true;
    }

    /**
     * The bytes of the request after what {@link #encode} wrote, when it is larger than the connection's encode
     * buffer (a Produce of a record larger than a batch region): written from {@link #tail()} at
     * {@link #tailOffset()}, in as many frames as the connection's credit takes. None by default.
     */
    default int tailLength(short version)
    {
        return 0;
    }

    default DirectBuffer tail()
    {
        return null;
    }

    default int tailOffset()
    {
        return 0;
    }

    /** The request was written to the connection; for one that awaits no response, that is all it will hear. */
    default void onWritten(long traceId)
    {
    }
}
