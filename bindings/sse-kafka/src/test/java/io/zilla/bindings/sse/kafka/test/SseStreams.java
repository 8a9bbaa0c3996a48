/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.test;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.zilla.engine.test.TestStream;
import io.zilla.specs.sse.types.stream.SseBeginExFW;
import io.zilla.specs.sse.types.stream.SseDataExFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** What an sse server would send sse-kafka (an SseBeginEx) and what a test reads back: the events of a stream. */
public final class SseStreams
{
    public static final int SSE_TYPE_ID = "sse".hashCode();

    private SseStreams()
    {
    }

    /** An event as its frames tell it: the first one's SseDataEx, and the payloads of all of them. */
    public record Event(long timestamp, String id, String type, byte[] data, int frames)
    {
        public String text()
        {
            return new String(data, UTF_8);
        }
    }

    /** The Begin extension of a subscription to {@code path}, with the last event id (null: none). */
    public static byte[] beginEx(String path, String lastId)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[64 * 1024]);
        final SseBeginExFW.Builder builder = new SseBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(SSE_TYPE_ID).scheme("http").authority("localhost:7114").path(path);
        final int limit = (lastId != null ? builder.lastId(lastId) : builder.lastId((String) null)).build().limit();
        return Arrays.copyOf(buffer.byteArray(), limit);
    }

    /** The events so far, each from a Data with an extension to the Data before the next one with an extension. */
    public static List<Event> events(TestStream stream)
    {
        final List<Event> events = new ArrayList<>();
        final List<String> frames = stream.frames();
        final List<byte[]> extensions = stream.extensions();
        final List<Integer> lengths = stream.payloadLengths();
        final byte[] received = stream.received();
        int at = 0;
        SseDataExFW current = null;
        byte[] data = null;
        int count = 0;
        for (int i = 0; i < frames.size(); i++)
        {
            if (!frames.get(i).startsWith("DATA "))
            {
                continue;
            }
            final int length = Math.max(0, lengths.get(i));
            if (extensions.get(i).length > 0)
            {
                if (current != null)
                {
                    events.add(event(current, data, count));
                }
                final byte[] bytes = extensions.get(i);
                current = new SseDataExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
                data = new byte[0];
                count = 0;
            }
            if (data != null)
            {
                final byte[] grown = Arrays.copyOf(data, data.length + length);
                System.arraycopy(received, at, grown, data.length, length);
                data = grown;
                count++;
            }
            at += length;
        }
        if (current != null)
        {
            events.add(event(current, data, count));
        }
        return events;
    }

    private static Event event(SseDataExFW dataEx, byte[] data, int frames)
    {
        return new Event(dataEx.timestamp(), dataEx.id().asString(), dataEx.type().asString(), data, frames);
    }
}
