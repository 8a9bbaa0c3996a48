/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

import org.agrona.concurrent.status.AtomicCounter;

/** Records into metrics that may be null (not selected): the data path's one check. */
public final class Metrics
{
    private Metrics()
    {
    }

    public static void increment(AtomicCounter counter)
    {
        if (counter != null)
        {
            counter.incrementRelease();
        }
    }

    public static void decrement(AtomicCounter counter)
    {
        if (counter != null)
        {
            counter.decrementRelease();
        }
    }

    public static void add(AtomicCounter counter, long value)
    {
        if (counter != null)
        {
            counter.getAndAddRelease(value);
        }
    }

    public static void record(Histogram histogram, long value)
    {
        if (histogram != null)
        {
            histogram.record(value);
        }
    }
}
