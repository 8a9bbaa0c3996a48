/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.bindings.http.config.Http2FloodLimits;

/**
 * What one HTTP/2 server connection counts against the floods of {@link Http2FloodLimits}: streams reset, empty DATA
 * frames in a row, and control frames that wait for a client that does not read them. Each check says whether the
 * connection is still within its limit; past it, the connection answers GOAWAY ENHANCE_YOUR_CALM (with the reason's text).
 * A few counters per connection: nothing is allocated per frame, and the clock is read here only when a stream is
 * reset (the header block timer of {@link Http2Server} reads it too, once per block left open and when it fires).
 */
final class Http2FloodGuard
{
    private final Http2FloodLimits limits;

    // resets are counted in windows of limits.resetsWindow() ms, the first starting at the first reset (as netty does)
    private long resetsStart;
    private int resets;
    private int emptyFrames;
    private int queuedControlFrames;

    Http2FloodGuard(Http2FloodLimits limits)
    {
        this.limits = limits;
    }

    /** A stream was reset, by the client while it was under way or by us for the client's error. */
    boolean onReset()
    {
        final long now = System.currentTimeMillis();
        if (resets == 0 || now - resetsStart >= limits.resetsWindow())
        {
            resetsStart = now;
            resets = 0;
        }
        return ++resets <= limits.maxResets();
    }

    /** A DATA frame that carries nothing and does not end its stream. */
    boolean onEmptyData()
    {
        return ++emptyFrames <= limits.maxEmptyFrames();
    }

    /** A DATA frame that carries something or ends its stream, or a HEADERS frame: the empty ones are not in a row. */
    void onPayload()
    {
        emptyFrames = 0;
    }

    /**
     * We wrote an acknowledgement (PING, SETTINGS) or a RST_STREAM; {@code queued} when it went beyond the network's
     * credit, to wait for the client to read what is before it. A client that reads lets the count start again.
     */
    boolean onControlFrame(boolean queued)
    {
        queuedControlFrames = queued ? queuedControlFrames + 1 : 0;
        return queuedControlFrames <= limits.maxQueuedControlFrames();
    }

    // the debug text of the GOAWAY for each limit: rare, so made when needed

    String whyResets()
    {
        return "more than " + limits.maxResets() + " streams reset within " + limits.resetsWindow() + " ms";
    }

    String whyEmptyFrames()
    {
        return "more than " + limits.maxEmptyFrames() + " empty DATA frames in a row";
    }

    String whyControlFrames()
    {
        return "more than " + limits.maxQueuedControlFrames() + " acknowledgements and resets left unread";
    }
}
