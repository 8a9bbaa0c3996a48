/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A topic's per-partition progress (partition id -> the next offset to read) as a short URL-safe token: the id of an
 * SSE event (sse-kafka) and the ETag of an HTTP response (http-kafka), one encoding for both, so that any zilla replica
 * resumes exactly where any other left a client, and a client may hand one back as the other.
 *
 * <p>The token is base64url without padding (RFC 4648 section 5: {@code A-Z a-z 0-9 - _}) of:
 * <pre>
 *   version      1 byte, {@link #VERSION}
 *   count        unsigned varint: how many partitions follow
 *   count times:
 *     partition  unsigned varint: the first partition's id, then each one's distance from the one before less one
 *                (ids strictly ascending, so a token names a partition once)
 *     offset     zig-zag varint (as Kafka's record varlong): the next offset to read, or -2 earliest, -1 latest
 * </pre>
 * Eight partitions at offsets below 2^20 (a million records each) take 46 characters.
 *
 * <p>One instance per thread, reused: {@link #clear}, {@link #put} (any order), then {@link #encode} writes the token
 * as ASCII into a buffer; {@link #decode} reads one back with every length and value checked, refusing (false, and
 * nothing kept) anything it did not write: a bad character, a truncated or overlong varint, an unknown version, a
 * partition twice, more than its capacity of partitions, an offset below -2 or above {@link #MAX_OFFSET}, or bytes
 * after the last partition. Nothing allocates after construction.
 */
public final class KafkaProgressToken
{
    /** The only version so far. */
    public static final int VERSION = 1;

    /** The largest offset a token may carry (2^53: beyond any real partition, and exact in JavaScript). */
    public static final long MAX_OFFSET = 1L << 53;

    /** The partitions a token may carry by default. */
    public static final int DEFAULT_CAPACITY = 4096;

    private static final byte[] ALPHABET =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".getBytes(US_ASCII);
    private static final byte[] DECODE = new byte[128];

    static
    {
        Arrays.fill(DECODE, (byte) -1);
        for (int i = 0; i < ALPHABET.length; i++)
        {
            DECODE[ALPHABET[i]] = (byte) i;
        }
    }

    private final int capacity;
    private final int[] partitions;
    private final long[] offsets;
    private final byte[] bytes;
    private int count;

    public KafkaProgressToken()
    {
        this(DEFAULT_CAPACITY);
    }

    /** @param capacity the most partitions this instance holds, in tokens it writes and reads */
    public KafkaProgressToken(int capacity)
    {
        this.capacity = capacity;
        this.partitions = new int[capacity];
        this.offsets = new long[capacity];
        // version, count, and per partition at most 5 bytes of id and 10 of offset
        this.bytes = new byte[1 + 5 + capacity * 15];
    }

    public void clear()
    {
        count = 0;
    }

    public int count()
    {
        return count;
    }

    public int capacity()
    {
        return capacity;
    }

    public int partitionId(int index)
    {
        return partitions[index];
    }

    public long offset(int index)
    {
        return offsets[index];
    }

    /** The next offset of {@code partitionId}, or {@code missing} when the token does not name it. */
    public long offsetOf(int partitionId, long missing)
    {
        final int at = find(partitionId);
        return at >= 0 ? offsets[at] : missing;
    }

    /**
     * Sets a partition's next offset, keeping the partitions in order (the progress of a merged stream comes sorted,
     * so this is an append in practice).
     *
     * @return false when the token is full or the offset is out of range ({@code < -2} or {@code > MAX_OFFSET})
     */
    public boolean put(int partitionId, long offset)
    {
        if (partitionId < 0 || offset < -2L || offset > MAX_OFFSET)
        {
            return false;
        }
        final int at = find(partitionId);
        if (at >= 0)
        {
            offsets[at] = offset;
            return true;
        }
        if (count == capacity)
        {
            return false;
        }
        final int insert = -at - 1;
        System.arraycopy(partitions, insert, partitions, insert + 1, count - insert);
        System.arraycopy(offsets, insert, offsets, insert + 1, count - insert);
        partitions[insert] = partitionId;
        offsets[insert] = offset;
        count++;
        return true;
    }

    /** The length of the token {@link #encode} would write now. */
    public int encodedLength()
    {
        return base64Length(binary());
    }

    /**
     * Writes the token as ASCII at {@code offset}.
     *
     * @return its length, or -1 when it does not fit before {@code limit} (nothing is written then)
     */
    public int encode(MutableDirectBuffer buffer, int offset, int limit)
    {
        final int size = binary();
        final int length = base64Length(size);
        if (offset + length > limit)
        {
            return -1;
        }
        int at = offset;
        int i = 0;
        for (; i + 3 <= size; i += 3)
        {
            final int bits = (bytes[i] & 0xff) << 16 | (bytes[i + 1] & 0xff) << 8 | bytes[i + 2] & 0xff;
            buffer.putByte(at++, ALPHABET[bits >>> 18]);
            buffer.putByte(at++, ALPHABET[bits >>> 12 & 0x3f]);
            buffer.putByte(at++, ALPHABET[bits >>> 6 & 0x3f]);
            buffer.putByte(at++, ALPHABET[bits & 0x3f]);
        }
        if (size - i == 1)
        {
            final int bits = (bytes[i] & 0xff) << 16;
            buffer.putByte(at++, ALPHABET[bits >>> 18]);
            buffer.putByte(at++, ALPHABET[bits >>> 12 & 0x3f]);
        }
        else if (size - i == 2)
        {
            final int bits = (bytes[i] & 0xff) << 16 | (bytes[i + 1] & 0xff) << 8;
            buffer.putByte(at++, ALPHABET[bits >>> 18]);
            buffer.putByte(at++, ALPHABET[bits >>> 12 & 0x3f]);
            buffer.putByte(at++, ALPHABET[bits >>> 6 & 0x3f]);
        }
        return at - offset;
    }

    /**
     * Reads a token of {@code length} ASCII bytes at {@code offset}.
     *
     * @return whether it is a token this codec writes; when false, the instance is left empty
     */
    public boolean decode(DirectBuffer buffer, int offset, int length)
    {
        count = 0;
        final int size = length / 4 * 3 + (length % 4 == 0 ? 0 : length % 4 - 1);
        if (length <= 0 || length % 4 == 1 || size > bytes.length)
        {
            return false;
        }
        int at = 0;
        int bits = 0;
        int held = 0;
        for (int i = 0; i < length; i++)
        {
            final int c = buffer.getByte(offset + i);
            final int sextet = c >= 0 && c < DECODE.length ? DECODE[c] : -1;
            if (sextet < 0)
            {
                return false;
            }
            bits = bits << 6 | sextet;
            held += 6;
            if (held >= 8)
            {
                held -= 8;
                bytes[at++] = (byte) (bits >>> held);
                bits &= (1 << held) - 1;
            }
        }
        // the bits left over are the padding of the last character: an encoder writes them 0
        return bits == 0 && parse(at) || fail();
    }

    private boolean fail()
    {
        count = 0;
        return false;
    }

    private boolean parse(int size)
    {
        if (size < 2 || bytes[0] != VERSION)
        {
            return false;
        }
        int at = 1;
        long packed = readVarUint(at, size, 5);
        if (packed < 0)
        {
            return false;
        }
        final long partitionCount = packed & 0xffff_ffffL;
        at += (int) (packed >>> 32);
        if (partitionCount > capacity)
        {
            return false;
        }
        long previous = -1L;
        for (int i = 0; i < partitionCount; i++)
        {
            packed = readVarUint(at, size, 5);
            if (packed < 0)
            {
                return false;
            }
            at += (int) (packed >>> 32);
            final long partitionId = previous + 1 + (packed & 0xffff_ffffL);
            if (partitionId > Integer.MAX_VALUE)
            {
                return false;
            }
            final int start = at;
            long zigzag = 0L;
            int shift = 0;
            boolean done = false;
            while (at < size && shift < 64)
            {
                final int b = bytes[at++] & 0xff;
                zigzag |= (long) (b & 0x7f) << shift;
                shift += 7;
                if ((b & 0x80) == 0)
                {
                    done = true;
                    break;
                }
            }
            if (!done || at - start > 10)
            {
                return false;
            }
            final long offset = zigzag >>> 1 ^ -(zigzag & 1);
            if (offset < -2L || offset > MAX_OFFSET)
            {
                return false;
            }
            partitions[i] = (int) partitionId;
            offsets[i] = offset;
            previous = partitionId;
        }
        if (at != size)
        {
            return false;
        }
        count = (int) partitionCount;
        return true;
    }

    // an unsigned varint of at most maxSize bytes and 32 bits: the value, and its size in bits 32 on; -1 malformed
    private long readVarUint(int at, int limit, int maxSize)
    {
        long value = 0L;
        for (int i = 0; i < maxSize && at + i < limit; i++)
        {
            final int b = bytes[at + i] & 0xff;
            value |= (long) (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0)
            {
                return value <= 0xffff_ffffL ? (long) (i + 1) << 32 | value : -1L;
            }
        }
        return -1L;
    }

    // the binary form into bytes: its size
    private int binary()
    {
        int at = 0;
        bytes[at++] = VERSION;
        at = putVarUint(at, count);
        int previous = -1;
        for (int i = 0; i < count; i++)
        {
            at = putVarUint(at, partitions[i] - previous - 1);
            previous = partitions[i];
            long zigzag = offsets[i] << 1 ^ offsets[i] >> 63;
            while ((zigzag & ~0x7fL) != 0L)
            {
                bytes[at++] = (byte) (zigzag & 0x7f | 0x80);
                zigzag >>>= 7;
            }
            bytes[at++] = (byte) zigzag;
        }
        return at;
    }

    private int putVarUint(int at, int value)
    {
        int v = value;
        while ((v & ~0x7f) != 0)
        {
            bytes[at++] = (byte) (v & 0x7f | 0x80);
            v >>>= 7;
        }
        bytes[at++] = (byte) v;
        return at;
    }

    private static int base64Length(int size)
    {
        return size / 3 * 4 + (size % 3 == 0 ? 0 : size % 3 + 1);
    }

    // binary search over the sorted partitions: the index, or -(insertion point) - 1
    private int find(int partitionId)
    {
        int low = 0;
        int high = count - 1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            final int id = partitions[mid];
            if (id < partitionId)
            {
                low = mid + 1;
            }
            else if (id > partitionId)
            {
                high = mid - 1;
            }
            else
            {
                return mid;
            }
        }
        return -(low + 1);
    }
}
