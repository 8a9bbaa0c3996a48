/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import static io.zilla.bindings.sse.stream.SsePeers.WHOLE;
import static io.zilla.bindings.sse.stream.SsePeers.app;
import static io.zilla.bindings.sse.stream.SsePeers.awaitStream;
import static io.zilla.bindings.sse.stream.SsePeers.beginEx;
import static io.zilla.bindings.sse.stream.SsePeers.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two SSE streams on one HTTP/2 connection (h2c, prior knowledge), from a client written here frame by frame: it sets
 * every stream's initial window to 0 and opens only stream 3's, so that stream 1 is a subscriber that reads nothing.
 * Stream 3 gets all its events; stream 1's exit stops at once, having had no more credit than the h2 stream gave.
 */
class SseH2StallTest
{
    private static final int DATA = 0;
    private static final int HEADERS = 1;
    private static final int SETTINGS = 4;
    private static final int PING = 6;
    private static final int GOAWAY = 7;
    private static final int WINDOW_UPDATE = 8;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(SseH2StallTest.class);

    private final ByteArrayOutputStream fast = new ByteArrayOutputStream();
    private volatile boolean fastEnded;
    private volatile long slowBytes;

    @Test
    void shouldNotLetAStalledStreamSlowAnotherOnItsConnection() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            final OutputStream out = socket.getOutputStream();
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            // SETTINGS_INITIAL_WINDOW_SIZE 0: no stream may be sent DATA until its window is opened
            frame(out, SETTINGS, 0, 0, new byte[] {0, 4, 0, 0, 0, 0});
            frame(out, WINDOW_UPDATE, 0, 0, increment(16 * 1024 * 1024));
            frame(out, HEADERS, 0x05, 1, headers("/events/slow", port));
            final Thread reader = new Thread(() -> read(socket), "h2-reader");
            reader.setDaemon(true);
            reader.start();

            final TestStream slow = awaitStream(0);
            assertEquals("/events/slow", beginEx(slow)[2]);
            final byte[] payload = "y".repeat(1000).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 1000; i++)
            {
                app().send(slow, payload, null, WHOLE);
            }

            synchronized (out)
            {
                frame(out, HEADERS, 0x05, 3, headers("/events/fast", port));
                frame(out, WINDOW_UPDATE, 0, 3, increment(1024 * 1024));
            }
            final TestStream fastStream = awaitStream(1);
            for (int i = 0; i < 100; i++)
            {
                app().send(fastStream, utf8("e" + i), null, WHOLE);
            }
            app().end(fastStream, null);
            final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!fastEnded && System.nanoTime() < deadline)
            {
                SsePeers.sleep(5);
            }
            assertTrue(fastEnded, "the fast stream did not end: " + fastText());
            final StringBuilder expected = new StringBuilder("retry: 1500\n\n");
            for (int i = 0; i < 100; i++)
            {
                expected.append("data: e").append(i).append("\n\n");
            }
            assertEquals(expected.toString(), fastText());

            SsePeers.sleep(200);
            System.out.printf("a stalled h2 stream's exit sent %d bytes; the client got %d of them%n", slow.sequence(),
                slowBytes);
            assertEquals(0L, slowBytes, "DATA on a stream whose window is 0");
            assertTrue(slow.sequence() <= 64 * 1024, "the stalled stream's exit sent " + slow.sequence());
            assertTrue(slow.waiting() > 0, "every event went to a stream that reads nothing");
        }
    }

    private String fastText()
    {
        synchronized (fast)
        {
            return fast.toString(StandardCharsets.US_ASCII);
        }
    }

    private void read(Socket socket)
    {
        try
        {
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            final OutputStream out = socket.getOutputStream();
            while (true)
            {
                final int length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
                final int type = in.readUnsignedByte();
                final int flags = in.readUnsignedByte();
                final int stream = in.readInt() & 0x7fffffff;
                final byte[] body = new byte[length];
                in.readFully(body);
                synchronized (out)
                {
                    if (type == SETTINGS && (flags & 0x01) == 0)
                    {
                        frame(out, SETTINGS, 0x01, 0, new byte[0]);
                    }
                    else if (type == PING && (flags & 0x01) == 0)
                    {
                        frame(out, PING, 0x01, 0, body);
                    }
                    else if (type == DATA && stream == 3)
                    {
                        synchronized (fast)
                        {
                            fast.write(body);
                        }
                        if (length > 0)
                        {
                            frame(out, WINDOW_UPDATE, 0, 3, increment(length));
                            frame(out, WINDOW_UPDATE, 0, 0, increment(length));
                        }
                        fastEnded |= (flags & 0x01) != 0;
                    }
                    else if (type == DATA)
                    {
                        slowBytes += length;
                    }
                    else if (type == GOAWAY)
                    {
                        return;
                    }
                }
            }
        }
        catch (IOException ex)
        {
            // the connection closed
        }
    }

    private static void frame(OutputStream out, int type, int flags, int stream, byte[] payload) throws IOException
    {
        final byte[] head = {(byte) (payload.length >> 16), (byte) (payload.length >> 8), (byte) payload.length,
            (byte) type, (byte) flags, (byte) (stream >> 24), (byte) (stream >> 16), (byte) (stream >> 8), (byte) stream};
        out.write(head);
        out.write(payload);
        out.flush();
    }

    private static byte[] increment(int increment)
    {
        return new byte[] {(byte) (increment >> 24), (byte) (increment >> 16), (byte) (increment >> 8), (byte) increment};
    }

    /** A request's header block: each field a literal without indexing, with a new name, no Huffman (RFC 7541 6.2.2). */
    private static byte[] headers(String path, int port)
    {
        final ByteArrayOutputStream block = new ByteArrayOutputStream();
        literal(block, ":method", "GET");
        literal(block, ":scheme", "http");
        literal(block, ":path", path);
        literal(block, ":authority", "127.0.0.1:" + port);
        literal(block, "accept", "text/event-stream");
        return block.toByteArray();
    }

    private static void literal(ByteArrayOutputStream block, String name, String value)
    {
        block.write(0x00);
        block.write(name.length());
        block.writeBytes(name.getBytes(StandardCharsets.US_ASCII));
        block.write(value.length());
        block.writeBytes(value.getBytes(StandardCharsets.US_ASCII));
    }
}
