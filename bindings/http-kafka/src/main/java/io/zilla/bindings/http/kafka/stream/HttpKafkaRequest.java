/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.flyweight.StringFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * What an exchange keeps of its request's head, copied out of the HttpBeginEx when the request begins: the method,
 * the path (without its query), the headers this binding reads, and the headers a produced record carries (every
 * request header but the pseudo-headers other than :method and :path, the hop-by-hop ones and those that steer this
 * binding).
 * <p>Read in place and kept as bytes: a request is read into an object its exchange reuses, the path, the idempotency
 * key and the record's headers one after the other in its {@link #head()} buffer, each at the offsets and lengths kept
 * here, so that a request allocates nothing (the names it once read as Strings were half of what a produce allocated).
 * The method is one of the constants of the methods HTTP defines (another is read as a String).
 */
final class HttpKafkaRequest
{
    private static final String[] METHODS = {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE",
        "CONNECT"};
    private static final byte[][] METHOD_BYTES = bytes(METHODS);
    private static final byte[][] DROPPED = bytes(":scheme", ":authority", "connection", "keep-alive",
        "transfer-encoding", "te", "upgrade", "content-length", "prefer", "host", "http2-settings", "expect",
        "proxy-connection");
    private static final byte[] METHOD = bytes(":method")[0];
    private static final byte[] PATH = bytes(":path")[0];
    private static final byte[] PREFER = bytes("prefer")[0];
    private static final byte[] IF_NONE_MATCH = bytes("if-none-match")[0];
    private static final byte[] CONTENT_LENGTH = bytes("content-length")[0];
    private static final byte[] RESPOND_ASYNC = bytes("respond-async")[0];
    private static final byte[] WAIT = bytes("wait=")[0];

    String method;
    boolean respondAsync;
    int preferWait;
    String ifNoneMatch;
    long contentLength;

    // a head larger than this is not kept for the next request: the object is used again, for as long as the worker runs
    private static final int RETAINED_HEAD = 16384;

    private ExpandableArrayBuffer head = new ExpandableArrayBuffer(256);
    private int headLength;
    private int pathLength = -1;
    private int idempotencyKeyOffset;
    private int idempotencyKeyLength = -1;
    // the record's headers, in head
    private final HttpKafkaHeaderTable headers = new HttpKafkaHeaderTable();

    /**
     * Reads the request of {@code beginEx}, {@code idempotencyHeader} naming the header of its idempotency key.
     *
     * @return false when the extension is malformed or lacks :method or :path
     */
    boolean read(HttpHeaderFW headerRO, HttpBeginExFW beginEx, byte[] idempotencyHeader)
    {
        clear();
        final int count = beginEx.headers().count();
        final int first = beginEx.headers().offset() + Integer.BYTES;
        // the path first, at 0 of the head, the route's patterns match there; then every header
        for (int i = 0, offset = first; i < count && pathLength < 0; i++)
        {
            final HttpHeaderFW header = headerRO.tryWrap(beginEx.buffer(), offset, beginEx.limit());
            if (header == null)
            {
                return false;
            }
            offset = header.limit();
            final StringFW name = header.name();
            final String16FW value = header.value();
            if (is(name.buffer(), name.valueOffset(), Math.max(name.length(), 0), PATH) && value.length() >= 0)
            {
                path(value.buffer(), value.valueOffset(), value.length());
            }
        }
        for (int i = 0, offset = first; i < count; i++)
        {
            final HttpHeaderFW header = headerRO.tryWrap(beginEx.buffer(), offset, beginEx.limit());
            if (header == null)
            {
                return false;
            }
            offset = header.limit();
            final StringFW name = header.name();
            final String16FW value = header.value();
            final DirectBuffer buffer = name.buffer();
            final int nameOffset = name.valueOffset();
            final int nameLength = Math.max(name.length(), 0);
            final int valueOffset = value.valueOffset();
            final int valueLength = Math.max(value.length(), 0);
            if (is(buffer, nameOffset, nameLength, METHOD))
            {
                method = value.length() >= 0 ? method(value.buffer(), valueOffset, valueLength) : null;
            }
            else if (is(buffer, nameOffset, nameLength, PREFER))
            {
                prefer(value.buffer(), valueOffset, valueOffset + valueLength);
            }
            else if (is(buffer, nameOffset, nameLength, IF_NONE_MATCH))
            {
                ifNoneMatch = value.asString();
            }
            else if (is(buffer, nameOffset, nameLength, CONTENT_LENGTH))
            {
                contentLength = parseLength(value.buffer(), valueOffset, valueLength);
            }
            if (idempotencyHeader != null && is(buffer, nameOffset, nameLength, idempotencyHeader))
            {
                idempotencyKeyOffset = append(value.buffer(), valueOffset, valueLength);
                idempotencyKeyLength = valueLength;
            }
            if (!dropped(buffer, nameOffset, nameLength))
            {
                headers.add(append(buffer, nameOffset, nameLength), nameLength, append(value.buffer(), valueOffset,
                    valueLength), valueLength);
            }
        }
        return method != null && pathLength >= 0;
    }

