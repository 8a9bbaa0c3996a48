/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import java.util.Arrays;

/**
 * Headers as the offsets and lengths of their names and values in a buffer kept elsewhere (a request's head, a record's
 * staged bytes): four ints a header in one array that grows, never an object a header.
 */
final class HttpKafkaHeaderTable
{
    private int[] entries = new int[64];
    private int count;

    void clear()
    {
        count = 0;
    }

    void add(int nameOffset, int nameLength, int valueOffset, int valueLength)
    {
        if (4 * count + 4 > entries.length)
        {
            entries = Arrays.copyOf(entries, entries.length << 1);
        }
        entries[4 * count] = nameOffset;
        entries[4 * count + 1] = nameLength;
        entries[4 * count + 2] = valueOffset;
        entries[4 * count + 3] = valueLength;
        count++;
    }

    int count()
    {
        return count;
    }

    int nameOffset(int header)
    {
        return entries[4 * header];
    }

    int nameLength(int header)
    {
        return entries[4 * header + 1];
    }

    int valueOffset(int header)
    {
        return entries[4 * header + 2];
    }

    int valueLength(int header)
    {
        return entries[4 * header + 3];
    }
}
