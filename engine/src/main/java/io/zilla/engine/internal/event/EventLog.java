/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.event;

import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import io.zilla.engine.internal.EngineDirectory;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.IoUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The engine's events (a refused connection, a reset with its reason, a fault, a config change), written by
 * every worker into one memory-mapped ring and drained by the exporters. Events are rare, so a record is
 * simply: timestamp, trace id, then binding, event name and detail as length-prefixed UTF-8. When the ring
 * is full the event is counted as dropped, and the worker goes on.
 */
public final class EventLog implements AutoCloseable
{
    public static final String FILE_NAME = "events";

    private static final int EVENT_TYPE_ID = 1;
    private static final byte[] CUT = " [cut: too long for the event ring]".getBytes(StandardCharsets.US_ASCII);

    private final MappedByteBuffer mapped;
    private final ManyToOneRingBuffer ring;
    private final AtomicCounter dropped;

    public EventLog(EngineDirectory directory, int capacity, AtomicCounter dropped)
    {
        this.mapped = directory.map(FILE_NAME, capacity + RingBufferDescriptor.TRAILER_LENGTH);
        this.ring = new ManyToOneRingBuffer(new UnsafeBuffer(mapped));
        this.dropped = dropped;
    }

    /**
     * Writes an event; thread-safe, and never throws: a worker reports its faults here, from the very code that keeps
     * one stream's failure from reaching the others. A detail too long for one record of the ring (a whole stack trace
     * with zilla.engine.exception.traces, say) is cut to fit, and says so.
     */
    public void write(long timestamp, long traceId, String binding, String event, String detail)
    {
        final MutableDirectBuffer record = new ExpandableArrayBuffer(128);
        int offset = 0;
        record.putLong(offset, timestamp);
        offset += Long.BYTES;
        record.putLong(offset, traceId);
        offset += Long.BYTES;
        offset = putString(record, offset, binding);
        offset = putString(record, offset, event);
        final int room = ring.maxMsgLength() - offset - Integer.BYTES;
        if (room <= CUT.length || !ring.write(EVENT_TYPE_ID, record, 0, putDetail(record, offset, detail, room)))
        {
            dropped.increment();
        }
    }

    /** Drains the events written so far; returns how many. */
    public int read(Consumer<EngineEvent> consumer)
    {
        return ring.read((msgTypeId, buffer, index, length) -> consumer.accept(decode(buffer, index)));
    }

    @Override
    public void close()
    {
        IoUtil.unmap(mapped);
    }

    private static EngineEvent decode(DirectBuffer buffer, int index)
    {
        final long timestamp = buffer.getLong(index);
        final long traceId = buffer.getLong(index + Long.BYTES);
        int offset = index + 2 * Long.BYTES;
        final String binding = buffer.getStringUtf8(offset);
        offset += Integer.BYTES + buffer.getInt(offset);
        final String event = buffer.getStringUtf8(offset);
        offset += Integer.BYTES + buffer.getInt(offset);
        final String detail = buffer.getStringUtf8(offset);
        return new EngineEvent(timestamp, traceId, binding, event, detail);
    }

    /** The detail, cut to {@code room} bytes (its end replaced by {@link #CUT}) when it is longer. */
    private static int putDetail(MutableDirectBuffer buffer, int offset, String detail, int room)
    {
        final byte[] bytes = (detail != null ? detail : "").getBytes(StandardCharsets.UTF_8);
        final int length = Math.min(bytes.length, room);
        buffer.putInt(offset, length);
        if (bytes.length <= room)
        {
            buffer.putBytes(offset + Integer.BYTES, bytes);
        }
        else
        {
            buffer.putBytes(offset + Integer.BYTES, bytes, 0, room - CUT.length);
            buffer.putBytes(offset + Integer.BYTES + room - CUT.length, CUT);
        }
        return offset + Integer.BYTES + length;
    }

    private static int putString(MutableDirectBuffer buffer, int offset, String value)
    {
        final byte[] bytes = (value != null ? value : "").getBytes(StandardCharsets.UTF_8);
        buffer.putInt(offset, bytes.length);
        buffer.putBytes(offset + Integer.BYTES, bytes);
        return offset + Integer.BYTES + bytes.length;
    }
}
