/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import static io.zilla.bindings.http.codec.hpack.HpackTestSupport.entries;
import static io.zilla.bindings.http.codec.hpack.HpackTestSupport.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** RFC 7541 Appendix C, byte for byte, and every way a block can be a COMPRESSION_ERROR. */
class HpackDecoderTest
{
    private static final String DATE_21 = "date: Mon, 21 Oct 2013 20:13:21 GMT";
    private static final String DATE_22 = "date: Mon, 21 Oct 2013 20:13:22 GMT";
    private static final String LOCATION = "location: https://www.example.com";
    private static final String COOKIE = "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";

    @Test
    void shouldDecodeC2LiteralWithIndexing()
    {
        final HpackDecoder decoder = new HpackDecoder(4096, 16384);
        assertBlock(decoder, "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572",
            List.of("custom-key: custom-header"));
        assertEquals(List.of("custom-key: custom-header"), entries(decoder.table()));
        assertEquals(55, decoder.table().size());
    }

    @Test
    void shouldDecodeC2LiteralWithoutIndexing()
    {
        final HpackDecoder decoder = new HpackDecoder(4096, 16384);
        assertBlock(decoder, "040c 2f73 616d 706c 652f 7061 7468", List.of(":path: /sample/path"));
        assertEquals(0, decoder.table().length());
    }

    @Test
    void shouldDecodeC2LiteralNeverIndexed()
    {
        final HpackDecoder decoder = new HpackDecoder(4096, 16384);
        assertBlock(decoder, "1008 7061 7373 776f 7264 0673 6563 7265 74", List.of("password: secret (never indexed)"));
        assertEquals(0, decoder.table().length());
    }

    @Test
    void shouldDecodeC2Indexed()
    {
        final HpackDecoder decoder = new HpackDecoder(4096, 16384);
        assertBlock(decoder, "82", List.of(":method: GET"));
        assertEquals(0, decoder.table().length());
    }

    @Test
    void shouldDecodeC3RequestsWithoutHuffman()
    {
        assertRequests(
            "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
            "8286 84be 5808 6e6f 2d63 6163 6865",
            "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65");
    }

    @Test
    void shouldDecodeC4RequestsWithHuffman()
    {
        assertRequests(
            "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
            "8286 84be 5886 a8eb 1064 9cbf",
            "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf");
    }

    @Test
    void shouldDecodeC5ResponsesWithoutHuffman()
    {
        assertResponses(
            "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120"
                + "474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
            "4803 3330 37c1 c0bf",
            "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738"
                + "666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765"
                + "3d33 3630 303b 2076 6572 7369 6f6e 3d31");
    }

    @Test
    void shouldDecodeC6ResponsesWithHuffman()
    {
        assertResponses(
            "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718"
                + "63c7 8f0b 97c8 e9ae 82ae 43d3",
            "4883 640e ffc1 c0bf",
            "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7"
                + "b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07");
    }

    @Test
    void shouldRejectIndexZero()
    {
        assertError(new HpackDecoder(4096, 16384), "80", HpackError.INDEX_ZERO);
    }

    @Test
    void shouldRejectIndexPastTheTables()
    {
        // 62 with an empty dynamic table
        assertError(new HpackDecoder(4096, 16384), "be", HpackError.INDEX_OUT_OF_RANGE);
        // a literal whose name index is 62
        assertError(new HpackDecoder(4096, 16384), "7f 00 01 61", HpackError.INDEX_OUT_OF_RANGE);
    }

    @Test
    void shouldRejectIntegerOverflow()
    {
        // 127 + 2^31: one more than an int holds
        assertError(new HpackDecoder(4096, 16384), "ff 81 ff ff ff 07", HpackError.INTEGER_OVERFLOW);
        // continuation bytes past 28 bits of shift, even if they add zeros
        assertError(new HpackDecoder(4096, 16384), "ff 80 80 80 80 80 00", HpackError.INTEGER_OVERFLOW);
    }

    @Test
    void shouldRejectTruncation()
    {
        // an integer with its continuation bit set at the end
        assertError(new HpackDecoder(4096, 16384), "ff 80", HpackError.TRUNCATED);
        // a string of 10 bytes with 3
        assertError(new HpackDecoder(4096, 16384), "04 0a 61 62 63", HpackError.TRUNCATED);
        // a literal with a new name and no name length
        assertError(new HpackDecoder(4096, 16384), "40", HpackError.TRUNCATED);
        // a literal with a name and no value
        assertError(new HpackDecoder(4096, 16384), "40 01 61", HpackError.TRUNCATED);
    }

    @Test
    void shouldRejectBadHuffman()
    {
        // 'a' (00011) then 11 bits of ones: padding longer than 7 bits
        assertError(new HpackDecoder(4096, 16384), "04 82 1f ff", HpackError.HUFFMAN);
        // 'a' (00011) then 000: padding that is not the start of EOS
        assertError(new HpackDecoder(4096, 16384), "04 81 18", HpackError.HUFFMAN);
        // EOS itself (30 ones) padded with 2 ones
        assertError(new HpackDecoder(4096, 16384), "04 84 ff ff ff ff", HpackError.HUFFMAN);
    }

    @Test
    void shouldRejectTableSizeUpdateOverTheSettings()
    {
        // 4097 > 4096: 3f e2 1f
        assertError(new HpackDecoder(4096, 16384), "3f e2 1f 82", HpackError.TABLE_SIZE_OVER_LIMIT);
    }

    @Test
    void shouldRejectTableSizeUpdateAfterAField()
    {
        assertError(new HpackDecoder(4096, 16384), "82 20", HpackError.TABLE_SIZE_NOT_AT_START);
    }

