/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import static java.nio.charset.StandardCharsets.US_ASCII;

import org.agrona.concurrent.UnsafeBuffer;

/** Realistic header lists: a browser's GET with cookies, and a server's response. */
public final class HpackSamples
{
    public static final String[][] REQUEST =
    {
        {":method", "GET"},
        {":scheme", "https"},
        {":authority", "shop.example.com"},
        {":path", "/catalog/items?category=books&page=2&sort=price"},
        {"sec-ch-ua", "\"Chromium\";v=\"130\", \"Google Chrome\";v=\"130\", \"Not?A_Brand\";v=\"99\""},
        {"sec-ch-ua-mobile", "?0"},
        {"sec-ch-ua-platform", "\"Linux\""},
        {"upgrade-insecure-requests", "1"},
        {"user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36"},
        {"accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"},
        {"sec-fetch-site", "same-origin"},
        {"sec-fetch-mode", "navigate"},
        {"sec-fetch-user", "?1"},
        {"sec-fetch-dest", "document"},
        {"referer", "https://shop.example.com/catalog/items?category=books&page=1"},
        {"accept-encoding", "gzip, deflate, br, zstd"},
        {"accept-language", "en-GB,en;q=0.9,fr;q=0.8"},
        {"cookie", "session=3f9a1c7e5b2d4f60a8e1c3b5d7f90a2c; theme=dark"},
        {"cookie", "cart=eyJpdGVtcyI6WzEyLDM0LDU2XSwidG90YWwiOjQyLjV9; _ga=GA1.2.1234567890.1700000000"},
        {"priority", "u=0, i"},
    };

    public static final String[][] RESPONSE =
    {
        {":status", "200"},
        {"content-type", "text/html; charset=utf-8"},
        {"content-length", "48213"},
        {"date", "Thu, 26 Nov 2026 17:30:00 GMT"},
        {"server", "zilla"},
        {"cache-control", "private, max-age=0, must-revalidate"},
        {"vary", "accept-encoding"},
        {"content-encoding", "br"},
        {"strict-transport-security", "max-age=63072000; includeSubDomains; preload"},
        {"x-content-type-options", "nosniff"},
        {"set-cookie", "session=3f9a1c7e5b2d4f60a8e1c3b5d7f90a2c; Path=/; Secure; HttpOnly; SameSite=Lax"},
        {"etag", "\"5e8f-1a2b3c4d\""},
    };

    private HpackSamples()
    {
    }

    /** The fields' names and values as buffers: [i][0] the name, [i][1] the value. */
    public static UnsafeBuffer[][] buffers(
        String[][] fields)
    {
        final UnsafeBuffer[][] buffers = new UnsafeBuffer[fields.length][2];
        for (int i = 0; i < fields.length; i++)
        {
            buffers[i][0] = new UnsafeBuffer(fields[i][0].getBytes(US_ASCII));
            buffers[i][1] = new UnsafeBuffer(fields[i][1].getBytes(US_ASCII));
        }
        return buffers;
    }

    /** Encodes a block of {@code fields} at 0; returns its limit. */
    public static int encode(
        HpackEncoder encoder,
        UnsafeBuffer[][] fields,
        UnsafeBuffer out)
    {
        int limit = encoder.beginBlock(out, 0);
        for (UnsafeBuffer[] field : fields)
        {
            limit = encoder.encode(out, limit, out.capacity(), field[0], 0, field[0].capacity(),
                field[1], 0, field[1].capacity(), false);
        }
        return limit;
    }
}
