/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.zilla.bindings.http.codec.hpack.HpackDecoder;
import io.zilla.bindings.http.codec.hpack.HpackEncoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * A real peer for the frames: netty-codec-http2's DefaultHttp2FrameWriter writes every frame type (padding,
 * priority fields, a header block split into CONTINUATION) and our decoder and views read them; our writer's
 * frames are read by netty's DefaultHttp2FrameReader.
 */
class Http2FrameNettyInteropTest
{
    private final EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    private final ChannelHandlerContext ctx = channel.pipeline().firstContext();

    @Test
    void shouldReadWhatNettyWrites() throws Http2Exception
    {
        final DefaultHttp2FrameWriter netty = new DefaultHttp2FrameWriter();
        netty.writeSettings(ctx, new io.netty.handler.codec.http2.Http2Settings().pushEnabled(false)
            .maxConcurrentStreams(100).initialWindowSize(1 << 20).maxFrameSize(32768).maxHeaderListSize(16384),
            ctx.newPromise());
        netty.writeSettingsAck(ctx, ctx.newPromise());
        netty.writePing(ctx, false, 42L, ctx.newPromise());
        netty.writePing(ctx, true, 42L, ctx.newPromise());
        netty.writeWindowUpdate(ctx, 0, 1000, ctx.newPromise());
        netty.writePriority(ctx, 3, 1, (short) 32, true, ctx.newPromise());
        netty.writeHeaders(ctx, 3, headers("x-request", "one"), 1, (short) 16, false, 5, false, ctx.newPromise());
        netty.writeData(ctx, 3, Unpooled.copiedBuffer("hello", US_ASCII), 10, true, ctx.newPromise());
        netty.writeRstStream(ctx, 3, Http2ErrorCode.CANCEL, ctx.newPromise());
        netty.writePushPromise(ctx, 3, 4, headers("x-promise", "two"), 0, ctx.newPromise());
        // a block over the 16384 bytes of a frame: HEADERS then CONTINUATION
        netty.writeHeaders(ctx, 5, headers("x-large", "z".repeat(20_000)), 0, true, ctx.newPromise());
        netty.writeGoAway(ctx, 5, Http2ErrorCode.NO_ERROR, Unpooled.copiedBuffer("bye", US_ASCII), ctx.newPromise());

        final List<String> frames = readFrames(outbound());
        assertEquals(List.of(
            "SETTINGS ENABLE_PUSH=0 MAX_CONCURRENT_STREAMS=100 INITIAL_WINDOW_SIZE=1048576 MAX_FRAME_SIZE=32768"
                + " MAX_HEADER_LIST_SIZE=16384",
            "SETTINGS ACK",
            "PING 42",
            "PING ACK 42",
            "WINDOW_UPDATE 0 1000",
            "PRIORITY 3 on 1 weight 32 exclusive",
            "HEADERS 3 on 1 weight 16 [x-request: one]",
            "DATA 3 hello end",
            "RST_STREAM 3 CANCEL",
            "PUSH_PROMISE 3 promises 4 [x-promise: two]",
            "HEADERS 5 end",
            "CONTINUATION 5 [x-large: " + "z".repeat(20_000) + "]",
            "GOAWAY 5 NO_ERROR bye"), frames);
    }

