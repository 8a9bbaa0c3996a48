/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;

import io.zilla.bindings.http.codec.hpack.HpackDecoder;
import io.zilla.bindings.http.codec.hpack.HpackEncoder;
import io.zilla.bindings.http.codec.hpack.HpackHeaderSink;
import io.zilla.bindings.http.codec.hpack.HpackIndexing;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * An HTTP/2 connection over cleartext with prior knowledge (RFC 9113 section 3.3): the preface and SETTINGS, then
 * many concurrent streams, each one request: HEADERS (HPACK, every field indexed, so that a producer's repeated
 * {@code :path}, {@code :authority} and {@code content-length} become one byte each) and the body in DATA frames
 * within the server's connection and stream windows. All the requests taken in one pump go out in one write, and a
 * read usually holds many responses.
 * <p>
 * Requests are taken once the server's first SETTINGS came, up to the smaller of {@code httpMaxStreams} and its
 * SETTINGS_MAX_CONCURRENT_STREAMS. A RST_STREAM fails its request; a GOAWAY fails the streams above its last stream id
 * and takes no more, the connection being opened again once the others are answered (so is one whose stream ids
 * ran out). The client announces large receive windows (a response's body is a few bytes) and no server push.
 */
final class H2cConnection extends HttpConnection
{
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private static final int DATA = 0;
    private static final int HEADERS = 1;
    private static final int RST_STREAM = 3;
    private static final int SETTINGS = 4;
    private static final int PUSH_PROMISE = 5;
    private static final int PING = 6;
    private static final int GOAWAY = 7;
    private static final int WINDOW_UPDATE = 8;
    private static final int CONTINUATION = 9;

    private static final int END_STREAM = 0x1;
    private static final int ACK = 0x1;
    private static final int END_HEADERS = 0x4;
    private static final int PADDED = 0x8;
    private static final int PRIORITY = 0x20;

    private static final int FRAME_HEADER = 9;
    private static final int DEFAULT_WINDOW = 65_535;
    private static final int MAX_FRAME = 16_384;
    private static final int STREAM_RECEIVE_WINDOW = 1 << 24;
    private static final int CONNECTION_RECEIVE_WINDOW = 1 << 30;
    private static final int LAST_STREAM_ID = 0x7fff_fff0;
    private static final int HEADER_LIST_LIMIT = 64 << 10;

    private static final UnsafeBuffer METHOD = ascii(":method");
    private static final UnsafeBuffer METHOD_POST = ascii("POST");
    private static final UnsafeBuffer METHOD_GET = ascii("GET");
    private static final UnsafeBuffer SCHEME = ascii(":scheme");
    private static final UnsafeBuffer SCHEME_HTTP = ascii("http");
    private static final UnsafeBuffer AUTHORITY = ascii(":authority");
    private static final UnsafeBuffer PATH = ascii(":path");
    private static final UnsafeBuffer CONTENT_TYPE = ascii("content-type");
    private static final UnsafeBuffer OCTET_STREAM = ascii("application/octet-stream");
    private static final UnsafeBuffer CONTENT_LENGTH = ascii("content-length");
    private static final byte[] STATUS = ":status".getBytes(StandardCharsets.US_ASCII);

    private final int maxStreams;
    private final UnsafeBuffer authority;
    private final UnsafeBuffer out = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer field = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer fieldValue = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer digits = new UnsafeBuffer(new byte[20]);
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final Int2ObjectHashMap<Stream> streams = new Int2ObjectHashMap<>();
    private final ArrayDeque<Stream> sending = new ArrayDeque<>();
    private final ArrayDeque<Stream> pool = new ArrayDeque<>();
    private final HpackHeaderSink sink = this::onHeader;

    private HpackEncoder encoder;
    private HpackDecoder decoder;
    private boolean settingsReceived;
    private boolean draining;
    private int peerMaxStreams;
    private int peerInitialWindow;
    private int peerMaxFrame;
    private long sendWindow;
    private long receivedUnacknowledged;
    private int nextStreamId;

    // a read's incomplete frame, kept for the next read
    private byte[] partial = new byte[FRAME_HEADER + MAX_FRAME];
    private int partialLength;
    // a header block split over HEADERS and CONTINUATION frames
    private byte[] block = new byte[MAX_FRAME];
    private int blockLength;
    private int blockStreamId;
    private boolean blockEndStream;
    // what the decoder's sink found in the block being decoded
    private int decodedStatus;
    private Stream decodedStream;

    H2cConnection(HttpLoadClient.SelectorThread thread, HttpTarget target, int maxStreams)
    {
        super(thread, target, 64 << 10);
        this.maxStreams = maxStreams;
        this.authority = ascii(target.authority);
    }

    @Override
    boolean canTake()
    {
        return connected && settingsReceived && !draining && streams.size() < Math.min(maxStreams, peerMaxStreams);
    }

    @Override
    int inFlight()
    {
        return streams.size();
    }

    @Override
    void onConnected()
    {
        encoder = new HpackEncoder(4096).indexing(HpackIndexing.ALL);
        decoder = new HpackDecoder(4096, HEADER_LIST_LIMIT);
        settingsReceived = false;
        draining = false;
        peerMaxStreams = Integer.MAX_VALUE;
        peerInitialWindow = DEFAULT_WINDOW;
        peerMaxFrame = MAX_FRAME;
        sendWindow = DEFAULT_WINDOW;
        receivedUnacknowledged = 0;
        nextStreamId = 1;
        partialLength = 0;
        blockStreamId = 0;
        reserve(PREFACE.length + FRAME_HEADER + 12 + FRAME_HEADER + 4);
        writeBuffer.put(PREFACE);
        frameHeader(12, SETTINGS, 0, 0);
        writeBuffer.putShort((short) 0x2).putInt(0); // SETTINGS_ENABLE_PUSH
        writeBuffer.putShort((short) 0x4).putInt(STREAM_RECEIVE_WINDOW); // SETTINGS_INITIAL_WINDOW_SIZE
        frameHeader(4, WINDOW_UPDATE, 0, 0);
        writeBuffer.putInt(CONNECTION_RECEIVE_WINDOW - DEFAULT_WINDOW);
        flush();
    }

    @Override
    void take(HttpRequest request)
    {
        final Stream stream = pool.isEmpty() ? new Stream() : pool.poll();
        stream.id = nextStreamId;
        stream.request = request;
        stream.window = peerInitialWindow;
        stream.sent = 0;
        stream.status = 0;
        nextStreamId += 2;
        draining = nextStreamId > LAST_STREAM_ID;
        streams.put(stream.id, stream);

        // each field needs its name, value and FIELD_OVERHEAD free, else encode writes nothing and returns -1
        int fields = authority.capacity() + request.path.length + 256;
        if (request.headers != null)
        {
            for (byte[] header : request.headers)
            {
                fields += header.length + HpackEncoder.FIELD_OVERHEAD;
            }
        }
        reserve(FRAME_HEADER + fields);
        out.wrap(writeBuffer);
        final int start = writeBuffer.position();
        final int limit = out.capacity();
        int cursor = encoder.beginBlock(out, start + FRAME_HEADER);
        cursor = encoder.encode(out, cursor, limit, METHOD, 0, METHOD.capacity(),
            request.post ? METHOD_POST : METHOD_GET, 0, request.post ? METHOD_POST.capacity() : METHOD_GET.capacity(),
            false);
        cursor = encoder.encode(out, cursor, limit, SCHEME, 0, SCHEME.capacity(), SCHEME_HTTP, 0, 4, false);
        cursor = encoder.encode(out, cursor, limit, AUTHORITY, 0, AUTHORITY.capacity(), authority, 0,
            authority.capacity(), false);
        fieldValue.wrap(request.path);
        cursor = encoder.encode(out, cursor, limit, PATH, 0, PATH.capacity(), fieldValue, 0, request.path.length, false);
        if (request.post)
        {
            cursor = encoder.encode(out, cursor, limit, CONTENT_TYPE, 0, CONTENT_TYPE.capacity(), OCTET_STREAM, 0,
                OCTET_STREAM.capacity(), false);
            final int length = putDigits(request.body.length);
            cursor = encoder.encode(out, cursor, limit, CONTENT_LENGTH, 0, CONTENT_LENGTH.capacity(), digits, 0, length,
                false);
        }
        if (request.headers != null)
        {
            for (int i = 0; i + 1 < request.headers.length; i += 2)
            {
                field.wrap(request.headers[i]);
                fieldValue.wrap(request.headers[i + 1]);
                cursor = encoder.encode(out, cursor, limit, field, 0, field.capacity(), fieldValue, 0,
                    fieldValue.capacity(), false);
            }
        }
        if (cursor < 0 || cursor - start - FRAME_HEADER > peerMaxFrame)
        {
            throw new IllegalStateException("request headers larger than a frame");
        }
        final boolean body = request.post && request.body.length > 0;
        writeBuffer.position(start);
        frameHeader(cursor - start - FRAME_HEADER, HEADERS, END_HEADERS | (body ? 0 : END_STREAM), stream.id);
        writeBuffer.position(cursor);
        if (body)
        {
            sending.add(stream);
            sendData();
        }
    }

    @Override
    void onRead(ByteBuffer buffer) throws IOException
    {
        final byte[] bytes;
        int offset;
        final int limit;
        if (partialLength == 0)
        {
            bytes = buffer.array();
            offset = buffer.position();
            limit = buffer.limit();
        }
        else
        {
            if (partial.length < partialLength + buffer.remaining())
            {
                partial = Arrays.copyOf(partial, partialLength + buffer.remaining());
            }
            buffer.get(partial, partialLength, buffer.remaining());
            bytes = partial;
            offset = 0;
            limit = partialLength + buffer.limit();
            partialLength = 0;
        }
        final int written = writeBuffer.position();
        // a frame may end this connection (a GOAWAY's last stream answered) and open the next one at once
        final Object connection = channel;
        while (limit - offset >= FRAME_HEADER && channel == connection)
        {
            final int length = (bytes[offset] & 0xff) << 16 | (bytes[offset + 1] & 0xff) << 8 | bytes[offset + 2] & 0xff;
            if (length > MAX_FRAME)
            {
                throw new IOException("a frame of " + length + " bytes, over the SETTINGS_MAX_FRAME_SIZE of 16384");
            }
            if (limit - offset < FRAME_HEADER + length)
            {
                break;
            }
            final int type = bytes[offset + 3] & 0xff;
            final int flags = bytes[offset + 4] & 0xff;
            final int streamId = readInt(bytes, offset + 5) & 0x7fff_ffff;
            onFrame(type, flags, streamId, bytes, offset + FRAME_HEADER, length);
            offset += FRAME_HEADER + length;
        }
        if (channel != connection)
        {
            return;
        }
        if (offset < limit)
        {
            if (bytes != partial && partial.length < limit - offset)
            {
                partial = new byte[limit - offset];
            }
            System.arraycopy(bytes, offset, partial, 0, limit - offset);
            partialLength = limit - offset;
        }
        if (writeBuffer.position() > written)
        {
            flush();
        }
    }

    @Override
    void failInFlight(Throwable cause)
    {
        sending.clear();
        if (!streams.isEmpty())
        {
            final Stream[] failed = streams.values().toArray(new Stream[0]);
            streams.clear();
            for (Stream stream : failed)
            {
                final HttpRequest request = stream.request;
                stream.request = null;
                pool.add(stream);
                request.listener.onFailure(cause);
            }
        }
    }

    private void onFrame(int type, int flags, int streamId, byte[] bytes, int offset, int length) throws IOException
    {
        if (blockStreamId != 0 && type != CONTINUATION)
        {
            throw new IOException("a frame of type " + type + " in a header block");
        }
        switch (type)
        {
            case DATA -> onData(flags, streamId, bytes, offset, length);
            case HEADERS -> onHeaders(flags, streamId, bytes, offset, length);
            case CONTINUATION ->
            {
                if (streamId != blockStreamId)
                {
                    throw new IOException("CONTINUATION of stream " + streamId + " outside its header block");
                }
                append(bytes, offset, length);
                if ((flags & END_HEADERS) != 0)
                {
                    blockStreamId = 0;
                    decode(streamId, block, 0, blockLength, blockEndStream);
                }
            }
            case RST_STREAM ->
            {
                final Stream stream = streams.get(streamId);
                if (stream != null)
                {
                    finish(stream, new IOException("stream reset by the server, error code "
                        + (length >= 4 ? readInt(bytes, offset) : -1)));
                }
            }
            case SETTINGS -> onSettings(flags, bytes, offset, length);
            case PING ->
            {
                if ((flags & ACK) == 0 && length == 8)
                {
                    reserve(FRAME_HEADER + 8);
                    frameHeader(8, PING, ACK, 0);
                    writeBuffer.put(bytes, offset, 8);
                }
            }
            case GOAWAY -> onGoaway(readInt(bytes, offset) & 0x7fff_ffff, length >= 8 ? readInt(bytes, offset + 4) : 0);
            case WINDOW_UPDATE ->
            {
                final int increment = readInt(bytes, offset) & 0x7fff_ffff;
                if (streamId == 0)
                {
                    sendWindow += increment;
                }
                else
                {
                    final Stream stream = streams.get(streamId);
                    if (stream != null)
                    {
                        stream.window += increment;
                    }
                }
                sendData();
            }
            case PUSH_PROMISE -> throw new IOException("PUSH_PROMISE after SETTINGS_ENABLE_PUSH 0");
            default ->
            {
                // PRIORITY and unknown frame types are ignored (RFC 9113 section 5.5)
            }
        }
    }

    private void onData(int flags, int streamId, byte[] bytes, int offset, int length)
    {
        receivedUnacknowledged += length;
        if (receivedUnacknowledged > CONNECTION_RECEIVE_WINDOW / 2)
        {
            windowUpdate(0, (int) receivedUnacknowledged);
            receivedUnacknowledged = 0;
        }
        final Stream stream = streams.get(streamId);
        if (stream == null)
        {
            return;
        }
        int start = offset;
        int end = offset + length;
        if ((flags & PADDED) != 0 && length > 0)
        {
            end -= bytes[offset] & 0xff;
            start++;
        }
        stream.received += length;
        if (stream.received > STREAM_RECEIVE_WINDOW / 2 && (flags & END_STREAM) == 0)
        {
            windowUpdate(streamId, (int) stream.received);
            stream.received = 0;
        }
        if (end > start)
        {
            stream.request.listener.onBody(bytes, start, end - start);
        }
        if ((flags & END_STREAM) != 0)
        {
            finish(stream, null);
        }
    }

    private void onHeaders(int flags, int streamId, byte[] bytes, int offset, int length) throws IOException
    {
        int start = offset;
        int end = offset + length;
        if ((flags & PADDED) != 0)
        {
            end -= bytes[start] & 0xff;
            start++;
        }
        if ((flags & PRIORITY) != 0)
        {
            start += 5;
        }
        if (end < start)
        {
            throw new IOException("HEADERS shorter than its padding and priority");
        }
        final boolean endStream = (flags & END_STREAM) != 0;
        if ((flags & END_HEADERS) != 0)
        {
            decode(streamId, bytes, start, end - start, endStream);
        }
        else
        {
            blockStreamId = streamId;
            blockEndStream = endStream;
            blockLength = 0;
            append(bytes, start, end - start);
        }
    }

    private void decode(int streamId, byte[] bytes, int offset, int length, boolean endStream) throws IOException
    {
        final Stream stream = streams.get(streamId);
        decodedStream = stream;
        decodedStatus = 0;
        view.wrap(bytes);
        // the decoder must see every block, the dynamic table being the connection's, whether the stream is known or not
        if (decoder.decode(view, offset, length, sink) == HpackDecoder.COMPRESSION_ERROR)
        {
            throw new IOException("HPACK: " + decoder.error());
        }
        decodedStream = null;
        if (stream != null)
        {
            if (stream.status == 0 && decodedStatus >= 200)
            {
                stream.status = decodedStatus;
            }
            if (endStream)
            {
                finish(stream, null);
            }
        }
    }

    private void onHeader(DirectBuffer name, int nameOffset, int nameLength, DirectBuffer value, int valueOffset,
        int valueLength, boolean neverIndexed)
    {
        if (decodedStream != null && nameLength == STATUS.length && valueLength == 3)
        {
            for (int i = 0; i < nameLength; i++)
            {
                if (name.getByte(nameOffset + i) != STATUS[i])
                {
                    return;
                }
            }
            decodedStatus = (value.getByte(valueOffset) - '0') * 100 + (value.getByte(valueOffset + 1) - '0') * 10
                + value.getByte(valueOffset + 2) - '0';
        }
    }

    private void onSettings(int flags, byte[] bytes, int offset, int length) throws IOException
    {
        if ((flags & ACK) != 0)
        {
            return;
        }
        if (length % 6 != 0)
        {
            throw new IOException("SETTINGS of " + length + " bytes");
        }
        for (int i = offset; i < offset + length; i += 6)
        {
            final int id = (bytes[i] & 0xff) << 8 | bytes[i + 1] & 0xff;
            final int value = readInt(bytes, i + 2);
            switch (id)
            {
                case 0x1 -> encoder.settingsTableSize(value & 0xffff_ffffL);
                case 0x3 -> peerMaxStreams = value < 0 ? Integer.MAX_VALUE : value;
                case 0x4 ->
                {
                    final int delta = value - peerInitialWindow;
                    peerInitialWindow = value;
                    streams.values().forEach(stream -> stream.window += delta);
                }
                case 0x5 -> peerMaxFrame = value;
                default ->
                {
                    // others concern us not
                }
            }
        }
        reserve(FRAME_HEADER);
        frameHeader(0, SETTINGS, ACK, 0);
        settingsReceived = true;
        sendData();
    }

    private void onGoaway(int lastStreamId, int errorCode)
    {
        draining = true;
        final IOException cause = new IOException("GOAWAY from the server, error code " + errorCode);
        final Stream[] above = streams.values().stream().filter(s -> s.id > lastStreamId).toArray(Stream[]::new);
        for (Stream stream : above)
        {
            finish(stream, cause);
        }
    }

    /** The stream ended: answered ({@code failure} null) or failed; its request is told and the stream reused. */
    private void finish(Stream stream, Throwable failure)
    {
        streams.remove(stream.id);
        sending.remove(stream);
        final HttpRequest request = stream.request;
        final int status = stream.status;
        stream.request = null;
        stream.received = 0;
        pool.add(stream);
        if (failure != null)
        {
            request.listener.onFailure(failure);
        }
        else if (status == 0)
        {
            request.listener.onFailure(new IOException("stream ended without a response status"));
        }
        else
        {
            request.listener.onResponse(status);
        }
        if (draining && streams.isEmpty())
        {
            // GOAWAY, or the stream ids ran out: a new connection for the requests that wait
            close();
            connect();
        }
    }

    /** Sends the bodies of the streams that are sending, as far as the connection's and streams' windows let them. */
    private void sendData()
    {
        for (int n = sending.size(); n > 0 && sendWindow > 0; n--)
        {
            final Stream stream = sending.poll();
            final byte[] body = stream.request.body;
            final int length = (int) Math.min(Math.min(body.length - stream.sent, stream.window),
                Math.min(sendWindow, peerMaxFrame));
            if (length > 0)
            {
                final boolean last = stream.sent + length == body.length;
                reserve(FRAME_HEADER + length);
                frameHeader(length, DATA, last ? END_STREAM : 0, stream.id);
                writeBuffer.put(body, stream.sent, length);
                stream.sent += length;
                stream.window -= length;
                sendWindow -= length;
                if (!last)
                {
                    sending.add(stream);
                }
            }
            else
            {
                sending.add(stream);
            }
        }
    }

    private void windowUpdate(int streamId, int increment)
    {
        reserve(FRAME_HEADER + 4);
        frameHeader(4, WINDOW_UPDATE, 0, streamId);
        writeBuffer.putInt(increment);
    }

    private void frameHeader(int length, int type, int flags, int streamId)
    {
        writeBuffer.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length)
            .put((byte) type).put((byte) flags).putInt(streamId);
    }

    private void append(byte[] bytes, int offset, int length)
    {
        if (blockLength + length > block.length)
        {
            block = Arrays.copyOf(block, Math.max(block.length * 2, blockLength + length));
        }
        System.arraycopy(bytes, offset, block, blockLength, length);
        blockLength += length;
    }

    private int putDigits(int value)
    {
        int length = 1;
        for (int rest = value / 10; rest != 0; rest /= 10)
        {
            length++;
        }
        int rest = value;
        for (int i = length - 1; i >= 0; i--)
        {
            digits.putByte(i, (byte) ('0' + rest % 10));
            rest /= 10;
        }
        return length;
    }

    private static int readInt(byte[] bytes, int offset)
    {
        return (bytes[offset] & 0xff) << 24 | (bytes[offset + 1] & 0xff) << 16 | (bytes[offset + 2] & 0xff) << 8
            | bytes[offset + 3] & 0xff;
    }

    private static UnsafeBuffer ascii(String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** One stream: its request, how much of the body went, its send window and the response's status. */
    private static final class Stream
    {
        int id;
        HttpRequest request;
        int sent;
        long window;
        long received;
        int status;
    }
}
