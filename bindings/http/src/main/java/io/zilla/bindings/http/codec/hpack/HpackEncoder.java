/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Encodes header blocks (RFC 7541) of one connection direction into a {@link MutableDirectBuffer}.
 *
 * <p>One encoder per HTTP/2 connection (it owns the dynamic table the peer's decoder mirrors). A block is
 * {@link #beginBlock} (which writes any pending dynamic table size update) then one {@link #encode} or
 * {@link #encodeStatus} per field. A field that is in the static or dynamic table is one index; otherwise it is a
 * literal whose name refers to a table entry when one has it, indexed or not as the {@link HpackIndexing} policy
 * says; each string is Huffman coded unless that is longer. Nothing is allocated per block or per field.
 */
public final class HpackEncoder
{
    /** The most bytes a field's representation adds to its name and value (integers and flags). */
    public static final int FIELD_OVERHEAD = 16;

    private static final int STATUS_NAME_INDEX = 8;

    private final HpackDynamicTable table;
    private final UnsafeBuffer statusDigits = new UnsafeBuffer(new byte[3]);

    private HpackIndexing indexing = HpackIndexing.DEFAULT;
    private boolean huffman = true;
    private boolean sizeUpdatePending;
    private int smallestPendingSize;

    /**
     * @param tableSizeLimit the largest dynamic table this encoder keeps, whatever the peer's
     *                       SETTINGS_HEADER_TABLE_SIZE allows; the table starts at min(4096, limit), the
     *                       protocol's initial size (announced with a size update when smaller)
     */
    public HpackEncoder(
        int tableSizeLimit)
    {
        this.table = new HpackDynamicTable(tableSizeLimit);
        if (tableSizeLimit > 4096)
        {
            table.maxSize(4096);
        }
        else if (tableSizeLimit < 4096)
        {
            sizeUpdatePending = true;
            smallestPendingSize = tableSizeLimit;
        }
    }

    public HpackDynamicTable table()
    {
        return table;
    }

    public HpackEncoder indexing(
        HpackIndexing indexing)
    {
        this.indexing = indexing;
        return this;
    }

    /** Whether strings may be Huffman coded (when shorter): on by default. */
    public HpackEncoder huffman(
        boolean huffman)
    {
        this.huffman = huffman;
        return this;
    }

    /**
     * Applies the peer's SETTINGS_HEADER_TABLE_SIZE: the table's maximum becomes the smaller of it and this
     * encoder's limit, evicting at once; the next block begins with the size update(s) that tell the peer.
     */
    public void settingsTableSize(
        long value)
    {
        final int maxSize = (int) Math.min(value, table.limit());
        if (maxSize != table.maxSize() || sizeUpdatePending)
        {
            smallestPendingSize = sizeUpdatePending ? Math.min(smallestPendingSize, maxSize) : maxSize;
            sizeUpdatePending = true;
            table.maxSize(maxSize);
        }
    }

    /** Starts a block at {@code offset}: writes the pending size updates (at most 12 bytes); returns the limit. */
    public int beginBlock(
        MutableDirectBuffer out,
        int offset)
    {
        int cursor = offset;
        if (sizeUpdatePending)
        {
            // RFC 7541 section 4.2: the smallest size since the last block first, then the current one
            if (smallestPendingSize < table.maxSize())
            {
                cursor = encodeInteger(out, cursor, 0x20, 5, smallestPendingSize);
            }
            cursor = encodeInteger(out, cursor, 0x20, 5, table.maxSize());
            sizeUpdatePending = false;
        }
        return cursor;
    }

    /** Encodes {@code :status}: one byte for the 7 statuses of the static table. Returns the limit or -1. */
    public int encodeStatus(
        MutableDirectBuffer out,
        int offset,
        int limit,
        int status)
    {
        final int index = switch (status)
        {
            case 200 -> 8;
            case 204 -> 9;
            case 206 -> 10;
            case 304 -> 11;
            case 400 -> 12;
            case 404 -> 13;
            case 500 -> 14;
            default -> 0;
        };
        if (index != 0)
        {
            return offset < limit ? encodeInteger(out, offset, 0x80, 7, index) : -1;
        }
        statusDigits.putByte(0, (byte) ('0' + status / 100 % 10));
        statusDigits.putByte(1, (byte) ('0' + status / 10 % 10));
        statusDigits.putByte(2, (byte) ('0' + status % 10));
        final DirectBuffer names = HpackStaticTable.BUFFER;
        return encode(out, offset, limit, names, HpackStaticTable.nameOffset(STATUS_NAME_INDEX),
            HpackStaticTable.nameLength(STATUS_NAME_INDEX), statusDigits, 0, 3, false);
    }

    /**
     * Encodes one field (its name in lower case, as HTTP/2 requires) at {@code offset}.
     *
     * @param neverIndexed a field the application marked sensitive, or that arrived never indexed
     * @return the limit of what was written, or -1 (nothing written, the table untouched) when fewer than
     *         {@code nameLength + valueLength + FIELD_OVERHEAD} bytes are left before {@code limit}
     */
    public int encode(
        MutableDirectBuffer out,
        int offset,
        int limit,
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        DirectBuffer value,
        int valueOffset,
        int valueLength,
        boolean neverIndexed)
    {
        if ((long) limit - offset < (long) nameLength + valueLength + FIELD_OVERHEAD)
        {
            return -1;
        }
        final int hash = HpackBytes.hash(name, nameOffset, nameLength);
        final int staticName = HpackStaticTable.indexOfName(name, nameOffset, nameLength, hash);
        if (staticName != 0 && !neverIndexed)
        {
            final int index = HpackStaticTable.indexOfField(staticName, value, valueOffset, valueLength);
            if (index != 0)
            {
                return encodeInteger(out, offset, 0x80, 7, index);
            }
        }

        final int found = table.find(hash, name, nameOffset, nameLength, value, valueOffset, valueLength, !neverIndexed);
        if (found > 0)
        {
            return encodeInteger(out, offset, 0x80, 7, HpackStaticTable.LENGTH + found);
        }
        final int dynamicName = -found;

        int representation = neverIndexed ? HpackIndexing.NEVER_INDEX
            : indexing.decide(staticName, name, nameOffset, nameLength, valueLength);
        if (representation == HpackIndexing.INDEX
            && (long) nameLength + valueLength + HpackDynamicTable.ENTRY_OVERHEAD > table.maxSize() * 3L / 4)
        {
            // a field that would take most of the table evicts more than its indexing saves
            representation = HpackIndexing.NO_INDEX;
        }

        final int nameIndex = staticName != 0 ? staticName
            : dynamicName != 0 ? HpackStaticTable.LENGTH + dynamicName
            : 0;
        int cursor = switch (representation)
        {
            case HpackIndexing.INDEX -> encodeInteger(out, offset, 0x40, 6, nameIndex);
            case HpackIndexing.NEVER_INDEX -> encodeInteger(out, offset, 0x10, 4, nameIndex);
            default -> encodeInteger(out, offset, 0x00, 4, nameIndex);
        };
        if (nameIndex == 0)
        {
            cursor = encodeString(out, cursor, name, nameOffset, nameLength);
        }
        cursor = encodeString(out, cursor, value, valueOffset, valueLength);
        if (representation == HpackIndexing.INDEX)
        {
            table.add(name, nameOffset, nameLength, value, valueOffset, valueLength);
        }
        return cursor;
    }

    private int encodeString(
        MutableDirectBuffer out,
        int offset,
        DirectBuffer string,
        int stringOffset,
        int stringLength)
    {
        // Huffman when not longer (RFC 7541 Appendix C codes "307" in 3 Huffman bytes too)
        final int huffmanLength = huffman ? HpackHuffman.encodedLength(string, stringOffset, stringLength) : -1;
        int cursor;
        if (huffman && huffmanLength <= stringLength)
        {
            cursor = encodeInteger(out, offset, 0x80, 7, huffmanLength);
            cursor = HpackHuffman.encode(string, stringOffset, stringLength, out, cursor);
        }
        else
        {
            cursor = encodeInteger(out, offset, 0x00, 7, stringLength);
            out.putBytes(cursor, string, stringOffset, stringLength);
            cursor += stringLength;
        }
        return cursor;
    }

    /** RFC 7541 section 5.1: {@code value} with an N-bit prefix after the {@code flags} bits; returns the limit. */
    static int encodeInteger(
        MutableDirectBuffer out,
        int offset,
        int flags,
        int prefix,
        int value)
    {
        final int mask = (1 << prefix) - 1;
        int cursor = offset;
        if (value < mask)
        {
            out.putByte(cursor++, (byte) (flags | value));
        }
        else
        {
            out.putByte(cursor++, (byte) (flags | mask));
            int rest = value - mask;
            while (rest >= 0x80)
            {
                out.putByte(cursor++, (byte) (rest & 0x7f | 0x80));
                rest >>>= 7;
            }
            out.putByte(cursor++, (byte) rest);
        }
        return cursor;
    }
}
