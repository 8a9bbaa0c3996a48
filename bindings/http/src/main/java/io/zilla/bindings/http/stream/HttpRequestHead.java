/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import org.agrona.DirectBuffer;

/**
 * One HTTP/1.x request's line and headers as {@link Http1RequestParser} found them: offsets into the bytes they were
 * read from, valid while those bytes are, and what the framing headers said. Reused for every request: it
 * allocates nothing once made.
 */
final class HttpRequestHead
{
    static final int MAX_HEADERS = 256;

    DirectBuffer buffer;
    int methodOffset;
    int methodLength;
    int targetOffset;
    int targetLength;
    /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
    int minorVersion;
    /** A response's status. */
    int status;

    int count;
    final int[] nameOffsets = new int[MAX_HEADERS];
    final int[] nameLengths = new int[MAX_HEADERS];
    final int[] valueOffsets = new int[MAX_HEADERS];
    final int[] valueLengths = new int[MAX_HEADERS];

    int host = -1;
    /** The body's length, -1 when none was given. */
    long contentLength = -1;
    boolean chunked;
    boolean connectionClose;
    boolean connectionKeepAlive;
    boolean expectContinue;
    boolean upgradeH2c;
    int origin = -1;

    void reset(DirectBuffer buffer)
    {
        this.buffer = buffer;
        count = 0;
        host = -1;
        contentLength = -1;
        chunked = false;
        connectionClose = false;
        connectionKeepAlive = false;
        expectContinue = false;
        upgradeH2c = false;
        origin = -1;
    }

    boolean keepAlive()
    {
        return minorVersion == 1 ? !connectionClose : connectionKeepAlive && !connectionClose;
    }

    boolean hasBody()
    {
        return chunked || contentLength > 0;
    }

    boolean isMethod(String method)
    {
        return equalsAscii(buffer, methodOffset, methodLength, method);
    }

    /** The first header named {@code lowerName}, or -1. */
    int find(String lowerName)
    {
        for (int i = 0; i < count; i++)
        {
            if (equalsIgnoreCase(buffer, nameOffsets[i], nameLengths[i], lowerName))
            {
                return i;
            }
        }
        return -1;
    }

    int find(byte[] lowerName)
    {
        for (int i = 0; i < count; i++)
        {
            if (equalsIgnoreCase(buffer, nameOffsets[i], nameLengths[i], lowerName))
            {
                return i;
            }
        }
        return -1;
    }

    static boolean equalsAscii(DirectBuffer buffer, int offset, int length, String text)
    {
        if (length != text.length())
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != text.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    static boolean equalsIgnoreCase(DirectBuffer buffer, int offset, int length, String lower)
    {
        if (length != lower.length())
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (toLower(buffer.getByte(offset + i)) != lower.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    static boolean equalsIgnoreCase(DirectBuffer buffer, int offset, int length, byte[] lower)
    {
        if (length != lower.length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (toLower(buffer.getByte(offset + i)) != lower[i])
            {
                return false;
            }
        }
        return true;
    }

    static byte toLower(byte b)
    {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }
}
