/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import org.agrona.DirectBuffer;

/** How {@link HpackEncoder} represents a field that is not already in a table: one of the three literals. */
@FunctionalInterface
public interface HpackIndexing
{
    /** Literal with incremental indexing: the field joins the dynamic table (RFC 7541 section 6.2.1). */
    int INDEX = 0;
    /** Literal without indexing (section 6.2.2). */
    int NO_INDEX = 1;
    /** Literal never indexed: no intermediary may index it either (section 6.2.3). */
    int NEVER_INDEX = 2;

    /** Every field into the dynamic table (as RFC 7541 Appendix C's encoder does). */
    HpackIndexing ALL = (staticNameIndex, name, nameOffset, nameLength, valueLength) -> INDEX;

    /**
     * The default: credentials are never indexed (authorization, proxy-authorization, and cookies under 20
     * bytes, which a table could reveal by probing, RFC 7541 section 7.1.3); fields whose values rarely repeat
     * are not indexed (:path, content-length, date, etag, last-modified, age, expires, if-modified-since,
     * if-none-match, content-range) so they do not evict those that do repeat (content-type, server,
     * cache-control, :authority, user-agent, accept...), which are indexed.
     */
    HpackIndexing DEFAULT = (staticNameIndex, name, nameOffset, nameLength, valueLength) ->
    {
        switch (staticNameIndex)
        {
            case 23: // authorization
            case 49: // proxy-authorization
                return NEVER_INDEX;
            case 32: // cookie
                return valueLength < 20 ? NEVER_INDEX : INDEX;
            case 4: // :path
            case 21: // age
            case 28: // content-length
            case 30: // content-range
            case 33: // date
            case 34: // etag
            case 36: // expires
            case 40: // if-modified-since
            case 41: // if-none-match
            case 44: // last-modified
                return NO_INDEX;
            default:
                return INDEX;
        }
    };

    /**
     * @param staticNameIndex the first static table index with this name, 0 if none
     * @return {@link #INDEX}, {@link #NO_INDEX} or {@link #NEVER_INDEX}
     */
    int decide(
        int staticNameIndex,
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        int valueLength);
}
