/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.event;

import java.time.Instant;

/**
 * One event, as exporters see it.
 *
 * @param timestamp epoch millis
 * @param traceId   the trace of the frame or connection that caused it
 * @param binding   the binding's name, or {@code engine}
 * @param event     a stable dotted name, such as {@code tcp.connect.refused}
 * @param detail    the specifics, for a person to read
 */
public record EngineEvent(long timestamp, long traceId, String binding, String event, String detail)
{
    /** A binding threw on a stream: the stream was ended, the worker went on. */
    public static final String STREAM_FAILED = "engine.stream.failed";
    /** A channel (a socket) failed in the worker's selector: it was closed. */
    public static final String CHANNEL_FAILED = "engine.channel.failed";
    /** A binding threw while it was detached. */
    public static final String DETACH_FAILED = "engine.detach.failed";

    /** Whether the event reports an exception (its detail then holds the exception, and with -e its stack trace). */
    public boolean isFault()
    {
        return STREAM_FAILED.equals(event) || CHANNEL_FAILED.equals(event) || DETACH_FAILED.equals(event);
    }

    /** One readable line: {@code 2026-11-21T20:00:00.123Z north_tcp_client tcp.connect.refused [trace 0x2a] ...}. */
    public String format()
    {
        return Instant.ofEpochMilli(timestamp) + " " + binding + " " + event + " [trace 0x" + Long.toHexString(traceId) + "] "
            + detail;
    }
}
