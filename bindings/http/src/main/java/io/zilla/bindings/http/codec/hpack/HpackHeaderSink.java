/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import org.agrona.DirectBuffer;

/**
 * Receives each header field of a block as {@link HpackDecoder} decodes it, in the block's order. The ranges are
 * valid only during the call (they may be bytes of the block, of the static or dynamic table or of the decoder's
 * scratch buffer): copy them, for example into an {@code HttpBeginEx} builder's headers, before returning.
 */
@FunctionalInterface
public interface HpackHeaderSink
{
    /**
     * @param neverIndexed the peer sent the field as "never indexed" (RFC 7541 section 6.2.3): an intermediary
     *                     forwarding it over HPACK must keep that representation
     */
    void onHeader(
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        DirectBuffer value,
        int valueOffset,
        int valueLength,
        boolean neverIndexed);
}
