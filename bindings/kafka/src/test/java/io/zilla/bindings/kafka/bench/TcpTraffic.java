/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

/** A tcp binding's counters: bytes read and written, and the socket reads and writes that moved them. */
record TcpTraffic(long read, long written, long reads, long writes)
{
    static final TcpTraffic NONE = new TcpTraffic(0L, 0L, 0L, 0L);

    TcpTraffic plus(TcpTraffic other)
    {
        return new TcpTraffic(read + other.read, written + other.written, reads + other.reads, writes + other.writes);
    }

    TcpTraffic minus(TcpTraffic other)
    {
        return new TcpTraffic(read - other.read, written - other.written, reads - other.reads, writes - other.writes);
    }

    long bytes()
    {
        return read + written;
    }

    double bytesPerRead()
    {
        return reads > 0 ? (double) read / reads : 0.0;
    }

    double bytesPerWrite()
    {
        return writes > 0 ? (double) written / writes : 0.0;
    }
}
