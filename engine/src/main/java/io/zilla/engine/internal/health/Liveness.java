/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.health;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * Whether every worker is alive and going round its loop: a worker whose thread ended, or that has not passed for
 * longer than the stall threshold (a binding blocked in a handler, a loop that never returns), is not. An idle worker
 * passes every {@code zilla.engine.idle.park.max.millis} at least, so idleness never looks like a stall.
 */
public final class Liveness
{
    private final List<WorkerPulse> pulses;
    private final long stallMillis;
    private final LongSupplier clock;

    public Liveness(List<WorkerPulse> pulses, long stallMillis, LongSupplier clock)
    {
        this.pulses = List.copyOf(pulses);
        this.stallMillis = stallMillis;
        this.clock = clock;
    }

    /** {@code {"live":true,"workers":2}}, or the stopped and stalled workers: {@code {"worker":1,"stalled_ms":6012}}. */
    public Verdict check()
    {
        final long now = clock.getAsLong();
        final StringBuilder unmet = new StringBuilder();
        for (WorkerPulse pulse : pulses)
        {
            final long stalled = now - pulse.lastPassMillis();
            String problem = null;
            if (!pulse.alive())
            {
                problem = "{\"worker\":" + pulse.worker() + ",\"alive\":false}";
            }
            else if (stalled > stallMillis)
            {
                problem = "{\"worker\":" + pulse.worker() + ",\"stalled_ms\":" + stalled + "}";
            }
            if (problem != null)
            {
                unmet.append(unmet.length() > 0 ? "," : "").append(problem);
            }
        }
        return unmet.length() == 0
            ? new Verdict(true, "{\"live\":true,\"workers\":" + pulses.size() + "}")
            : new Verdict(false, "{\"live\":false,\"workers\":" + pulses.size() + ",\"stalled\":[" + unmet + "]}");
    }
}
