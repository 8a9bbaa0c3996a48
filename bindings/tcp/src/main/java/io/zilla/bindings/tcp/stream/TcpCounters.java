/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import io.zilla.engine.binding.EngineContext;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One tcp binding's counters on one worker ({@code zilla metrics} shows them). Each worker writes only its own, so
 * the cheap release-ordered increments are enough.
 */
final class TcpCounters
{
    /** Connections accepted (server) or established (client). */
    final AtomicCounter opened;

    /** Connections open now. */
    final AtomicCounter active;

    /** Server: accepted but closed at once, as no route matched or the exit refused the stream. */
    final AtomicCounter refused;

    /** Client: connections that could not be established (refused, unreachable, timed out, unresolved). */
    final AtomicCounter failed;

    /** Connections ended by an I/O error (a reset by the peer...) or by an abort of the stream. */
    final AtomicCounter errors;

    final AtomicCounter bytesRead;
    final AtomicCounter bytesWritten;

    /** Socket reads that returned bytes and writes that took some: bytes over these are the sizes the kernel saw. */
    final AtomicCounter socketReads;
    final AtomicCounter socketWrites;

    TcpCounters(EngineContext context, long bindingId)
    {
        this.opened = context.supplyCounter(bindingId, "connections.opened");
        this.active = context.supplyCounter(bindingId, "connections.active");
        this.refused = context.supplyCounter(bindingId, "connections.refused");
        this.failed = context.supplyCounter(bindingId, "connections.failed");
        this.errors = context.supplyCounter(bindingId, "connections.errors");
        this.bytesRead = context.supplyCounter(bindingId, "bytes.read");
        this.bytesWritten = context.supplyCounter(bindingId, "bytes.written");
        this.socketReads = context.supplyCounter(bindingId, "socket.reads");
        this.socketWrites = context.supplyCounter(bindingId, "socket.writes");
    }

    /** Counts one socket read that returned {@code bytes} (more than 0). */
    void read(int bytes)
    {
        bytesRead.getAndAddRelease(bytes);
        socketReads.incrementRelease();
    }

    /** Counts one socket write that took {@code bytes}, when it took any. */
    void written(int bytes)
    {
        if (bytes > 0)
        {
            bytesWritten.getAndAddRelease(bytes);
            socketWrites.incrementRelease();
        }
    }
}