    /** The bytes of the path, from 0, and of the idempotency key and the record's headers after it. */
    DirectBuffer head()
    {
        return head;
    }

    int pathLength()
    {
        return pathLength;
    }

    String path()
    {
        return head.getStringWithoutLengthUtf8(0, pathLength);
    }

    boolean hasIdempotencyKey()
    {
        return idempotencyKeyLength >= 0;
    }

    /** A copy of the idempotency key, for the request-reply paths that keep it. */
    byte[] idempotencyKey()
    {
        final byte[] key = new byte[idempotencyKeyLength];
        head.getBytes(idempotencyKeyOffset, key);
        return key;
    }

    /** The record's headers, their names and values in {@link #head()}. */
    HttpKafkaHeaderTable headers()
    {
        return headers;
    }

    boolean produces()
    {
        return !"GET".equals(method) && !"HEAD".equals(method);
    }

    /** Whether the {@code length} bytes at {@code offset} of {@code buffer} are {@code expected}. */
    static boolean is(DirectBuffer buffer, int offset, int length, byte[] expected)
    {
        if (length != expected.length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != expected[i])
            {
                return false;
            }
        }
        return true;
    }

    private void clear()
    {
        method = null;
        respondAsync = false;
        preferWait = -1;
        ifNoneMatch = null;
        contentLength = -1;
        if (head.capacity() > RETAINED_HEAD)
        {
            head = new ExpandableArrayBuffer(256);
        }
        headLength = 0;
        pathLength = -1;
        idempotencyKeyOffset = 0;
        idempotencyKeyLength = -1;
        headers.clear();
    }

    private static String method(DirectBuffer buffer, int offset, int length)
    {
        for (int i = 0; i < METHODS.length; i++)
        {
            if (is(buffer, offset, length, METHOD_BYTES[i]))
            {
                return METHODS[i];
            }
        }
        return buffer.getStringWithoutLengthUtf8(offset, length);
    }

    // the path without its query, at 0 of the head
    private void path(DirectBuffer buffer, int offset, int length)
    {
        int end = 0;
        while (end < length && buffer.getByte(offset + end) != '?')
        {
            end++;
        }
        head.putBytes(0, buffer, offset, end);
        headLength = end;
        pathLength = end;
    }

    private int append(DirectBuffer buffer, int offset, int length)
    {
        final int at = headLength;
        head.putBytes(at, buffer, offset, length);
        headLength += length;
        return at;
    }

    private static boolean dropped(DirectBuffer buffer, int offset, int length)
    {
        for (byte[] name : DROPPED)
        {
            if (is(buffer, offset, length, name))
            {
                return true;
            }
        }
        return false;
    }

    // Prefer: respond-async, wait=5 (RFC 7240): the preferences this binding honours, the others ignored
    private void prefer(DirectBuffer buffer, int offset, int limit)
    {
        int start = offset;
        while (start < limit)
        {
            int end = start;
            while (end < limit && buffer.getByte(end) != ',')
            {
                end++;
            }
            int from = start;
            int to = end;
            while (from < to && (buffer.getByte(from) & 0xff) <= ' ')
            {
                from++;
            }
            while (to > from && (buffer.getByte(to - 1) & 0xff) <= ' ')
            {
                to--;
            }
            if (equalsIgnoreCase(buffer, from, to - from, RESPOND_ASYNC))
            {
                respondAsync = true;
            }
            else if (to - from >= WAIT.length && equalsIgnoreCase(buffer, from, WAIT.length, WAIT))
            {
                final long wait = parseLength(buffer, from + WAIT.length, to - from - WAIT.length);
                preferWait = wait >= 0 ? (int) Math.min(wait, Integer.MAX_VALUE) : -1;
            }
            start = end + 1;
        }
    }

    private static boolean equalsIgnoreCase(DirectBuffer buffer, int offset, int length, byte[] expected)
    {
        if (length != expected.length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (Character.toLowerCase(buffer.getByte(offset + i)) != expected[i])
            {
                return false;
            }
        }
        return true;
    }

    // a decimal number of at most 18 digits, spaces around it allowed: -1 for anything else
    private static long parseLength(DirectBuffer buffer, int offset, int length)
    {
        int from = offset;
        int to = offset + length;
        while (from < to && (buffer.getByte(from) & 0xff) <= ' ')
        {
            from++;
        }
        while (to > from && (buffer.getByte(to - 1) & 0xff) <= ' ')
        {
            to--;
        }
        if (from == to || to - from > 18)
        {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++)
        {
            final byte digit = buffer.getByte(i);
            if (digit < '0' || digit > '9')
            {
                return -1;
            }
            value = value * 10 + digit - '0';
        }
        return value;
    }

    private static byte[][] bytes(String... texts)
    {
        final byte[][] bytes = new byte[texts.length][];
        for (int i = 0; i < texts.length; i++)
        {
            bytes[i] = texts[i].getBytes(UTF_8);
        }
        return bytes;
    }
}
