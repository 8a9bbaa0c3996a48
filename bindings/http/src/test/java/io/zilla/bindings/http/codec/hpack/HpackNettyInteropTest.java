/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * A real peer: netty's HPACK (netty-codec-http2, through its public DefaultHttp2HeadersEncoder and Decoder)
 * encodes blocks that this decoder reads, and decodes blocks that this encoder writes, over one connection's
 * sequence of blocks each (so both dynamic tables must stay in step), with table size changes on the way.
 */
class HpackNettyInteropTest
{
    private static final int BLOCKS = 400;

    @Test
    void shouldDecodeWhatNettyEncodes() throws Http2Exception
    {
        final Random random = new Random(4220);
        // netty marks authorization as sensitive: it arrives never indexed
        final DefaultHttp2HeadersEncoder netty = new DefaultHttp2HeadersEncoder(
            (name, value) -> AsciiString.contentEqualsIgnoreCase(name, "authorization"), true);
        final HpackDecoder decoder = new HpackDecoder(4096, 1 << 20);
        final ByteBuf out = Unpooled.buffer(1 << 16);
        for (int block = 0; block < BLOCKS; block++)
        {
            if (block == BLOCKS / 2)
            {
                // netty then begins its next block with a size update
                netty.maxHeaderTableSize(1024);
            }
            final List<String[]> fields = fields(random, block);
            out.clear();
            netty.encodeHeaders(1 + 2 * block, headers(fields), out);
            final UnsafeBuffer bytes = new UnsafeBuffer(out.nioBuffer());
            final HpackTestSupport.Collector collector = new HpackTestSupport.Collector();
            assertEquals(HpackDecoder.DECODED, decoder.decode(bytes, 0, bytes.capacity(), collector),
                () -> "" + decoder.error());
            assertEquals(expected(fields, true), collector.fields, "block " + block);
        }
        assertEquals(1024, decoder.table().maxSize());
    }

    @Test
    void shouldBeDecodedByNetty() throws Http2Exception
    {
        final Random random = new Random(7541);
        final HpackEncoder encoder = new HpackEncoder(4096);
        final DefaultHttp2HeadersDecoder netty = new DefaultHttp2HeadersDecoder(false, 1 << 20);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[1 << 16]);
        for (int block = 0; block < BLOCKS; block++)
        {
            if (block == BLOCKS / 2)
            {
                // as if netty's side had sent SETTINGS_HEADER_TABLE_SIZE 512
                encoder.settingsTableSize(512);
            }
            final List<String[]> fields = fields(random, block);
            int limit = encoder.beginBlock(out, 0);
            for (String[] field : fields)
            {
                final UnsafeBuffer name = new UnsafeBuffer(field[0].getBytes(ISO_8859_1));
                final UnsafeBuffer value = new UnsafeBuffer(field[1].getBytes(ISO_8859_1));
                limit = encoder.encode(out, limit, out.capacity(), name, 0, name.capacity(), value, 0, value.capacity(),
                    false);
            }
            final byte[] bytes = new byte[limit];
            out.getBytes(0, bytes);
            final Http2Headers decoded = netty.decodeHeaders(1 + 2 * block, Unpooled.wrappedBuffer(bytes));
            final List<String> actual = new ArrayList<>();
            for (Map.Entry<CharSequence, CharSequence> header : decoded)
            {
                actual.add(latin1(header.getKey()) + ": " + latin1(header.getValue()));
            }
            assertEquals(expected(fields, false), actual, "block " + block);
        }
    }

    // the realistic samples in turn, and random lists: names of lower case letters (netty keeps pseudo-headers
    // first, so only the samples have them, first), values of any byte
    private static List<String[]> fields(
        Random random,
        int block)
    {
        if (block % 3 == 0)
        {
            return List.of(block % 2 == 0 ? HpackSamples.REQUEST : HpackSamples.RESPONSE);
        }
        final List<String[]> fields = new ArrayList<>();
        for (int i = random.nextInt(15); i >= 0; i--)
        {
            final int pick = random.nextInt(10);
            final String name = pick == 0 ? "authorization"
                : pick < 4 ? "x-common-" + random.nextInt(4)
                : text(random, 1 + random.nextInt(20), true);
            final String value = pick > 0 && pick < 3 ? "repeated-value-" + random.nextInt(3)
                : text(random, random.nextInt(random.nextInt(8) == 0 ? 600 : 40), false);
            fields.add(new String[] {name, value});
        }
        return fields;
    }

    private static String text(
        Random random,
        int length,
        boolean name)
    {
        final StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++)
        {
            text.append((char) (name ? 'a' + random.nextInt(26) : random.nextInt(256)));
        }
        return text.toString();
    }

    private static Http2Headers headers(
        List<String[]> fields)
    {
        final Http2Headers headers = new DefaultHttp2Headers(false);
        for (String[] field : fields)
        {
            headers.add(new AsciiString(field[0].getBytes(ISO_8859_1)), new AsciiString(field[1].getBytes(ISO_8859_1)));
        }
        return headers;
    }

    private static List<String> expected(
        List<String[]> fields,
        boolean markSensitive)
    {
        final List<String> expected = new ArrayList<>();
        for (String[] field : fields)
        {
            final boolean sensitive = markSensitive && field[0].equals("authorization");
            expected.add(field[0] + ": " + field[1] + (sensitive ? " (never indexed)" : ""));
        }
        return expected;
    }

    private static String latin1(
        CharSequence text)
    {
        return new String(((AsciiString) text).toByteArray(), ISO_8859_1);
    }
}
