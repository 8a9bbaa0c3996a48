/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.zilla.engine.internal.EngineDirectory;
import io.zilla.engine.metrics.Buckets;
import io.zilla.engine.metrics.Histogram;
import org.agrona.collections.Object2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/** A worker's histograms, created on first use and found again by label, as {@link WorkerCounters} does counters. */
public final class WorkerHistograms implements AutoCloseable
{
    private final HistogramsFile file;
    private final Object2ObjectHashMap<String, Histogram> histograms = new Object2ObjectHashMap<>();
    private int allocated;

    public WorkerHistograms(EngineDirectory directory, int workerIndex, int capacity)
    {
        this.file = HistogramsFile.create(directory, workerIndex, capacity);
    }

    /** The histogram {@code <binding>:<metric>}. */
    public Histogram supply(String bindingName, String metric, Buckets buckets)
    {
        final String label = bindingName + ":" + metric;
        Histogram histogram = histograms.get(label);
        if (histogram == null)
        {
            final byte[] bytes = label.getBytes(UTF_8);
            // a full file (or a label too long for it) must not fail a stream: the histogram then records in memory only
            histogram = allocated < file.capacity() && bytes.length <= HistogramsFile.MAX_LABEL_LENGTH
                ? file.allocate(allocated++, bytes, buckets)
                : new Histogram(new UnsafeBuffer(new byte[Histogram.VALUES_LENGTH]), 0, buckets);
            histograms.put(label, histogram);
        }
        return histogram;
    }

    /** Unmaps the file and leaves the histograms in it, for {@code zilla metrics} to read after the engine stopped. */
    @Override
    public void close()
    {
        histograms.clear();
        file.close();
    }
}