    @Test
    void shouldAcceptTableSizeUpdatesAtTheStart()
    {
        final HpackDecoder decoder = new HpackDecoder(4096, 16384);
        assertBlock(decoder, "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572",
            List.of("custom-key: custom-header"));
        // to 0 (evicts the entry), then to 100
        assertBlock(decoder, "20 3f 45 82", List.of(":method: GET"));
        assertEquals(0, decoder.table().length());
        assertEquals(100, decoder.table().maxSize());
    }

    @Test
    void shouldRequireASizeUpdateAfterTheSettingIsLowered()
    {
        final HpackDecoder decoder = new HpackDecoder(4096, 16384);
        decoder.settingsTableSize(1024);
        assertError(decoder, "82", HpackError.TABLE_SIZE_UPDATE_MISSING);

        final HpackDecoder updated = new HpackDecoder(4096, 16384);
        updated.settingsTableSize(1024);
        // an update to 2048 is over the new setting, to 1024 is fine
        assertError(updated, "3f e1 0f 82", HpackError.TABLE_SIZE_OVER_LIMIT);
        final HpackDecoder fine = new HpackDecoder(4096, 16384);
        fine.settingsTableSize(1024);
        assertBlock(fine, "3f e1 07 82", List.of(":method: GET"));
        assertBlock(fine, "82", List.of(":method: GET"));
    }

    @Test
    void shouldReportAHeaderListOverTheMaximumAndKeepTheTable()
    {
        // custom-key: custom-header is 55; with a maximum of 60 the second field is over
        final HpackDecoder decoder = new HpackDecoder(4096, 60);
        final HpackTestSupport.Collector collector = new HpackTestSupport.Collector();
        final UnsafeBuffer block = hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572 82");
        assertEquals(HpackDecoder.HEADER_LIST_TOO_LARGE, decoder.decode(block, 0, block.capacity(), collector));
        assertEquals(List.of("custom-key: custom-header"), collector.fields);
        assertEquals(55 + 42, decoder.headerListSize());
        // the entry was still added: the next block can refer to it
        assertBlock(decoder, "be", List.of("custom-key: custom-header"));
    }

    @Test
    void shouldReportAHuffmanStringLargerThanTheScratchAsTooLarge()
    {
        // a 40-byte maximum list and a 40-byte table: a Huffman value of 48 'a's (30 bytes) cannot be held
        final HpackDecoder decoder = new HpackDecoder(40, 40);
        // 8 'a's (00011 each) are the 5 bytes 18 c6 31 8c 63
        final UnsafeBuffer block = hex("40 01 61 9e" + " 18 c6 31 8c 63".repeat(6));
        final HpackTestSupport.Collector collector = new HpackTestSupport.Collector();
        assertEquals(HpackDecoder.HEADER_LIST_TOO_LARGE, decoder.decode(block, 0, block.capacity(), collector));
        assertEquals(List.of(), collector.fields);
        assertEquals(0, decoder.table().length());
    }

    private static void assertRequests(
        String first,
        String second,
        String third)
    {
        final HpackDecoder decoder = new HpackDecoder(4096, 16384);
        assertBlock(decoder, first,
            List.of(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"));
        assertEquals(List.of(":authority: www.example.com"), entries(decoder.table()));
        assertEquals(57, decoder.table().size());

        assertBlock(decoder, second,
            List.of(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com", "cache-control: no-cache"));
        assertEquals(List.of("cache-control: no-cache", ":authority: www.example.com"), entries(decoder.table()));
        assertEquals(110, decoder.table().size());

        assertBlock(decoder, third,
            List.of(":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com",
                "custom-key: custom-value"));
        assertEquals(List.of("custom-key: custom-value", "cache-control: no-cache", ":authority: www.example.com"),
            entries(decoder.table()));
        assertEquals(164, decoder.table().size());
    }

    private static void assertResponses(
        String first,
        String second,
        String third)
    {
        final HpackDecoder decoder = new HpackDecoder(256, 16384);
        assertBlock(decoder, first, List.of(":status: 302", "cache-control: private", DATE_21, LOCATION));
        assertEquals(List.of(LOCATION, DATE_21, "cache-control: private", ":status: 302"), entries(decoder.table()));
        assertEquals(222, decoder.table().size());

        assertBlock(decoder, second, List.of(":status: 307", "cache-control: private", DATE_21, LOCATION));
        assertEquals(List.of(":status: 307", LOCATION, DATE_21, "cache-control: private"), entries(decoder.table()));
        assertEquals(222, decoder.table().size());

        assertBlock(decoder, third,
            List.of(":status: 200", "cache-control: private", DATE_22, LOCATION, "content-encoding: gzip", COOKIE));
        assertEquals(List.of(COOKIE, "content-encoding: gzip", DATE_22), entries(decoder.table()));
        assertEquals(215, decoder.table().size());
    }

    static void assertBlock(
        HpackDecoder decoder,
        String hex,
        List<String> expected)
    {
        final UnsafeBuffer block = hex(hex);
        final HpackTestSupport.Collector collector = new HpackTestSupport.Collector();
        assertEquals(HpackDecoder.DECODED, decoder.decode(block, 0, block.capacity(), collector), () -> "" + decoder.error());
        assertEquals(expected, collector.fields);
    }

    private static void assertError(
        HpackDecoder decoder,
        String hex,
        HpackError expected)
    {
        final UnsafeBuffer block = hex(hex);
        final HpackTestSupport.Collector collector = new HpackTestSupport.Collector();
        assertEquals(HpackDecoder.COMPRESSION_ERROR, decoder.decode(block, 0, block.capacity(), collector));
        assertEquals(expected, decoder.error());
    }
}
