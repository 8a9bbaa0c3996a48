/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.metrics;

import java.util.Set;

import org.agrona.concurrent.status.AtomicCounter;

/** The counters the engine keeps for every binding on a worker, as frames pass through its ring. */
public final class BindingCounters
{
    public final AtomicCounter streamsOpened;
    public final AtomicCounter streamsClosed;
    public final AtomicCounter framesReceived;
    public final AtomicCounter bytesReceived;
    public final AtomicCounter bytesSent;
    public final AtomicCounter resetsReceived;
    public final AtomicCounter abortsReceived;
    public final AtomicCounter ringFull;
    public final AtomicCounter faults;
    public final AtomicCounter streamsRefused;
    /** The binding's stream.* metrics, or null when its telemetry selects none. */
    public final StreamMetrics stream;

    public BindingCounters(WorkerCounters counters, String bindingName)
    {
        this(counters, bindingName, Set.of());
    }

    public BindingCounters(WorkerCounters counters, String bindingName, Set<String> metrics)
    {
        this.streamsOpened = counters.supply(bindingName, "streams.opened");
        this.streamsClosed = counters.supply(bindingName, "streams.closed");
        this.framesReceived = counters.supply(bindingName, "frames.received");
        this.bytesReceived = counters.supply(bindingName, "bytes.received");
        this.bytesSent = counters.supply(bindingName, "bytes.sent");
        this.resetsReceived = counters.supply(bindingName, "resets.received");
        this.abortsReceived = counters.supply(bindingName, "aborts.received");
        this.ringFull = counters.supply(bindingName, "ring.full");
        this.faults = counters.supply(bindingName, "faults");
        this.streamsRefused = counters.supply(bindingName, "streams.refused");
        this.stream = StreamMetrics.of(counters, bindingName, metrics);
    }
}