    @Test
    void shouldBeReadByNetty() throws Http2Exception
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8192]);
        final UnsafeBuffer data = new UnsafeBuffer("hello".getBytes(US_ASCII));
        final HpackEncoder encoder = new HpackEncoder(4096);
        int limit = Http2FrameWriter.settings(buffer, 0, new Http2Settings().set(Http2Settings.ENABLE_PUSH, 0)
            .set(Http2Settings.MAX_CONCURRENT_STREAMS, 100).set(Http2Settings.INITIAL_WINDOW_SIZE, 65536));
        limit = Http2FrameWriter.settingsAck(buffer, limit);
        limit = Http2FrameWriter.ping(buffer, limit, true, 7L);
        limit = Http2FrameWriter.windowUpdate(buffer, limit, 1, 500);
        limit = Http2FrameWriter.priority(buffer, limit, 1, 0, false, 256);

        // HEADERS with the block written in place after the frame header
        final UnsafeBuffer name = new UnsafeBuffer("content-type".getBytes(US_ASCII));
        final UnsafeBuffer value = new UnsafeBuffer("text/plain".getBytes(US_ASCII));
        int block = encoder.beginBlock(buffer, limit + Http2FrameFW.HEADER_SIZE);
        block = encoder.encodeStatus(buffer, block, buffer.capacity(), 200);
        block = encoder.encode(buffer, block, buffer.capacity(), name, 0, name.capacity(), value, 0, value.capacity(), false);
        Http2FrameWriter.header(buffer, limit, block - limit - Http2FrameFW.HEADER_SIZE, Http2FrameType.HEADERS,
            Http2Flags.END_HEADERS, 1);
        limit = block;

        limit = Http2FrameWriter.data(buffer, limit, 1, true, data, 0, data.capacity(), 3);

        // a block split across HEADERS (padded) and CONTINUATION
        final UnsafeBuffer fields = new UnsafeBuffer(new byte[256]);
        final UnsafeBuffer xName = new UnsafeBuffer("x-split".getBytes(US_ASCII));
        final UnsafeBuffer xValue = new UnsafeBuffer("across two frames".getBytes(US_ASCII));
        final int fieldsLimit = encoder.encode(fields, 0, fields.capacity(), xName, 0, xName.capacity(),
            xValue, 0, xValue.capacity(), false);
        limit = Http2FrameWriter.headers(buffer, limit, 3, Http2Flags.END_STREAM, fields, 0, 4, 2);
        limit = Http2FrameWriter.continuation(buffer, limit, 3, true, fields, 4, fieldsLimit - 4);

        limit = Http2FrameWriter.rstStream(buffer, limit, 3, Http2ErrorCode.REFUSED_STREAM);
        limit = Http2FrameWriter.goaway(buffer, limit, 3, Http2ErrorCode.PROTOCOL_ERROR, data, 0, data.capacity());

        final byte[] bytes = new byte[limit];
        buffer.getBytes(0, bytes);
        final List<String> events = new ArrayList<>();
        new DefaultHttp2FrameReader(false).readFrame(ctx, Unpooled.wrappedBuffer(bytes), new Recorder(events));
        assertEquals(List.of(
            "SETTINGS {ENABLE_PUSH=0, MAX_CONCURRENT_STREAMS=100, INITIAL_WINDOW_SIZE=65536}",
            "SETTINGS ACK",
            "PING ACK 7",
            "WINDOW_UPDATE 1 500",
            "PRIORITY 1 on 0 weight 256",
            "HEADERS 1 [:status: 200, content-type: text/plain]",
            "DATA 1 hello padding 4 end",
            "HEADERS 3 [x-split: across two frames] end",
            "RST_STREAM 3 7",
            "GOAWAY 3 1 hello"), events);
    }

    private List<String> readFrames(
        DirectBuffer buffer)
    {
        final Http2FrameDecoder decoder = new Http2FrameDecoder(Http2FrameFW.DEFAULT_MAX_FRAME_SIZE);
        final HpackDecoder hpack = new HpackDecoder(4096, 1 << 16);
        final ExpandableArrayBuffer block = new ExpandableArrayBuffer();
        final List<String> frames = new ArrayList<>();
        int blockLength = 0;
        int offset = 0;
        int size;
        while ((size = decoder.decode(buffer, offset, buffer.capacity())) > 0)
        {
            assertEquals(Http2ErrorCode.NO_ERROR, decoder.error());
            final Http2FrameFW frame = decoder.frame();
            final int streamId = frame.streamId();
            String text = Http2FrameType.name(frame.type()) + " ";
            int fragmentOffset = -1;
            int fragmentLength = 0;
            boolean endHeaders = false;
            switch (frame.type())
            {
                case Http2FrameType.SETTINGS:
                    final Http2SettingsFW settings = new Http2SettingsFW().wrap(buffer, offset, offset + size);
                    text = settings.ack() ? "SETTINGS ACK" : "SETTINGS" + settingsText(settings);
                    break;
                case Http2FrameType.PING:
                    final Http2PingFW ping = new Http2PingFW().wrap(buffer, offset, offset + size);
                    text += (ping.ack() ? "ACK " : "") + ping.opaque();
                    break;
                case Http2FrameType.WINDOW_UPDATE:
                    text += streamId + " " + new Http2WindowUpdateFW().wrap(buffer, offset, offset + size).increment();
                    break;
                case Http2FrameType.PRIORITY:
                    final Http2PriorityFW priority = new Http2PriorityFW().wrap(buffer, offset, offset + size);
                    text += streamId + " on " + priority.dependency() + " weight " + priority.weight()
                        + (priority.exclusive() ? " exclusive" : "");
                    break;
                case Http2FrameType.HEADERS:
                    final Http2HeadersFW headers = new Http2HeadersFW().wrap(buffer, offset, offset + size);
                    text += streamId
                        + (headers.hasPriority() ? " on " + headers.dependency() + " weight " + headers.weight() : "")
                        + (headers.endStream() ? " end" : "");
                    fragmentOffset = headers.fragmentOffset();
                    fragmentLength = headers.fragmentLength();
                    endHeaders = headers.endHeaders();
                    break;
                case Http2FrameType.PUSH_PROMISE:
                    final Http2PushPromiseFW promise = new Http2PushPromiseFW().wrap(buffer, offset, offset + size);
                    text += streamId + " promises " + promise.promisedStreamId();
                    fragmentOffset = promise.fragmentOffset();
                    fragmentLength = promise.fragmentLength();
                    endHeaders = promise.endHeaders();
                    break;
                case Http2FrameType.CONTINUATION:
                    final Http2ContinuationFW continuation = new Http2ContinuationFW().wrap(buffer, offset, offset + size);
                    text += streamId;
                    fragmentOffset = continuation.fragmentOffset();
                    fragmentLength = continuation.fragmentLength();
                    endHeaders = continuation.endHeaders();
                    break;
                case Http2FrameType.DATA:
                    final Http2DataFW data = new Http2DataFW().wrap(buffer, offset, offset + size);
                    text += streamId + " " + buffer.getStringWithoutLengthAscii(data.dataOffset(), data.dataLength())
                        + (data.endStream() ? " end" : "");
                    break;
                case Http2FrameType.RST_STREAM:
                    final Http2RstStreamFW reset = new Http2RstStreamFW().wrap(buffer, offset, offset + size);
                    text += streamId + " " + Http2ErrorCode.name(reset.errorCode());
                    break;
                case Http2FrameType.GOAWAY:
                    final Http2GoawayFW goaway = new Http2GoawayFW().wrap(buffer, offset, offset + size);
                    text += goaway.lastStreamId() + " " + Http2ErrorCode.name(goaway.errorCode()) + " "
                        + buffer.getStringWithoutLengthAscii(goaway.debugOffset(), goaway.debugLength());
                    break;
                default:
                    break;
            }
            if (fragmentOffset >= 0)
            {
                block.putBytes(blockLength, buffer, fragmentOffset, fragmentLength);
                blockLength += fragmentLength;
                if (endHeaders)
                {
                    final List<String> fields = new ArrayList<>();
                    assertEquals(HpackDecoder.DECODED, hpack.decode(block, 0, blockLength,
                        (n, no, nl, v, vo, vl, never) -> fields.add(n.getStringWithoutLengthAscii(no, nl) + ": "
                            + v.getStringWithoutLengthAscii(vo, vl))));
                    text += " " + fields;
                    blockLength = 0;
                }
            }
            frames.add(text);
            offset += size;
        }
        assertEquals(buffer.capacity(), offset);
        return frames;
    }

    private static String settingsText(
        Http2SettingsFW settings)
    {
        final String[] names = {"", "HEADER_TABLE_SIZE", "ENABLE_PUSH", "MAX_CONCURRENT_STREAMS", "INITIAL_WINDOW_SIZE",
            "MAX_FRAME_SIZE", "MAX_HEADER_LIST_SIZE"};
        final StringBuilder text = new StringBuilder();
        final Http2Settings applied = new Http2Settings();
        applied.apply(settings);
        for (int id = Http2Settings.HEADER_TABLE_SIZE; id <= Http2Settings.MAX_HEADER_LIST_SIZE; id++)
        {
            if (applied.get(id) != new Http2Settings().get(id))
            {
                text.append(' ').append(names[id]).append('=').append(applied.get(id));
            }
        }
        return text.toString();
    }

    private DirectBuffer outbound()
    {
        channel.flushOutbound();
        final ByteBuf all = Unpooled.buffer();
        ByteBuf next;
        while ((next = channel.readOutbound()) != null)
        {
            all.writeBytes(next);
            next.release();
        }
        final byte[] bytes = new byte[all.readableBytes()];
        all.readBytes(bytes);
        return new UnsafeBuffer(bytes);
    }

    private static Http2Headers headers(
        String name,
        String value)
    {
        return new DefaultHttp2Headers(false).add(name, value);
    }

    private static String text(
        Http2Headers headers)
    {
        final List<String> fields = new ArrayList<>();
        for (Map.Entry<CharSequence, CharSequence> field : headers)
        {
            fields.add(field.getKey() + ": " + field.getValue());
        }
        return fields.toString();
    }

    private static final class Recorder extends Http2FrameAdapter
    {
        private final List<String> events;

        Recorder(
            List<String> events)
        {
            this.events = events;
        }

        @Override
        public void onSettingsRead(
            ChannelHandlerContext ctx,
            io.netty.handler.codec.http2.Http2Settings settings)
        {
            final StringBuilder text = new StringBuilder();
            for (char id = 1; id <= 6; id++)
            {
                final Long value = settings.get(id);
                if (value != null)
                {
                    final String[] names = {"", "HEADER_TABLE_SIZE", "ENABLE_PUSH", "MAX_CONCURRENT_STREAMS",
                        "INITIAL_WINDOW_SIZE", "MAX_FRAME_SIZE", "MAX_HEADER_LIST_SIZE"};
                    text.append(text.length() == 0 ? "" : ", ").append(names[id]).append('=').append(value);
                }
            }
            events.add("SETTINGS {" + text + "}");
        }

        @Override
        public void onSettingsAckRead(
            ChannelHandlerContext ctx)
        {
            events.add("SETTINGS ACK");
        }

        @Override
        public void onPingAckRead(
            ChannelHandlerContext ctx,
            long data)
        {
            events.add("PING ACK " + data);
        }

        @Override
        public void onWindowUpdateRead(
            ChannelHandlerContext ctx,
            int streamId,
            int windowSizeIncrement)
        {
            events.add("WINDOW_UPDATE " + streamId + " " + windowSizeIncrement);
        }

        @Override
        public void onPriorityRead(
            ChannelHandlerContext ctx,
            int streamId,
            int streamDependency,
            short weight,
            boolean exclusive)
        {
            events.add("PRIORITY " + streamId + " on " + streamDependency + " weight " + weight
                + (exclusive ? " exclusive" : ""));
        }

        @Override
        public void onHeadersRead(
            ChannelHandlerContext ctx,
            int streamId,
            Http2Headers headers,
            int padding,
            boolean endStream)
        {
            events.add("HEADERS " + streamId + " " + text(headers) + (endStream ? " end" : ""));
        }

        @Override
        public int onDataRead(
            ChannelHandlerContext ctx,
            int streamId,
            ByteBuf data,
            int padding,
            boolean endOfStream)
        {
            events.add("DATA " + streamId + " " + data.toString(ISO_8859_1) + " padding " + padding
                + (endOfStream ? " end" : ""));
            return data.readableBytes() + padding;
        }

        @Override
        public void onRstStreamRead(
            ChannelHandlerContext ctx,
            int streamId,
            long errorCode)
        {
            events.add("RST_STREAM " + streamId + " " + errorCode);
        }

        @Override
        public void onGoAwayRead(
            ChannelHandlerContext ctx,
            int lastStreamId,
            long errorCode,
            ByteBuf debugData)
        {
            events.add("GOAWAY " + lastStreamId + " " + errorCode + " " + debugData.toString(ISO_8859_1));
        }
    }
}
