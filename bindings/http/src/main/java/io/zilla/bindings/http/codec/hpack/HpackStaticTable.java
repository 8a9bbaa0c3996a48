/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import static java.nio.charset.StandardCharsets.US_ASCII;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** The 61 entries of RFC 7541 Appendix A, as ranges of one buffer, with a lookup by name for the encoder. */
public final class HpackStaticTable
{
    /** The number of entries: dynamic table indexes start after it. */
    public static final int LENGTH = 61;

    // index 1..61; index 0 unused
    private static final String[][] ENTRIES =
    {
        {"", ""},
        {":authority", ""},
        {":method", "GET"},
        {":method", "POST"},
        {":path", "/"},
        {":path", "/index.html"},
        {":scheme", "http"},
        {":scheme", "https"},
        {":status", "200"},
        {":status", "204"},
        {":status", "206"},
        {":status", "304"},
        {":status", "400"},
        {":status", "404"},
        {":status", "500"},
        {"accept-charset", ""},
        {"accept-encoding", "gzip, deflate"},
        {"accept-language", ""},
        {"accept-ranges", ""},
        {"accept", ""},
        {"access-control-allow-origin", ""},
        {"age", ""},
        {"allow", ""},
        {"authorization", ""},
        {"cache-control", ""},
        {"content-disposition", ""},
        {"content-encoding", ""},
        {"content-language", ""},
        {"content-length", ""},
        {"content-location", ""},
        {"content-range", ""},
        {"content-type", ""},
        {"cookie", ""},
        {"date", ""},
        {"etag", ""},
        {"expect", ""},
        {"expires", ""},
        {"from", ""},
        {"host", ""},
        {"if-match", ""},
        {"if-modified-since", ""},
        {"if-none-match", ""},
        {"if-range", ""},
        {"if-unmodified-since", ""},
        {"last-modified", ""},
        {"link", ""},
        {"location", ""},
        {"max-forwards", ""},
        {"proxy-authenticate", ""},
        {"proxy-authorization", ""},
        {"range", ""},
        {"referer", ""},
        {"refresh", ""},
        {"retry-after", ""},
        {"server", ""},
        {"set-cookie", ""},
        {"strict-transport-security", ""},
        {"transfer-encoding", ""},
        {"user-agent", ""},
        {"vary", ""},
        {"via", ""},
        {"www-authenticate", ""},
    };

    /** The bytes of every name and value. */
    public static final DirectBuffer BUFFER;

    private static final int[] NAME_OFFSETS = new int[LENGTH + 1];
    private static final int[] NAME_LENGTHS = new int[LENGTH + 1];
    private static final int[] VALUE_OFFSETS = new int[LENGTH + 1];
    private static final int[] VALUE_LENGTHS = new int[LENGTH + 1];

    // for the first index of each name, how many consecutive entries have it
    private static final int[] SAME_NAME = new int[LENGTH + 1];

    // open addressing by name hash -> the first index with that name
    private static final int SLOTS = 256;
    private static final int[] FIRST_BY_NAME = new int[SLOTS];

    static
    {
        int size = 0;
        for (String[] entry : ENTRIES)
        {
            size += entry[0].length() + entry[1].length();
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[size]);
        int offset = 0;
        for (int index = 1; index <= LENGTH; index++)
        {
            final byte[] name = ENTRIES[index][0].getBytes(US_ASCII);
            final byte[] value = ENTRIES[index][1].getBytes(US_ASCII);
            buffer.putBytes(offset, name);
            NAME_OFFSETS[index] = offset;
            NAME_LENGTHS[index] = name.length;
            offset += name.length;
            buffer.putBytes(offset, value);
            VALUE_OFFSETS[index] = offset;
            VALUE_LENGTHS[index] = value.length;
            offset += value.length;
        }
        BUFFER = buffer;
        for (int index = 1; index <= LENGTH; index++)
        {
            if (index == 1 || !ENTRIES[index][0].equals(ENTRIES[index - 1][0]))
            {
                int same = 1;
                while (index + same <= LENGTH && ENTRIES[index + same][0].equals(ENTRIES[index][0]))
                {
                    same++;
                }
                SAME_NAME[index] = same;
                int slot = HpackBytes.hash(buffer, NAME_OFFSETS[index], NAME_LENGTHS[index]) & (SLOTS - 1);
                while (FIRST_BY_NAME[slot] != 0)
                {
                    slot = (slot + 1) & (SLOTS - 1);
                }
                FIRST_BY_NAME[slot] = index;
            }
        }
    }

    private HpackStaticTable()
    {
    }

    public static int nameOffset(
        int index)
    {
        return NAME_OFFSETS[index];
    }

    public static int nameLength(
        int index)
    {
        return NAME_LENGTHS[index];
    }

    public static int valueOffset(
        int index)
    {
        return VALUE_OFFSETS[index];
    }

    public static int valueLength(
        int index)
    {
        return VALUE_LENGTHS[index];
    }

    /** The first index whose name is the given range, or 0; entries with one name are consecutive. */
    public static int indexOfName(
        DirectBuffer buffer,
        int offset,
        int length,
        int hash)
    {
        int slot = hash & (SLOTS - 1);
        int index;
        while ((index = FIRST_BY_NAME[slot]) != 0)
        {
            if (HpackBytes.equal(BUFFER, NAME_OFFSETS[index], NAME_LENGTHS[index], buffer, offset, length))
            {
                return index;
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
        return 0;
    }

    /** The index whose name and value are the given ranges, or 0 (the name's first index is known). */
    public static int indexOfField(
        int nameIndex,
        DirectBuffer buffer,
        int offset,
        int length)
    {
        for (int index = nameIndex, end = nameIndex + SAME_NAME[nameIndex]; index < end; index++)
        {
            if (HpackBytes.equal(BUFFER, VALUE_OFFSETS[index], VALUE_LENGTHS[index], buffer, offset, length))
            {
                return index;
            }
        }
        return 0;
    }
}
