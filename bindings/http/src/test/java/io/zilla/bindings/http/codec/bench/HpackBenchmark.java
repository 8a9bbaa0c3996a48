/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.bench;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.util.AsciiString;
import io.zilla.bindings.http.codec.hpack.HpackDecoder;
import io.zilla.bindings.http.codec.hpack.HpackEncoder;
import io.zilla.bindings.http.codec.hpack.HpackHeaderSink;
import io.zilla.bindings.http.codec.hpack.HpackSamples;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * zilla's HPACK against netty's (netty-codec-http2, through its public DefaultHttp2HeadersEncoder/Decoder), on a
 * browser's GET with cookies and on a server's response (HpackSamples). One operation is a connection's first
 * block of that list (literals, Huffman strings, table insertions) then the same list again (indexes into the
 * dynamic table): encode writes both into a buffer; decode reads both blocks (as zilla's encoder wrote them) and
 * copies every name and value into a buffer, as a server fills an HttpBeginEx (zilla's from its sink, netty's from
 * the Http2Headers it returns; nettyDecodeOnly stops at those). Encoding begins each operation with an empty
 * table (the table size set to 0 and back, on both). Run with {@code -prof gc} for B/op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HpackBenchmark
{
    @Param({"request", "response"})
    public String list;

    private final UnsafeBuffer out = new UnsafeBuffer(new byte[8192]);
    private final UnsafeBuffer copies = new UnsafeBuffer(new byte[8192]);
    private final ByteBuf nettyOut = Unpooled.directBuffer(8192);
    private final HpackHeaderSink sink = this::copy;

    private UnsafeBuffer[][] fields;
    private Http2Headers nettyHeaders;
    private UnsafeBuffer firstBlock;
    private UnsafeBuffer repeatBlock;
    private ByteBuf nettyFirstBlock;
    private ByteBuf nettyRepeatBlock;

    private HpackEncoder encoder;
    private HpackEncoder rawEncoder;
    private HpackDecoder decoder;
    private DefaultHttp2HeadersEncoder nettyEncoder;
    private DefaultHttp2HeadersDecoder nettyDecoder;
    private int copied;

    @Setup
    public void setup() throws Http2Exception
    {
        final String[][] sample = list.equals("request") ? HpackSamples.REQUEST : HpackSamples.RESPONSE;
        fields = HpackSamples.buffers(sample);
        nettyHeaders = new DefaultHttp2Headers(false);
        for (String[] field : sample)
        {
            nettyHeaders.add(new AsciiString(field[0].getBytes(US_ASCII)), new AsciiString(field[1].getBytes(US_ASCII)));
        }

        final HpackEncoder blocks = new HpackEncoder(4096);
        firstBlock = copy(HpackSamples.encode(blocks, fields, out));
        repeatBlock = copy(HpackSamples.encode(blocks, fields, out));
        nettyFirstBlock = Unpooled.wrappedBuffer(firstBlock.byteArray());
        nettyRepeatBlock = Unpooled.wrappedBuffer(repeatBlock.byteArray());

        encoder = new HpackEncoder(4096);
        rawEncoder = new HpackEncoder(4096).huffman(false);
        decoder = new HpackDecoder(4096, 16384);
        nettyEncoder = new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, true);
        nettyDecoder = new DefaultHttp2HeadersDecoder(false, 16384);

        // both decoders read both blocks, twice (the second time with the table the first left)
        for (int i = 0; i < 2; i++)
        {
            if (zillaDecode() != HpackDecoder.DECODED + HpackDecoder.DECODED + copied
                || nettyDecoder.decodeHeaders(1, nettyFirstBlock.readerIndex(0)).size() != sample.length
                || nettyDecoder.decodeHeaders(3, nettyRepeatBlock.readerIndex(0)).size() != sample.length)
            {
                throw new IllegalStateException("blocks not decoded");
            }
        }
    }

    @Benchmark
    public int zillaEncode()
    {
        encoder.settingsTableSize(0);
        encoder.settingsTableSize(4096);
        return HpackSamples.encode(encoder, fields, out) + HpackSamples.encode(encoder, fields, out);
    }

    /** Without Huffman coding, as netty's encoder does for strings under 512 bytes. */
    @Benchmark
    public int zillaEncodeRaw()
    {
        rawEncoder.settingsTableSize(0);
        rawEncoder.settingsTableSize(4096);
        return HpackSamples.encode(rawEncoder, fields, out) + HpackSamples.encode(rawEncoder, fields, out);
    }

    @Benchmark
    public int nettyEncode() throws Http2Exception
    {
        nettyEncoder.maxHeaderTableSize(0);
        nettyEncoder.maxHeaderTableSize(4096);
        nettyOut.clear();
        nettyEncoder.encodeHeaders(1, nettyHeaders, nettyOut);
        nettyEncoder.encodeHeaders(3, nettyHeaders, nettyOut);
        return nettyOut.writerIndex();
    }

    @Benchmark
    public int zillaDecode()
    {
        copied = 0;
        final int first = decoder.decode(firstBlock, 0, firstBlock.capacity(), sink);
        final int repeat = decoder.decode(repeatBlock, 0, repeatBlock.capacity(), sink);
        return first + repeat + copied;
    }

    /** netty's decoder, then each name and value copied out as zilla's sink does (a server fills its HttpBeginEx). */
    @Benchmark
    public int nettyDecode() throws Http2Exception
    {
        copied = 0;
        nettyFirstBlock.readerIndex(0);
        nettyRepeatBlock.readerIndex(0);
        copy(nettyDecoder.decodeHeaders(1, nettyFirstBlock));
        copy(nettyDecoder.decodeHeaders(3, nettyRepeatBlock));
        return copied;
    }

    /** netty's decoder alone: its Http2Headers are the result. */
    @Benchmark
    public void nettyDecodeOnly(
        Blackhole blackhole) throws Http2Exception
    {
        nettyFirstBlock.readerIndex(0);
        nettyRepeatBlock.readerIndex(0);
        blackhole.consume(nettyDecoder.decodeHeaders(1, nettyFirstBlock));
        blackhole.consume(nettyDecoder.decodeHeaders(3, nettyRepeatBlock));
    }

    private void copy(
        Http2Headers headers)
    {
        for (Map.Entry<CharSequence, CharSequence> header : headers)
        {
            final AsciiString name = (AsciiString) header.getKey();
            final AsciiString value = (AsciiString) header.getValue();
            if (copied + name.length() + value.length() > copies.capacity())
            {
                copied = 0;
            }
            copies.putBytes(copied, name.array(), name.arrayOffset(), name.length());
            copied += name.length();
            copies.putBytes(copied, value.array(), value.arrayOffset(), value.length());
            copied += value.length();
        }
    }

    private void copy(
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        DirectBuffer value,
        int valueOffset,
        int valueLength,
        boolean neverIndexed)
    {
        if (copied + nameLength + valueLength > copies.capacity())
        {
            copied = 0;
        }
        copies.putBytes(copied, name, nameOffset, nameLength);
        copied += nameLength;
        copies.putBytes(copied, value, valueOffset, valueLength);
        copied += valueLength;
    }

    private UnsafeBuffer copy(
        int limit)
    {
        final byte[] bytes = new byte[limit];
        out.getBytes(0, bytes);
        return new UnsafeBuffer(bytes);
    }
}
