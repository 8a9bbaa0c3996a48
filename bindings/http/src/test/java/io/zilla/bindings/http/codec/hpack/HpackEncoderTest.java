/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import static io.zilla.bindings.http.codec.hpack.HpackTestSupport.bytes;
import static io.zilla.bindings.http.codec.hpack.HpackTestSupport.entries;
import static io.zilla.bindings.http.codec.hpack.HpackTestSupport.hex;
import static io.zilla.bindings.http.codec.hpack.HpackTestSupport.hexOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** RFC 7541 Appendix C written byte for byte, the policy's choices, and seeded round trips through the decoder. */
class HpackEncoderTest
{
    private static final String[] DATE_21 = {"date", "Mon, 21 Oct 2013 20:13:21 GMT"};
    private static final String[] DATE_22 = {"date", "Mon, 21 Oct 2013 20:13:22 GMT"};
    private static final String[] LOCATION = {"location", "https://www.example.com"};
    private static final String[] PRIVATE = {"cache-control", "private"};

    @Test
    void shouldEncodeC3RequestsWithoutHuffman()
    {
        final HpackEncoder encoder = new HpackEncoder(4096).indexing(HpackIndexing.ALL).huffman(false);
        assertRequests(encoder,
            "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
            "8286 84be 5808 6e6f 2d63 6163 6865",
            "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65");
    }

    @Test
    void shouldEncodeC4RequestsWithHuffman()
    {
        final HpackEncoder encoder = new HpackEncoder(4096).indexing(HpackIndexing.ALL);
        assertRequests(encoder,
            "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
            "8286 84be 5886 a8eb 1064 9cbf",
            "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf");
        assertEquals(164, encoder.table().size());
    }

    @Test
    void shouldEncodeC5ResponsesWithoutHuffman()
    {
        assertResponses(false,
            "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120"
                + "474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
            "4803 3330 37c1 c0bf",
            "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738"
                + "666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765"
                + "3d33 3630 303b 2076 6572 7369 6f6e 3d31");
    }

    @Test
    void shouldEncodeC6ResponsesWithHuffman()
    {
        assertResponses(true,
            "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718"
                + "63c7 8f0b 97c8 e9ae 82ae 43d3",
            "4883 640e ffc1 c0bf",
            "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7"
                + "b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07");
    }

    @Test
    void shouldFollowTheDefaultPolicy()
    {
        final HpackEncoder encoder = new HpackEncoder(4096);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        // authorization: never indexed, with the static name 23 (0x10 | 15, then 8)
        int limit = encode(encoder, out, 0, "authorization", "Bearer abc");
        assertEquals("1f08", hexOf(out, 0, 2));
        // :path: not indexed, static name 4
        limit = encode(encoder, out, 0, ":path", "/orders/42");
        assertEquals("04", hexOf(out, 0, 1));
        // content-type: indexed (0x40 | 31, Huffman of 11 bytes), and the second time one byte (62)
        encode(encoder, out, 0, "content-type", "application/json");
        assertEquals("5f8b", hexOf(out, 0, 2));
        limit = encode(encoder, out, 0, "content-type", "application/json");
        assertEquals(1, limit);
        assertEquals("be", hexOf(out, 0, 1));
        // a short cookie is never indexed, a long one is
        encode(encoder, out, 0, "cookie", "id=1");
        assertEquals("1f11", hexOf(out, 0, 2));
        assertEquals(List.of("content-type: application/json"), entries(encoder.table()));
        // :status: one byte for the static ones, indexed for the others
        assertEquals(1, encoder.encodeStatus(out, 0, out.capacity(), 404));
        assertEquals("8d", hexOf(out, 0, 1));
        encoder.encodeStatus(out, 0, out.capacity(), 201);
        assertEquals("48", hexOf(out, 0, 1));
        assertEquals(1, encoder.encodeStatus(out, 0, out.capacity(), 201));
        assertEquals("be", hexOf(out, 0, 1));
    }

