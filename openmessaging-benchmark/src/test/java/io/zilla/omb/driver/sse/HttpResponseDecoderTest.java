/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class HttpResponseDecoderTest
{
    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n"
        + "7\r\nretry: \r\n"
        + "a;ext=1\r\n100\ndata: \r\n"
        + "16\r\nhello\r\n\r\ndata: world\r\n\r\n"
        + "2\r\n\r\n\r\n"
        + "0\r\nTrailer: x\r\n\r\n";

    @Test
    void shouldDecodeChunkedBodySplitAnywhere()
    {
        final byte[] bytes = CHUNKED.getBytes(StandardCharsets.US_ASCII);
        final Recorder whole = decode(bytes, bytes.length);
        assertEquals("retry: 100\ndata: hello\r\n\r\ndata: world\r\n\r\n", whole.body());
        assertEquals(List.of("head 200 null", "end"), whole.calls);
        for (int split = 1; split < bytes.length; split++)
        {
            final Recorder recorder = decode(bytes, split);
            assertEquals(whole.body(), recorder.body(), "split at " + split);
            assertEquals(whole.calls, recorder.calls, "split at " + split);
        }
    }

    @Test
    void shouldDecodeContentLengthBody()
    {
        final byte[] bytes = ("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream;charset=utf-8\r\ncontent-length: 10\r\n\r\n"
            + "data: x\n\nignored").getBytes(StandardCharsets.US_ASCII);
        final Recorder recorder = decode(bytes, 3);
        assertEquals("data: x\n\n", recorder.body().substring(0, 9));
        assertEquals(List.of("head 200 null", "end"), recorder.calls);
    }

    @Test
    void shouldTellWrongStatusAndContentType()
    {
        assertEquals(List.of("head 404 status 404"),
            decode("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 5).calls
                .subList(0, 1));
        assertEquals(List.of("head 200 content-type text/plain, not text/event-stream"),
            decode("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 5).calls);
    }

    @Test
    void shouldRefuseBadChunkSize()
    {
        final byte[] bytes = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n"
            .getBytes(StandardCharsets.US_ASCII);
        assertThrows(IllegalStateException.class, () -> decode(bytes, bytes.length));
    }

    private static Recorder decode(byte[] bytes, int split)
    {
        final Recorder recorder = new Recorder();
        final HttpResponseDecoder decoder = new HttpResponseDecoder(recorder);
        decoder.decode(bytes, 0, split);
        decoder.decode(bytes, split, bytes.length - split);
        return recorder;
    }

    private static final class Recorder implements HttpResponseDecoder.Handler
    {
        final List<String> calls = new ArrayList<>();
        final ByteArrayOutputStream body = new ByteArrayOutputStream();

        @Override
        public void onHead(int status, String problem)
        {
            calls.add("head " + status + " " + problem);
        }

        @Override
        public void onBody(byte[] buffer, int offset, int length)
        {
            body.write(buffer, offset, length);
        }

        @Override
        public void onEnd()
        {
            calls.add("end");
        }

        String body()
        {
            return body.toString(StandardCharsets.US_ASCII);
        }
    }
}
