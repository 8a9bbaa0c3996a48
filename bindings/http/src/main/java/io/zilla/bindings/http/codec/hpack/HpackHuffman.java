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
 * from them. Decoding walks a table of 4-bit steps built once from the code tree: at most one symbol completes
 * per step because the shortest code has 5 bits.
 */
public final class HpackHuffman
{
    /** The end-of-string symbol: never in a valid string, its code's prefix is the only valid padding. */
    public static final int EOS = 256;

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

    private static final int[] CODES = new int[LENGTHS.length];

    // decoding: STEPS[state << 4 | nibble] = next state | flags << 8 | symbol << 16
    private static final int STEP_EMIT = 1 << 8;
    private static final int STEP_FAIL = 2 << 8;
    private static final int[] STEPS;
    private static final boolean[] ACCEPTING;

    static
    {
        assignCanonicalCodes();
        final int[][] tree = buildTree();
        final int states = tree.length;
        STEPS = new int[states << 4];
        ACCEPTING = new boolean[states];
        final int[] depth = new int[states];
        final boolean[] allOnes = new boolean[states];
        allOnes[0] = true;
        for (int node = 0; node < states; node++)
        {
            for (int bit = 0; bit < 2; bit++)
            {
                final int child = tree[node][bit];
                if (child > 0)
                {
                    depth[child] = depth[node] + 1;
                    allOnes[child] = allOnes[node] && bit == 1;
                }
            }
        }
        for (int state = 0; state < states; state++)
        {
            // a string may end in the root, or in a node reached by at most 7 one-bits: a prefix of EOS
            ACCEPTING[state] = allOnes[state] && depth[state] <= 7;
            for (int nibble = 0; nibble < 16; nibble++)
            {
                int node = state;
                int step = 0;
                for (int i = 3; i >= 0 && (step & STEP_FAIL) == 0; i--)
                {
                    final int child = tree[node][(nibble >> i) & 1];
                    if (child < 0)
                    {
                        final int symbol = -child - 1;
                        step = symbol == EOS ? STEP_FAIL : step | STEP_EMIT | symbol << 16;
                        node = 0;
                    }
                    else
                    {
                        node = child;
                    }
                }
                STEPS[state << 4 | nibble] = (step & STEP_FAIL) != 0 ? STEP_FAIL : step | node;
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
        // progress: the output cursor << 8 | the state; a cursor of outLimit + 1 says the output overflowed
        long progress = (long) outOffset << 8;
        int i = 0;
        // 8 bytes per bounds-checked read, then the rest byte by byte
        for (; i + 8 <= length && progress >= 0; i += 8)
        {
            final long octets = buffer.getLong(offset + i, BIG_ENDIAN);
            for (int shift = 56; shift >= 0 && progress >= 0; shift -= 8)
            {
                progress = decodeOctet(progress, (int) (octets >>> shift) & 0xff, out, outLimit);
            }
        }
        for (; i < length && progress >= 0; i++)
        {
            progress = decodeOctet(progress, buffer.getByte(offset + i) & 0xff, out, outLimit);
        }
        if (progress < 0 || !ACCEPTING[(int) progress & 0xff])
        {
            return INVALID;
        }
        final int cursor = (int) (progress >>> 8);
        return cursor > outLimit ? OVERFLOW : cursor;
    }

    // two 4-bit steps; returns the next progress, or -1 when the code is invalid
    private static long decodeOctet(
        long progress,
        int octet,
        MutableDirectBuffer out,
        int outLimit)
    {
        int cursor = (int) (progress >>> 8);
        int step = STEPS[((int) progress & 0xff) << 4 | octet >>> 4];
        if ((step & STEP_FAIL) != 0)
        {
            return -1;
        }
        if ((step & STEP_EMIT) != 0)
        {
            cursor = emit(out, cursor, outLimit, step);
        }
        step = STEPS[(step & 0xff) << 4 | octet & 0x0f];
        if ((step & STEP_EMIT) != 0)
        {
            cursor = emit(out, cursor, outLimit, step);
        }
        return (step & STEP_FAIL) != 0 ? -1 : (long) cursor << 8 | step & 0xff;
    }

    private static int emit(
        MutableDirectBuffer out,
        int cursor,
        int outLimit,
        int step)
    {
        if (cursor < outLimit)
        {
            out.putByte(cursor, (byte) (step >>> 16));
            return cursor + 1;
        }
        return outLimit + 1;
    }

    /** {@link #decode} result: a bad code. */
    public static final int INVALID = -1;

    /** {@link #decode} result: the output range is too small. */
    public static final int OVERFLOW = -2;

    private static void assignCanonicalCodes()
    {
        int code = 0;
        int previousLength = 0;
        boolean first = true;
        for (int length = 1; length <= 30; length++)
        {
            for (int symbol = 0; symbol < LENGTHS.length; symbol++)
            {
                if (LENGTHS[symbol] == length)
                {
                    code = first ? 0 : (code + 1) << (length - previousLength);
                    first = false;
                    previousLength = length;
                    CODES[symbol] = code;
                }
            }
        }
    }

    // nodes: tree[node][bit] > 0 an inner node, < 0 a leaf -(symbol + 1), 0 not yet set (the root is never a child)
    private static int[][] buildTree()
    {
        final int[][] tree = new int[LENGTHS.length - 1][2];
        int nodes = 1;
        for (int symbol = 0; symbol < LENGTHS.length; symbol++)
        {
            int node = 0;
            for (int i = LENGTHS[symbol] - 1; i > 0; i--)
            {
                final int bit = (CODES[symbol] >>> i) & 1;
                if (tree[node][bit] == 0)
                {
                    tree[node][bit] = nodes++;
                }
                node = tree[node][bit];
            }
            tree[node][CODES[symbol] & 1] = -(symbol + 1);
        }
        return tree;
    }
}
