/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Decodes HPACK header blocks (RFC 7541) of one connection direction, in order, into a {@link HpackHeaderSink}.
 *
 * <p>One decoder per HTTP/2 connection (it owns the peer encoder's dynamic table). A block is decoded whole: the
 * connection gathers a HEADERS frame's fragment and its CONTINUATIONs into one range first. Nothing is allocated
 * per block or per field: Huffman strings decode into a scratch buffer sized at construction, literal strings
 * are passed as ranges of the block itself.
 *
 * <p>{@link #decode} returns {@link #DECODED}, {@link #COMPRESSION_ERROR} (the connection must end with GOAWAY
 * COMPRESSION_ERROR; {@link #error()} says why) or {@link #HEADER_LIST_TOO_LARGE}: the block is valid and the
 * dynamic table updated, but the decoded list (RFC 9113 section 6.5.2: name + value + 32 per field) is over the
 * maximum: the sink stopped receiving fields at the first one over it, and the server answers 431 or resets that
 * stream while the connection goes on.
 */
public final class HpackDecoder
{
    public static final int DECODED = 0;
    public static final int COMPRESSION_ERROR = 1;
    public static final int HEADER_LIST_TOO_LARGE = 2;

    private static final int FIELD_OVERHEAD = HpackDynamicTable.ENTRY_OVERHEAD;

    private final HpackDynamicTable table;
    private final UnsafeBuffer scratch;
    private final int maxHeaderListSize;

    private int settingsTableSize;
    private boolean sizeUpdateRequired;
    private HpackError error = HpackError.NONE;
    private long headerListSize;

    // results of decodeInteger and decodeString, to return two values without allocating
    private int integer;
    private DirectBuffer string;
    private int stringOffset;
    private int stringLength;

    /**
     * @param tableSizeLimit    the SETTINGS_HEADER_TABLE_SIZE this endpoint announces (4096 by default): the most
     *                          the peer's size updates may ask for
     * @param maxHeaderListSize the largest decoded header list accepted (what SETTINGS_MAX_HEADER_LIST_SIZE
     *                          announces, if it is announced)
     */
    public HpackDecoder(
        int tableSizeLimit,
        int maxHeaderListSize)
    {
        this.table = new HpackDynamicTable(tableSizeLimit, false);
        this.settingsTableSize = tableSizeLimit;
        this.maxHeaderListSize = maxHeaderListSize;
        // a Huffman name and value of one field decode here; a field larger than this is over both limits
        this.scratch = new UnsafeBuffer(new byte[Math.max(maxHeaderListSize, tableSizeLimit)]);
    }

    public HpackDynamicTable table()
    {
        return table;
    }

    /** Why the last {@link #decode} returned {@link #COMPRESSION_ERROR}. */
    public HpackError error()
    {
        return error;
    }

    /**
     * The decoded size of the last block's header list, counted to its end even when over the maximum (then at
     * least that: a Huffman string too large for the scratch buffer counts as one byte larger than it).
     */
    public long headerListSize()
    {
        return headerListSize;
    }

    /**
     * Applies a new SETTINGS_HEADER_TABLE_SIZE of this endpoint once the peer acknowledged it (at most the
     * constructor's limit). Lowered below the table's current maximum, the peer's next block must begin with a
     * size update to at most this value (RFC 7541 section 4.2).
     */
    public void settingsTableSize(
        int value)
    {
        if (value < 0 || value > table.limit())
        {
            throw new IllegalArgumentException("SETTINGS_HEADER_TABLE_SIZE " + value + " over " + table.limit());
        }
        settingsTableSize = value;
        sizeUpdateRequired |= value < table.maxSize();
    }

    /** Decodes one header block of {@code length} bytes at {@code offset}. */
    public int decode(
        DirectBuffer buffer,
        int offset,
        int length,
        HpackHeaderSink sink)
    {
        final int limit = offset + length;
        int cursor = offset;
        boolean atStart = true;
        error = HpackError.NONE;
        headerListSize = 0;

        while (cursor < limit && error == HpackError.NONE)
        {
            final int first = buffer.getByte(cursor) & 0xff;
            if ((first & 0xe0) == 0x20)
            {
                cursor = decodeSizeUpdate(buffer, cursor, limit, atStart);
                continue;
            }
            if (atStart && sizeUpdateRequired)
            {
                error = HpackError.TABLE_SIZE_UPDATE_MISSING;
                break;
            }
            atStart = false;
            if ((first & 0x80) != 0)
            {
                cursor = decodeIndexed(buffer, cursor, limit, sink);
            }
            else if ((first & 0xc0) == 0x40)
            {
                cursor = decodeLiteral(buffer, cursor, limit, 6, true, false, sink);
            }
            else
            {
                cursor = decodeLiteral(buffer, cursor, limit, 4, false, (first & 0x10) != 0, sink);
            }
        }

        if (error == HpackError.NONE && atStart && sizeUpdateRequired)
        {
            error = HpackError.TABLE_SIZE_UPDATE_MISSING;
        }
        return error != HpackError.NONE ? COMPRESSION_ERROR
            : headerListSize > maxHeaderListSize ? HEADER_LIST_TOO_LARGE
            : DECODED;
    }

    private int decodeSizeUpdate(
        DirectBuffer buffer,
        int cursor,
        int limit,
        boolean atStart)
    {
        final int next = decodeInteger(buffer, cursor, limit, 5);
        if (next >= 0)
        {
            if (!atStart)
            {
                error = HpackError.TABLE_SIZE_NOT_AT_START;
            }
            else if (integer > settingsTableSize)
            {
                error = HpackError.TABLE_SIZE_OVER_LIMIT;
            }
            else
            {
                table.maxSize(integer);
                sizeUpdateRequired = false;
            }
        }
        return next;
    }

    private int decodeIndexed(
        DirectBuffer buffer,
        int cursor,
        int limit,
        HpackHeaderSink sink)
    {
        final int next = decodeInteger(buffer, cursor, limit, 7);
        if (next >= 0 && checkIndex(integer))
        {
            final int index = integer;
            if (index <= HpackStaticTable.LENGTH)
            {
                final DirectBuffer names = HpackStaticTable.BUFFER;
                emit(sink, names, HpackStaticTable.nameOffset(index), HpackStaticTable.nameLength(index),
                    names, HpackStaticTable.valueOffset(index), HpackStaticTable.valueLength(index), false);
            }
            else
            {
                final int entry = index - HpackStaticTable.LENGTH;
                final DirectBuffer entries = table.buffer();
                emit(sink, entries, table.nameOffset(entry), table.nameLength(entry),
                    entries, table.valueOffset(entry), table.valueLength(entry), false);
            }
        }
        return next;
    }

    private int decodeLiteral(
        DirectBuffer buffer,
        int cursor,
        int limit,
        int prefix,
        boolean indexing,
        boolean neverIndexed,
        HpackHeaderSink sink)
    {
        int next = decodeInteger(buffer, cursor, limit, prefix);
        if (next < 0)
        {
            return next;
        }

        final DirectBuffer name;
        final int nameOffset;
        final int nameLength;
        int scratchAt = 0;
        final int nameIndex = integer;
        if (nameIndex == 0)
        {
            next = decodeString(buffer, next, limit, 0);
            if (next < 0)
            {
                return next;
            }
            name = string;
            nameOffset = stringOffset;
            nameLength = stringLength;
            if (name == scratch && nameLength >= 0)
            {
                scratchAt = nameLength;
            }
        }
        else if (!checkIndex(nameIndex))
        {
            return -1;
        }
        else if (nameIndex <= HpackStaticTable.LENGTH)
        {
            name = HpackStaticTable.BUFFER;
            nameOffset = HpackStaticTable.nameOffset(nameIndex);
            nameLength = HpackStaticTable.nameLength(nameIndex);
        }
        else
        {
            name = table.buffer();
            nameOffset = table.nameOffset(nameIndex - HpackStaticTable.LENGTH);
            nameLength = table.nameLength(nameIndex - HpackStaticTable.LENGTH);
        }

        next = decodeString(buffer, next, limit, scratchAt);
        if (next < 0)
        {
            return next;
        }

        if (nameLength < 0 || stringLength < 0)
        {
            // a Huffman string larger than the scratch buffer: the field is over the list's maximum and over the
            // table's limit, so indexing it empties the table (RFC 7541 section 4.4)
            headerListSize += scratch.capacity() + 1L + FIELD_OVERHEAD;
            if (indexing)
            {
                table.clear();
            }
        }
        else if (indexing)
        {
            table.add(name, nameOffset, nameLength, string, stringOffset, stringLength);
            if (table.length() > 0 && (long) nameLength + stringLength + FIELD_OVERHEAD <= table.maxSize())
            {
                final DirectBuffer entries = table.buffer();
                emit(sink, entries, table.nameOffset(1), nameLength, entries, table.valueOffset(1), stringLength, false);
            }
            else
            {
                emit(sink, name, nameOffset, nameLength, string, stringOffset, stringLength, false);
            }
        }
        else
        {
            emit(sink, name, nameOffset, nameLength, string, stringOffset, stringLength, neverIndexed);
        }
        return next;
    }

    private void emit(
        HpackHeaderSink sink,
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        DirectBuffer value,
        int valueOffset,
        int valueLength,
        boolean neverIndexed)
    {
        // once over the maximum the list stays over it: the sink gets no field after the first one over
        headerListSize += nameLength + valueLength + FIELD_OVERHEAD;
        if (headerListSize <= maxHeaderListSize)
        {
            sink.onHeader(name, nameOffset, nameLength, value, valueOffset, valueLength, neverIndexed);
        }
    }

    private boolean checkIndex(
        int index)
    {
        if (index == 0)
        {
            error = HpackError.INDEX_ZERO;
        }
        else if (index > HpackStaticTable.LENGTH + table.length())
        {
            error = HpackError.INDEX_OUT_OF_RANGE;
        }
        return error == HpackError.NONE;
    }

    // RFC 7541 section 5.1; the value goes to `integer`, returns the next cursor or -1
    private int decodeInteger(
        DirectBuffer buffer,
        int cursor,
        int limit,
        int prefix)
    {
        final int mask = (1 << prefix) - 1;
        int value = buffer.getByte(cursor++) & mask;
        if (value == mask)
        {
            long accumulated = value;
            int shift = 0;
            int octet;
            do
            {
                if (cursor >= limit)
                {
                    error = HpackError.TRUNCATED;
                    return -1;
                }
                octet = buffer.getByte(cursor++) & 0xff;
                accumulated += (long) (octet & 0x7f) << shift;
                shift += 7;
                if (accumulated > Integer.MAX_VALUE || shift > 28 && (octet & 0x80) != 0)
                {
                    error = HpackError.INTEGER_OVERFLOW;
                    return -1;
                }
            }
            while ((octet & 0x80) != 0);
            value = (int) accumulated;
        }
        integer = value;
        return cursor;
    }

    // RFC 7541 section 5.2; the range goes to string/stringOffset/stringLength (-1 when a Huffman string does
    // not fit the scratch buffer from scratchAt), returns the next cursor or -1
    private int decodeString(
        DirectBuffer buffer,
        int cursor,
        int limit,
        int scratchAt)
    {
        if (cursor >= limit)
        {
            error = HpackError.TRUNCATED;
            return -1;
        }
        final boolean huffman = (buffer.getByte(cursor) & 0x80) != 0;
        final int next = decodeInteger(buffer, cursor, limit, 7);
        if (next < 0)
        {
            return -1;
        }
        final int length = integer;
        if (length > limit - next)
        {
            error = HpackError.TRUNCATED;
            return -1;
        }
        if (huffman)
        {
            final int decoded = HpackHuffman.decode(buffer, next, length, scratch, scratchAt, scratch.capacity());
            if (decoded == HpackHuffman.INVALID)
            {
                error = HpackError.HUFFMAN;
                return -1;
            }
            string = scratch;
            stringOffset = scratchAt;
            stringLength = decoded == HpackHuffman.OVERFLOW ? -1 : decoded - scratchAt;
        }
        else
        {
            string = buffer;
            stringOffset = next;
            stringLength = length;
        }
        return next + length;
    }
}
