/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import java.util.function.Consumer;

/**
 * The text/event-stream interpretation of WHATWG HTML 9.2.6, line by line, for what a test reads from curl: data lines
 * joined with LF, the last event id kept across events as a browser keeps it, comments and retry skipped, an event
 * dispatched at each blank line when it has data.
 */
final class EventStreamLines
{
    private final Consumer<SseEvent> dispatch;
    private final StringBuilder data = new StringBuilder();
    private String lastId = "";
    private String type;
    private boolean hasData;
    private int comments;

    EventStreamLines(Consumer<SseEvent> dispatch)
    {
        this.dispatch = dispatch;
    }

    /** One line without its end of line. */
    void line(String line)
    {
        if (line.isEmpty())
        {
            if (hasData)
            {
                dispatch.accept(new SseEvent(lastId, type != null ? type : "message", data.toString()));
            }
            data.setLength(0);
            hasData = false;
            type = null;
            return;
        }
        if (line.startsWith(":"))
        {
            comments++;
            return;
        }
        final int colon = line.indexOf(':');
        final String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" "))
        {
            value = value.substring(1);
        }
        switch (field)
        {
            case "data" ->
            {
                if (hasData)
                {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
            }
            case "id" ->
            {
                if (value.indexOf('\0') < 0)
                {
                    lastId = value;
                }
            }
            case "event" -> type = value;
            default ->
            {
                // retry and unknown fields change nothing a test reads
            }
        }
    }

    /** The comment lines seen so far (zilla's keep-alives). */
    int comments()
    {
        return comments;
    }
}
