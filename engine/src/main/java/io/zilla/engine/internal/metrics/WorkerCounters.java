/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.metrics;

import io.zilla.engine.internal.EngineDirectory;
import org.agrona.collections.Object2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/** A worker's counters, created on first use and found again by label. */
public final class WorkerCounters implements AutoCloseable
{
    private final CountersFile file;
    private final CountersManager manager;
    private final Object2ObjectHashMap<String, AtomicCounter> counters = new Object2ObjectHashMap<>();

    public WorkerCounters(EngineDirectory directory, int workerIndex, int valuesLength)
    {
        this.file = CountersFile.create(directory, workerIndex, valuesLength);
        this.manager = new CountersManager(file.metadata(), file.values());
    }

    /** The counter {@code <binding>:<name>}. */
    public AtomicCounter supply(String bindingName, String name)
    {
        final String label = bindingName + ":" + name;
        AtomicCounter counter = counters.get(label);
        if (counter == null)
        {
            // a full file must not fail a stream: the counter then counts in memory only
            counter = manager.available() > 0
                ? manager.newCounter(label)
                : new AtomicCounter(new UnsafeBuffer(new byte[CountersReader.COUNTER_LENGTH]), 0);
            counters.put(label, counter);
        }
        return counter;
    }

    /**
     * Unmaps the file and leaves the counters in it: freeing them would mark them reclaimed, and {@code zilla metrics}
     * (EngineCounters) must still read a stopped engine's counters. The next engine on the directory recreates the file.
     */
    @Override
    public void close()
    {
        counters.clear();
        file.close();
    }
}
