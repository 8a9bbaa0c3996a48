/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import io.zilla.specs.kafka.types.codec.TaggedFieldFW;
import org.agrona.DirectBuffer;

/**
 * The tagged fields of a flexible version: an unsigned varint count, then that many {@link TaggedFieldFW}.
 * The IDL's arrays count with zig-zag varints, so the list is walked here; each item is a flyweight.
 */
public final class TaggedFields
{
    /** Returned for a truncated or malformed list. */
    public static final int MALFORMED = -1;

    private final TaggedFieldFW taggedFieldRO = new TaggedFieldFW();

    /**
     * Skips the tagged fields at {@code offset}, reading nothing at or past {@code limit}.
     *
     * @return the offset just after them, or {@link #MALFORMED}
     */
    public int skip(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        final long count = VarUints.read(buffer, offset, limit);
        int progress = count < 0 ? MALFORMED : offset + VarUints.sizeOf(count);
        // every item takes at least 2 bytes (tag and size), so a count larger than that is rejected up front
        if (progress != MALFORMED && VarUints.value(count) > (limit - progress) / 2)
        {
            progress = MALFORMED;
        }
        for (long i = 0; progress != MALFORMED && i < VarUints.value(count); i++)
        {
            final TaggedFieldFW field = taggedFieldRO.tryWrap(buffer, progress, limit);
            progress = field == null ? MALFORMED : field.limit();
        }
        return progress;
    }
}
