/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import io.zilla.engine.binding.EngineContext;
import org.agrona.concurrent.status.AtomicCounter;

/** One tls proxy binding's counters on one worker ({@code zilla metrics} shows them). */
final class TlsCounters
{
    /** Connections whose ClientHello matched a route and went on to its exit. */
    final AtomicCounter routed;

    /** Connections whose ClientHello matched no route: answered with an alert and closed. */
    final AtomicCounter unrouted;

    /** Connections that did not start with a readable ClientHello (not TLS, malformed, too large, truncated). */
    final AtomicCounter rejected;

    /** Connections that did not send a whole ClientHello in time. */
    final AtomicCounter timedOut;

    TlsCounters(EngineContext context, long bindingId)
    {
        this.routed = context.supplyCounter(bindingId, "connections.routed");
        this.unrouted = context.supplyCounter(bindingId, "connections.unrouted");
        this.rejected = context.supplyCounter(bindingId, "connections.rejected");
        this.timedOut = context.supplyCounter(bindingId, "connections.timedout");
    }
}
