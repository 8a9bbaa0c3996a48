/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The code of every symbol against RFC 7541 Appendix B (as netty holds it) and round trips. */
class HpackHuffmanTest
{
    @Test
    void shouldHaveTheCodeOfEverySymbol() throws Exception
    {
        // netty's own copy of Appendix B: an independent transcription of the same table
        final Class<?> netty = Class.forName("io.netty.handler.codec.http2.HpackUtil");
        final Field codesField = netty.getDeclaredField("HUFFMAN_CODES");
        final Field lengthsField = netty.getDeclaredField("HUFFMAN_CODE_LENGTHS");
        codesField.setAccessible(true);
        lengthsField.setAccessible(true);
        final int[] codes = (int[]) codesField.get(null);
        final byte[] lengths = (byte[]) lengthsField.get(null);

        assertEquals(257, codes.length);
        for (int symbol = 0; symbol <= HpackHuffman.EOS; symbol++)
        {
            assertEquals(lengths[symbol], HpackHuffman.length(symbol), "length of " + symbol);
            assertEquals(codes[symbol], HpackHuffman.code(symbol), "code of " + symbol);
        }
    }

    @Test
    void shouldHaveTheAppendixBRowsCopiedHere()
    {
        // a few rows of RFC 7541 Appendix B, typed from the RFC
        assertCode(0, 0x1ff8, 13);
        assertCode(1, 0x7fffd8, 23);
        assertCode(10, 0x3ffffffc, 30);
        assertCode(' ', 0x14, 6);
        assertCode('0', 0x0, 5);
        assertCode('a', 0x3, 5);
        assertCode('z', 0x7b, 7);
        assertCode(255, 0x3ffffee, 26);
        assertCode(HpackHuffman.EOS, 0x3fffffff, 30);
    }

    @Test
    void shouldRoundTripEverySymbolAlone()
    {
        final UnsafeBuffer in = new UnsafeBuffer(new byte[1]);
        final UnsafeBuffer encoded = new UnsafeBuffer(new byte[4]);
        final UnsafeBuffer decoded = new UnsafeBuffer(new byte[1]);
        for (int symbol = 0; symbol < 256; symbol++)
        {
            in.putByte(0, (byte) symbol);
            final int length = HpackHuffman.encodedLength(in, 0, 1);
            assertEquals((HpackHuffman.length(symbol) + 7) / 8, length);
            assertEquals(length, HpackHuffman.encode(in, 0, 1, encoded, 0));
            assertEquals(1, HpackHuffman.decode(encoded, 0, length, decoded, 0, 1), "symbol " + symbol);
            assertEquals((byte) symbol, decoded.getByte(0));
        }
    }

    @Test
    void shouldRoundTripRandomStrings()
    {
        final Random random = new Random(7541);
        final UnsafeBuffer in = new UnsafeBuffer(new byte[512]);
        final UnsafeBuffer encoded = new UnsafeBuffer(new byte[4 * 512]);
        final UnsafeBuffer decoded = new UnsafeBuffer(new byte[512]);
        for (int round = 0; round < 2000; round++)
        {
            final int length = random.nextInt(in.capacity());
            for (int i = 0; i < length; i++)
            {
                // half the rounds in the printable range headers use, half any byte
                in.putByte(i, (byte) (round % 2 == 0 ? 0x20 + random.nextInt(0x5f) : random.nextInt(256)));
            }
            final int encodedLength = HpackHuffman.encode(in, 0, length, encoded, 0);
            assertEquals(HpackHuffman.encodedLength(in, 0, length), encodedLength);
            assertEquals(length, HpackHuffman.decode(encoded, 0, encodedLength, decoded, 0, decoded.capacity()));
            for (int i = 0; i < length; i++)
            {
                assertEquals(in.getByte(i), decoded.getByte(i));
            }
        }
    }

    @Test
    void shouldReportOverflowAfterCheckingTheCode()
    {
        final UnsafeBuffer in = HpackTestSupport.bytes("www.example.com");
        final UnsafeBuffer encoded = new UnsafeBuffer(new byte[32]);
        final int length = HpackHuffman.encode(in, 0, in.capacity(), encoded, 0);
        assertEquals(HpackHuffman.OVERFLOW, HpackHuffman.decode(encoded, 0, length, new UnsafeBuffer(new byte[4]), 0, 4));
        // a bad code after the output is full is still INVALID: 9 'a's then 000, padding that is not EOS's start
        final UnsafeBuffer bad = HpackTestSupport.hex("18 c6 31 8c 63 18");
        assertEquals(HpackHuffman.INVALID, HpackHuffman.decode(bad, 0, bad.capacity(), new UnsafeBuffer(new byte[4]), 0, 4));
    }

    private static void assertCode(
        int symbol,
        int code,
        int length)
    {
        assertEquals(code, HpackHuffman.code(symbol), "code of " + symbol);
        assertEquals(length, HpackHuffman.length(symbol), "length of " + symbol);
    }
}
