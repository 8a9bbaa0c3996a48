/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

/** Why {@link HpackDecoder} rejected a header block; each of these is a COMPRESSION_ERROR on the connection. */
public enum HpackError
{
    NONE,
    /** An indexed field or a literal's name refers to index 0 (RFC 7541 section 6.1). */
    INDEX_ZERO,
    /** An index past the static and dynamic tables (section 2.3.3). */
    INDEX_OUT_OF_RANGE,
    /** An integer that does not fit 31 bits, or takes more continuation bytes than one that does (section 5.1). */
    INTEGER_OVERFLOW,
    /** The block ends inside an integer or a string. */
    TRUNCATED,
    /** A Huffman string that decodes EOS, or whose padding is longer than 7 bits or not the start of EOS. */
    HUFFMAN,
    /** A dynamic table size update above the SETTINGS_HEADER_TABLE_SIZE the decoder announced (section 6.3). */
    TABLE_SIZE_OVER_LIMIT,
    /** A dynamic table size update after the first field of a block (section 4.2). */
    TABLE_SIZE_NOT_AT_START,
    /** The first block after SETTINGS_HEADER_TABLE_SIZE was lowered has no size update (section 4.2). */
    TABLE_SIZE_UPDATE_MISSING
}
