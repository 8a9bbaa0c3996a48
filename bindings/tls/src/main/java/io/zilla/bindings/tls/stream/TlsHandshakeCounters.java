/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import io.zilla.engine.binding.EngineContext;
import org.agrona.concurrent.status.AtomicCounter;

/** One tls server or client binding's counters on one worker ({@code zilla metrics} shows them). */
final class TlsHandshakeCounters
{
    /** Handshakes completed. */
    final AtomicCounter handshakes;

    /** Handshakes that resumed an earlier session (its creation time is before this handshake began). */
    final AtomicCounter resumed;

    /** Handshakes that failed: the peer's alert or ours (bad certificate, no common cipher or version...). */
    final AtomicCounter failed;

    /** Connections closed after the handshake because a record failed (bad_record_mac...). */
    final AtomicCounter recordFailed;

    /** Server: ClientHellos that matched no route (alert 112 or 40). */
    final AtomicCounter unrouted;

    /** Server: first flights that were not a readable ClientHello. */
    final AtomicCounter rejected;

    /** Handshakes not done in time. */
    final AtomicCounter timedOut;

    /** Server: TLS 1.2 renegotiations refused. */
    final AtomicCounter renegotiationRefused;

    TlsHandshakeCounters(EngineContext context, long bindingId)
    {
        this.handshakes = context.supplyCounter(bindingId, "handshakes");
        this.resumed = context.supplyCounter(bindingId, "handshakes.resumed");
        this.failed = context.supplyCounter(bindingId, "handshakes.failed");
        this.recordFailed = context.supplyCounter(bindingId, "records.failed");
        this.unrouted = context.supplyCounter(bindingId, "connections.unrouted");
        this.rejected = context.supplyCounter(bindingId, "connections.rejected");
        this.timedOut = context.supplyCounter(bindingId, "handshakes.timedout");
        this.renegotiationRefused = context.supplyCounter(bindingId, "renegotiations.refused");
    }
}
