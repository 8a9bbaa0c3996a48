/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import static java.nio.ByteOrder.BIG_ENDIAN;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The Huffman code of RFC 7541 Appendix B.
 *
 * <p>The code is canonical (within one length, codes follow the symbols' order, and each length's first code
 * follows the previous length's last), so only the 257 code lengths are stored here and the codes are derived
 * from them. Decoding reads the bit stream through a 64-bit window: the next 8 bits index a table that gives
 * the symbol of every code of 8 bits or less (the common characters); a longer code is found among the codes of
 * each length in turn, as canonical codes of one length are consecutive numbers.
 */
public final class HpackHuffman
{
    /** The end-of-string symbol: never in a valid string, its code's prefix is the only valid padding. */
    public static final int EOS = 256;

    /** {@link #decode} result: a bad code. */
    public static final int INVALID = -1;

    /** {@link #decode} result: the output range is too small. */
    public static final int OVERFLOW = -2;

    // code lengths of the symbols 0..256, RFC 7541 Appendix B
    private static final byte[] LENGTHS =
    {
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
        30,
    };

    private static final int MAX_LENGTH = 30;
    private static final int FAST_BITS = 8;

    private static final int[] CODES = new int[LENGTHS.length];

    // FAST[the next 8 bits] = symbol << 8 | length, for codes of at most 8 bits; 0 otherwise
    private static final int[] FAST = new int[1 << FAST_BITS];

    // per length: the first code, how many codes, and where their symbols start in SORTED
    private static final int[] FIRST = new int[MAX_LENGTH + 1];
    private static final int[] COUNT = new int[MAX_LENGTH + 1];
    private static final int[] BASE = new int[MAX_LENGTH + 1];
    private static final int[] SORTED = new int[LENGTHS.length];

    static
    {
        int code = 0;
        int sorted = 0;
        for (int length = 1; length <= MAX_LENGTH; length++)
        {
            FIRST[length] = code;
            BASE[length] = sorted;
            for (int symbol = 0; symbol < LENGTHS.length; symbol++)
            {
                if (LENGTHS[symbol] == length)
                {
                    CODES[symbol] = code++;
                    SORTED[sorted++] = symbol;
                }
            }
            COUNT[length] = sorted - BASE[length];
            code <<= 1;
        }
        for (int symbol = 0; symbol < LENGTHS.length; symbol++)
        {
            final int length = LENGTHS[symbol];
            if (length <= FAST_BITS)
            {
                final int first = CODES[symbol] << (FAST_BITS - length);
                for (int i = 0; i < 1 << (FAST_BITS - length); i++)
                {
                    FAST[first + i] = symbol << 8 | length;
                }
            }
        }
    }

    private HpackHuffman()
    {
    }

    /** The code of a symbol (0..256), right-aligned in its {@link #length(int)} bits. */
    public static int code(
        int symbol)
    {
        return CODES[symbol];
    }

    /** The length in bits of a symbol's code. */
    public static int length(
        int symbol)
    {
        return LENGTHS[symbol];
    }

    /** The bytes the Huffman encoding of a range takes, padding included. */
    public static int encodedLength(
        DirectBuffer buffer,
        int offset,
        int length)
    {
        long bits = 0;
        int i = 0;
        // 8 bytes per bounds-checked read
        for (; i + 8 <= length; i += 8)
        {
            final long octets = buffer.getLong(offset + i, BIG_ENDIAN);
            for (int shift = 56; shift >= 0; shift -= 8)
            {
                bits += LENGTHS[(int) (octets >>> shift) & 0xff];
            }
        }
        for (; i < length; i++)
        {
            bits += LENGTHS[buffer.getByte(offset + i) & 0xff];
        }
        return (int) ((bits + 7) >> 3);
    }

    /** Encodes a range at {@code out[outOffset]} (room for {@link #encodedLength} bytes); returns the limit. */
    public static int encode(
        DirectBuffer buffer,
        int offset,
        int length,
        MutableDirectBuffer out,
        int outOffset)
    {
        // codes collect in the low bits of `bits`; whole 32-bit words go out as soon as there are
        long bits = 0;
        int pending = 0;
        int cursor = outOffset;
        int i = 0;
        for (; i + 8 <= length; i += 8)
        {
            final long octets = buffer.getLong(offset + i, BIG_ENDIAN);
            for (int shift = 56; shift >= 0; shift -= 8)
            {
                final int symbol = (int) (octets >>> shift) & 0xff;
                final int codeLength = LENGTHS[symbol];
                bits = bits << codeLength | CODES[symbol];
                pending += codeLength;
                if (pending >= 32)
                {
                    pending -= 32;
                    out.putInt(cursor, (int) (bits >>> pending), BIG_ENDIAN);
                    cursor += 4;
                }
            }
        }
        for (; i < length; i++)
        {
            final int symbol = buffer.getByte(offset + i) & 0xff;
            final int codeLength = LENGTHS[symbol];
            bits = bits << codeLength | CODES[symbol];
            pending += codeLength;
            if (pending >= 32)
            {
                pending -= 32;
                out.putInt(cursor, (int) (bits >>> pending), BIG_ENDIAN);
                cursor += 4;
            }
        }
        while (pending >= 8)
        {
            pending -= 8;
            out.putByte(cursor++, (byte) (bits >>> pending));
        }
        if (pending > 0)
        {
            // pad with the most significant bits of EOS: ones
            out.putByte(cursor++, (byte) (bits << (8 - pending) | 0xff >>> pending));
        }
        return cursor;
    }

    /**
     * Decodes a range into {@code out} from {@code outOffset} up to {@code outLimit}.
     *
     * @return the limit of the decoded bytes, {@link #INVALID} when the code is bad (EOS, or padding that is
     *         longer than 7 bits or not all ones), or {@link #OVERFLOW} when the decoded bytes exceed outLimit
     *         (the input is then still checked to the end and INVALID wins)
     */
    public static int decode(
        DirectBuffer buffer,
        int offset,
        int length,
        MutableDirectBuffer out,
        int outOffset,
        int outLimit)
    {
        // the next bits of the input, left-aligned in `window`, `bits` of them valid
        long window = 0;
        int bits = 0;
        int next = offset;
        final int limit = offset + length;
        int cursor = outOffset;
        boolean overflow = false;
        // decoded bytes collect in `decoded` and go out 8 at a time while there is room for 8
        long decoded = 0;
        int pending = 0;
        while (true)
        {
            if (bits < MAX_LENGTH && next < limit)
            {
                // refill once the window may not hold a whole code: 4 bytes at a time while there are
                if (limit - next >= 4)
                {
                    window |= (buffer.getInt(next, BIG_ENDIAN) & 0xffff_ffffL) << (32 - bits);
                    next += 4;
                    bits += 32;
                }
                else
                {
                    while (bits <= 56 && next < limit)
                    {
                        window |= (buffer.getByte(next++) & 0xffL) << (56 - bits);
                        bits += 8;
                    }
                }
            }
            if (bits == 0)
            {
                break;
            }

            int symbol;
            int codeLength;
            final int fast = FAST[(int) (window >>> (64 - FAST_BITS))];
            if (fast != 0)
            {
                symbol = fast >>> 8;
                codeLength = fast & 0xff;
            }
            else
            {
                symbol = -1;
                codeLength = FAST_BITS + 1;
                for (; codeLength <= MAX_LENGTH; codeLength++)
                {
                    final int index = (int) (window >>> (64 - codeLength)) - FIRST[codeLength];
                    if (index >= 0 && index < COUNT[codeLength])
                    {
                        symbol = SORTED[BASE[codeLength] + index];
                        break;
                    }
                }
            }
            if (symbol < 0 || codeLength > bits)
            {
                // no whole code left: the rest must be padding, at most 7 bits of ones (a prefix of EOS)
                if (bits > 7 || window >>> (64 - bits) != (1L << bits) - 1)
                {
                    return INVALID;
                }
                break;
            }
            if (symbol == EOS)
            {
                return INVALID;
            }
            decoded = decoded << 8 | symbol;
            if (++pending == 8)
            {
                if (outLimit - cursor >= 8)
                {
                    out.putLong(cursor, decoded, BIG_ENDIAN);
                    cursor += 8;
                }
                else
                {
                    cursor = putBytes(out, cursor, outLimit, decoded, 8);
                    overflow |= cursor > outLimit;
                }
                pending = 0;
            }
            window <<= codeLength;
            bits -= codeLength;
        }
        cursor = putBytes(out, cursor, outLimit, decoded, pending);
        return overflow || cursor > outLimit ? OVERFLOW : cursor;
    }

    // the last `count` bytes of `decoded`, as far as outLimit; returns the cursor, outLimit + 1 if some did not fit
    private static int putBytes(
        MutableDirectBuffer out,
        int cursor,
        int outLimit,
        long decoded,
        int count)
    {
        int at = cursor;
        for (int i = count - 1; i >= 0; i--)
        {
            if (at >= outLimit)
            {
                return outLimit + 1;
            }
            out.putByte(at++, (byte) (decoded >>> (i << 3)));
        }
        return at;
    }
}