    @Test
    void shouldRefuseWithoutRoomAndLeaveTheTable()
    {
        final HpackEncoder encoder = new HpackEncoder(4096);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[20]);
        final UnsafeBuffer name = bytes("x-name");
        final UnsafeBuffer value = bytes("0123456789");
        assertEquals(-1, encoder.encode(out, 0, out.capacity(), name, 0, name.capacity(),
            value, 0, value.capacity(), false));
        assertEquals(0, encoder.table().length());
    }

    @Test
    void shouldAnnounceTableSizeChanges()
    {
        final HpackEncoder encoder = new HpackEncoder(4096);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[64]);
        assertEquals(0, encoder.beginBlock(out, 0));
        encoder.settingsTableSize(0);
        encoder.settingsTableSize(1000);
        // the smallest (0) then the current (1000 = 31 + 969: 3f c9 07)
        assertEquals(4, encoder.beginBlock(out, 0));
        assertEquals("203fc907", hexOf(out, 0, 4));
        assertEquals(0, encoder.beginBlock(out, 0));
        // a peer's size over the encoder's own limit is capped at it
        encoder.settingsTableSize(1L << 32 - 1);
        assertEquals(4096, encoder.table().maxSize());
        // a limit under 4096 is announced in the first block
        final HpackEncoder small = new HpackEncoder(256);
        assertEquals(3, small.beginBlock(out, 0));
        assertEquals("3fe101", hexOf(out, 0, 3));
    }

    @Test
    void shouldRoundTripRandomHeaderLists()
    {
        final Random random = new Random(20261126);
        for (int connection = 0; connection < 20; connection++)
        {
            final int tableSize = random.nextInt(5) * 1024;
            final HpackEncoder encoder = new HpackEncoder(4096);
            final HpackDecoder decoder = new HpackDecoder(4096, 1 << 20);
            encoder.settingsTableSize(tableSize);
            decoder.settingsTableSize(tableSize);
            final UnsafeBuffer out = new UnsafeBuffer(new byte[1 << 16]);
            final List<String[]> vocabulary = vocabulary(random);
            for (int block = 0; block < 50; block++)
            {
                final List<String> fields = new ArrayList<>();
                int limit = encoder.beginBlock(out, 0);
                final int count = 1 + random.nextInt(20);
                for (int i = 0; i < count; i++)
                {
                    final String[] field = random.nextInt(3) == 0
                        ? randomField(random)
                        : vocabulary.get(random.nextInt(vocabulary.size()));
                    final boolean sensitive = random.nextInt(10) == 0;
                    final UnsafeBuffer name = bytes(field[0]);
                    final UnsafeBuffer value = bytes(field[1]);
                    limit = encoder.encode(out, limit, out.capacity(), name, 0, name.capacity(),
                        value, 0, value.capacity(), sensitive);
                    fields.add(field[0] + ": " + field[1] + (sensitive ? " (never indexed)" : ""));
                }
                final HpackTestSupport.Collector collector = new HpackTestSupport.Collector();
                assertEquals(HpackDecoder.DECODED, decoder.decode(out, 0, limit, collector), () -> "" + decoder.error());
                assertEquals(fields, collector.fields);
                assertEquals(entries(encoder.table()), entries(decoder.table()));
            }
        }
    }

    private static List<String[]> vocabulary(
        Random random)
    {
        final List<String[]> vocabulary = new ArrayList<>(List.of(
            new String[] {":method", "GET"}, new String[] {":method", "PUT"}, new String[] {":path", "/"},
            new String[] {":authority", "example.com"}, new String[] {"content-type", "text/plain"},
            new String[] {"accept-encoding", "gzip, deflate"}, new String[] {"user-agent", "zilla-test/1.0"},
            new String[] {"cache-control", "no-cache"}, new String[] {"x-empty", ""}, new String[] {"", "empty-name"}));
        for (int i = 0; i < 20; i++)
        {
            vocabulary.add(randomField(random));
        }
        return vocabulary;
    }

    private static String[] randomField(
        Random random)
    {
        final int valueLength = random.nextInt(random.nextInt(5) == 0 ? 900 : 40);
        return new String[] {randomString(random, 1 + random.nextInt(30)), randomString(random, valueLength)};
    }

    private static String randomString(
        Random random,
        int length)
    {
        final StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++)
        {
            text.append((char) (random.nextInt(4) == 0 ? random.nextInt(256) : 'a' + random.nextInt(26)));
        }
        return text.toString();
    }

    private static void assertRequests(
        HpackEncoder encoder,
        String first,
        String second,
        String third)
    {
        assertBlock(encoder, first, new String[][] {{":method", "GET"}, {":scheme", "http"}, {":path", "/"},
            {":authority", "www.example.com"}});
        assertBlock(encoder, second, new String[][] {{":method", "GET"}, {":scheme", "http"}, {":path", "/"},
            {":authority", "www.example.com"}, {"cache-control", "no-cache"}});
        assertBlock(encoder, third, new String[][] {{":method", "GET"}, {":scheme", "https"}, {":path", "/index.html"},
            {":authority", "www.example.com"}, {"custom-key", "custom-value"}});
    }

    private static void assertResponses(
        boolean huffman,
        String first,
        String second,
        String third)
    {
        final HpackEncoder encoder = new HpackEncoder(256).indexing(HpackIndexing.ALL).huffman(huffman);
        // the examples assume both ends already agreed on 256: the size update the encoder owes is not in them
        encoder.beginBlock(new UnsafeBuffer(new byte[16]), 0);
        assertBlock(encoder, first, new String[][] {{":status", "302"}, PRIVATE, DATE_21, LOCATION});
        assertBlock(encoder, second, new String[][] {{":status", "307"}, PRIVATE, DATE_21, LOCATION});
        assertBlock(encoder, third, new String[][] {{":status", "200"}, PRIVATE, DATE_22, LOCATION,
            {"content-encoding", "gzip"}, {"set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"}});
        assertEquals(215, encoder.table().size());
    }

    private static void assertBlock(
        HpackEncoder encoder,
        String expected,
        String[][] fields)
    {
        final UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
        int limit = encoder.beginBlock(out, 0);
        for (String[] field : fields)
        {
            limit = field[0].equals(":status")
                ? encoder.encodeStatus(out, limit, out.capacity(), Integer.parseInt(field[1]))
                : encode(encoder, out, limit, field[0], field[1]);
        }
        final UnsafeBuffer block = hex(expected);
        assertEquals(hexOf(block, 0, block.capacity()), hexOf(out, 0, limit));
    }

    private static int encode(
        HpackEncoder encoder,
        UnsafeBuffer out,
        int offset,
        String name,
        String value)
    {
        final UnsafeBuffer nameBytes = bytes(name);
        final UnsafeBuffer valueBytes = bytes(value);
        return encoder.encode(out, offset, out.capacity(), nameBytes, 0, nameBytes.capacity(),
            valueBytes, 0, valueBytes.capacity(), false);
    }
}
