/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

/**
 * One request of a producer (a {@code POST} of a message) or of a fetch consumer (a {@code GET}): what goes on the
 * wire and who is told of its response. Built on the caller's thread, written and answered on a selector thread.
 */
final class HttpRequest
{
    /** Who hears the response: its status, its headers (h1 fetch only) and its body as they come. */
    interface Listener
    {
        /** A response header, for listeners that need one (the ETag of a fetch); the bytes are valid only meanwhile. */
        default void onHeader(byte[] buffer, int nameOffset, int nameLength, int valueOffset, int valueLength)
        {
        }

        /** Body bytes, valid only during the call. */
        default void onBody(byte[] buffer, int offset, int length)
        {
        }

        /** The whole response came. */
        void onResponse(int status);

        /** No response: the connection failed or was reset before it came. */
        void onFailure(Throwable cause);
    }

    final boolean post;
    final byte[] path;
    final byte[] body;
    // extra headers, as name and value pairs (lower case names): the key header of a producer, a fetch's conditions
    final byte[][] headers;
    final Listener listener;

    HttpRequest(boolean post, byte[] path, byte[] body, byte[][] headers, Listener listener)
    {
        this.post = post;
        this.path = path;
        this.body = body;
        this.headers = headers;
        this.listener = listener;
    }
}
