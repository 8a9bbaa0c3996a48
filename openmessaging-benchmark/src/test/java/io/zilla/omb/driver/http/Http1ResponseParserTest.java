/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class Http1ResponseParserTest
{
    private static final String RESPONSES = String.join("",
        "HTTP/1.1 204 No Content\r\nServer: zilla\r\n\r\n",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: \"abc\"\r\n\r\nhello",
        "HTTP/1.1 503 Service Unavailable\r\ntransfer-encoding: chunked\r\nRetry-After: 1\r\n\r\n",
        "4;ext=1\r\nbusy\r\n2\r\n!!\r\n0\r\nTrailer: x\r\n\r\n",
        "HTTP/1.1 200 OK\nContent-Length: 0\nConnection: close\n\n");

    @Test
    void shouldParseKeepAliveResponsesWhateverTheReadsSplit()
    {
        final byte[] bytes = RESPONSES.getBytes(StandardCharsets.US_ASCII);
        for (int split = 1; split <= bytes.length; split++)
        {
            final List<String> seen = parse(bytes, split);
            assertEquals(List.of("204 body= close=false", "200 body=hello etag=\"abc\" close=false",
                "503 body=busy!! close=false", "200 body= close=true"), seen, "reads of " + split);
        }
    }

    @Test
    void shouldRefuseWhatIsNotHttp()
    {
        final Http1ResponseParser parser = new Http1ResponseParser();
        parser.expect(new Recorder(new ArrayList<>(), parser));
        final byte[] bad = "SSH-2.0-OpenSSH\r\n".getBytes(StandardCharsets.US_ASCII);
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> parser.parse(bad, 0, bad.length));
        assertTrue(ex.getMessage().contains("status line"), ex.getMessage());
    }

    /** The responses of {@code bytes} read {@code split} bytes at a time, one after the other as on a connection. */
    private static List<String> parse(byte[] bytes, int split)
    {
        final List<String> seen = new ArrayList<>();
        final Http1ResponseParser parser = new Http1ResponseParser();
        final Recorder[] current = {new Recorder(seen, parser)};
        parser.expect(current[0]);
        int offset = 0;
        while (offset < bytes.length)
        {
            int length = Math.min(split, bytes.length - offset);
            while (length > 0)
            {
                final int taken = parser.parse(bytes, offset, length);
                final int used = taken < 0 ? -taken - 1 : taken;
                offset += used;
                length -= used;
                if (taken < 0)
                {
                    current[0].record();
                    current[0] = new Recorder(seen, parser);
                    parser.expect(current[0]);
                }
            }
        }
        return seen;
    }

    private static final class Recorder implements HttpRequest.Listener
    {
        private final List<String> seen;
        private final Http1ResponseParser parser;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private String etag;

        Recorder(List<String> seen, Http1ResponseParser parser)
        {
            this.seen = seen;
            this.parser = parser;
        }

        @Override
        public void onHeader(byte[] buffer, int nameOffset, int nameLength, int valueOffset, int valueLength)
        {
            if ("etag".equalsIgnoreCase(new String(buffer, nameOffset, nameLength, StandardCharsets.US_ASCII)))
            {
                etag = new String(buffer, valueOffset, valueLength, StandardCharsets.US_ASCII);
            }
        }

        @Override
        public void onBody(byte[] buffer, int offset, int length)
        {
            body.write(buffer, offset, length);
        }

        @Override
        public void onResponse(int status)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void onFailure(Throwable cause)
        {
            throw new UnsupportedOperationException();
        }

        void record()
        {
            seen.add(parser.status() + " body=" + body.toString(StandardCharsets.US_ASCII)
                + (etag != null ? " etag=" + etag : "") + " close=" + parser.closeAfter());
        }
    }
}
