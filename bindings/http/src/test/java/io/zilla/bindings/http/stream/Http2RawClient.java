/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.zilla.bindings.http.codec.hpack.HpackDecoder;
import io.zilla.bindings.http.codec.hpack.HpackEncoder;
import io.zilla.bindings.http.codec.http2.Http2FrameType;
import io.zilla.bindings.http.codec.http2.Http2Preface;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A raw HTTP/2 client for the bad-input tests: it writes frames as bytes (header blocks encoded with the codec's
 * HPACK encoder, or given as bytes when they are meant to be wrong) and reads the server's frames one by one.
 */
final class Http2RawClient implements AutoCloseable
{
    static final int DATA = Http2FrameType.DATA;
    static final int HEADERS = Http2FrameType.HEADERS;
    static final int RST_STREAM = Http2FrameType.RST_STREAM;
    static final int SETTINGS = Http2FrameType.SETTINGS;
    static final int PING = Http2FrameType.PING;
    static final int GOAWAY = Http2FrameType.GOAWAY;
    static final int WINDOW_UPDATE = Http2FrameType.WINDOW_UPDATE;
    static final int CONTINUATION = Http2FrameType.CONTINUATION;

    static final int END_STREAM = 0x1;
    static final int END_HEADERS = 0x4;

    private final Socket socket;
    private final DataInputStream in;
    private final HpackEncoder encoder = new HpackEncoder(4096);
    private final HpackDecoder decoder = new HpackDecoder(4096, 1 << 20);
    private final UnsafeBuffer block = new UnsafeBuffer(new byte[65536]);

    /** One frame the server sent; a HEADERS frame's :status when it has one (else 0). */
    record Frame(int type, int flags, int streamId, byte[] payload, int status)
    {
        /** The error code of a RST_STREAM or GOAWAY. */
        int errorCode()
        {
            final ByteBuffer bytes = ByteBuffer.wrap(payload);
            return type == GOAWAY ? bytes.getInt(4) : bytes.getInt(0);
        }

        /** The debug text of a GOAWAY (after its last stream id and error code). */
        String debug()
        {
            return new String(payload, 8, payload.length - 8, StandardCharsets.US_ASCII);
        }
    }

    Http2RawClient(int port) throws IOException
    {
        this(HttpPeers.connect(port));
    }

    private Http2RawClient(Socket socket) throws IOException
    {
        this.socket = socket;
        // frames go out as they are written (no Nagle delay between a HEADERS and its DATA)
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    }

    /**
     * A client whose socket receives into a buffer of about {@code bytes} (set before it connects, so that the TCP
     * window stays that small): what the server writes backs up soon when the client does not read.
     */
    static Http2RawClient withReceiveBuffer(int port, int bytes) throws IOException
    {
        final Socket socket = new Socket();
        socket.setReceiveBufferSize(bytes);
        socket.connect(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 10_000);
        socket.setSoTimeout(10_000);
        return new Http2RawClient(socket);
    }

    /** The preface and an empty SETTINGS, then the server's SETTINGS read and acknowledged. */
    Http2RawClient handshake() throws IOException
    {
        write(Http2Preface.PREFACE.byteArray());
        frame(SETTINGS, 0, 0, new byte[0]);
        Frame frame = read();
        while (frame != null && !(frame.type() == SETTINGS && (frame.flags() & 1) == 0))
        {
            frame = read();
        }
        frame(SETTINGS, 1, 0, new byte[0]);
        return this;
    }

    /** The socket's receive buffer from now on: a client that starts reading what it let back up. */
    void receiveBuffer(int bytes) throws IOException
    {
        socket.setReceiveBufferSize(bytes);
    }

    void write(byte[] bytes) throws IOException
    {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    void frame(int type, int flags, int streamId, byte[] payload) throws IOException
    {
        write(bytes(type, flags, streamId, payload));
    }

    /** A frame as bytes, to be written with others in one go. */
    static byte[] bytes(int type, int flags, int streamId, byte[] payload)
    {
        final ByteBuffer frame = ByteBuffer.allocate(9 + payload.length);
        frame.put((byte) (payload.length >>> 16)).putShort((short) payload.length).put((byte) type).put((byte) flags)
            .putInt(streamId).put(payload);
        return frame.array();
    }

    /** A header block of name, value pairs, encoded with HPACK. */
    byte[] block(String... fields)
    {
        int cursor = encoder.beginBlock(block, 0);
        for (int i = 0; i < fields.length; i += 2)
        {
            final byte[] name = fields[i].getBytes(StandardCharsets.US_ASCII);
            final byte[] value = fields[i + 1].getBytes(StandardCharsets.US_ASCII);
            cursor = encoder.encode(block, cursor, block.capacity(), new UnsafeBuffer(name), 0, name.length,
                new UnsafeBuffer(value), 0, value.length, false);
        }
        final byte[] bytes = new byte[cursor];
        block.getBytes(0, bytes);
        return bytes;
    }

    /** A GET of {@code path}, as HEADERS with END_HEADERS (and END_STREAM when {@code end}). */
    void get(int streamId, String path, boolean end) throws IOException
    {
        request(streamId, "GET", path, end);
    }

    void request(int streamId, String method, String path, boolean end) throws IOException
    {
        frame(HEADERS, END_HEADERS | (end ? END_STREAM : 0), streamId,
            block(":method", method, ":scheme", "http", ":authority", "127.0.0.1", ":path", path));
    }

    static byte[] int32(int value)
    {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    /** The next frame, or null when the server closed the connection. */
    Frame read() throws IOException
    {
        try
        {
            final int length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
            final int type = in.readUnsignedByte();
            final int flags = in.readUnsignedByte();
            final int streamId = in.readInt() & 0x7fff_ffff;
            final byte[] payload = new byte[length];
            in.readFully(payload);
            return new Frame(type, flags, streamId, payload, type == HEADERS ? status(flags, payload) : 0);
        }
        catch (EOFException | SocketException ex)
        {
            return null;
        }
    }

    // the server's header blocks are decoded in order, so that the table stays in step (CONTINUATION is not expected)
    private int status(int flags, byte[] payload)
    {
        final int pad = (flags & 0x8) != 0 ? payload[0] & 0xff : 0;
        final int offset = ((flags & 0x8) != 0 ? 1 : 0) + ((flags & 0x20) != 0 ? 5 : 0);
        final int[] status = new int[1];
        final int result = decoder.decode(new UnsafeBuffer(payload), offset, payload.length - offset - pad,
            (name, nameOffset, nameLength, value, valueOffset, valueLength, neverIndexed) ->
            {
                if (nameLength == 7 && name.getStringWithoutLengthAscii(nameOffset, nameLength).equals(":status"))
                {
                    status[0] = Integer.parseInt(value.getStringWithoutLengthAscii(valueOffset, valueLength));
                }
            });
        if (result != HpackDecoder.DECODED)
        {
            throw new IllegalStateException("the server's header block does not decode: " + decoder.error());
        }
        return status[0];
    }

    /** Reads until a frame of {@code type} (on {@code streamId} unless it is -1); null when the connection closed. */
    Frame await(int type, int streamId) throws IOException
    {
        for (Frame frame = read(); frame != null; frame = read())
        {
            if (frame.type() == type && (streamId < 0 || frame.streamId() == streamId))
            {
                return frame;
            }
        }
        return null;
    }

    /**
     * POSTs {@code text} to the echo on {@code streamId} and returns the body of the response: what tests of bad input
     * ask of a connection that must go on working beside the bad one.
     */
    String echo(int streamId, String text) throws IOException
    {
        request(streamId, "POST", "/echo", false);
        frame(DATA, END_STREAM, streamId, text.getBytes(StandardCharsets.US_ASCII));
        return new String(body(streamId), StandardCharsets.US_ASCII);
    }

    /** The body of {@code streamId}'s response: its DATA up to END_STREAM (the connection window given back). */
    byte[] body(int streamId) throws IOException
    {
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Frame frame = read(); frame != null; frame = read())
        {
            if (frame.streamId() == streamId && (frame.type() == DATA || frame.type() == HEADERS))
            {
                if (frame.type() == DATA && frame.payload().length > 0)
                {
                    body.write(frame.payload());
                    // the connection's window is given back, as a client must for the server to go on sending
                    frame(WINDOW_UPDATE, 0, 0, int32(frame.payload().length));
                }
                if ((frame.flags() & END_STREAM) != 0)
                {
                    return body.toByteArray();
                }
            }
        }
        throw new EOFException("the connection closed before stream " + streamId + " ended");
    }

    /** Whether the server closed the connection (read until the end, frames skipped). */
    boolean closed() throws IOException
    {
        try
        {
            while (read() != null)
            {
                // frames before the close are skipped
            }
            return true;
        }
        catch (SocketTimeoutException ex)
        {
            return false;
        }
    }

    /** Closes the client's sending side (TCP FIN), reading on. */
    void shutdownOutput() throws IOException
    {
        socket.shutdownOutput();
    }

    /** Resets the connection (TCP RST: no lingering), as a client that crashed or was killed does. */
    void reset() throws IOException
    {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
