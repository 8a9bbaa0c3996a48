/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.zilla.engine.internal.metrics.HistogramsFile;

/**
 * Reads the histograms of an engine, running or stopped, from its engine directory: each worker's memory-mapped
 * histograms file, summed over workers, as {@link EngineCounters} reads the counters.
 */
public final class EngineHistograms
{
    private EngineHistograms()
    {
    }

    /**
     * One histogram summed over workers.
     *
     * @param bounds the buckets' upper bounds, in the metric's unit; the last bucket (+Inf) has none
     * @param counts the observations in each bucket (not cumulative), {@code bounds.length + 1} of them
     * @param sum    the sum of the observed values
     */
    public record Values(long[] bounds, long[] counts, long sum)
    {
        /** The observations: the sum of the buckets, so that it always equals the +Inf bucket's cumulative count. */
        public long count()
        {
            return Arrays.stream(counts).sum();
        }

        /**
         * An estimate of a quantile: the upper bound of the bucket that holds it ({@link Long#MAX_VALUE} for the last),
         * or 0 for an empty histogram.
         */
        public long quantile(double q)
        {
            final long count = count();
            if (count == 0)
            {
                return 0L;
            }
            final long rank = (long) Math.ceil(q * count);
            long seen = 0;
            for (int i = 0; i < counts.length; i++)
            {
                seen += counts[i];
                if (seen >= Math.max(1, rank))
                {
                    return i < bounds.length ? bounds[i] : Long.MAX_VALUE;
                }
            }
            return Long.MAX_VALUE;
        }

        Values plus(long[] moreBounds, long[] moreCounts, long moreSum)
        {
            if (!Arrays.equals(bounds, moreBounds))
            {
                // workers always agree on a metric's buckets; a stale file of another version is left out
                return this;
            }
            final long[] added = counts.clone();
            for (int i = 0; i < added.length; i++)
            {
                added[i] += moreCounts[i];
            }
            return new Values(bounds, added, sum + moreSum);
        }
    }

    /**
     * @return binding name to metric name to values, both sorted by name; empty when no engine on the directory
     *         recorded a histogram (or the directory holds no histograms files, from an engine before them)
     * @throws IOException when the directory cannot be listed
     */
    public static Map<String, Map<String, Values>> read(Path directory) throws IOException
    {
        final Map<String, Map<String, Values>> values = new TreeMap<>();
        try (Stream<Path> paths = Files.list(directory))
        {
            for (Path path : paths.filter(p -> p.getFileName().toString().matches(HistogramsFile.PREFIX + "\\d+")).toList())
            {
                try (HistogramsFile file = HistogramsFile.open(path))
                {
                    file.forEach((label, bounds, counts, sum) ->
                    {
                        final int separator = label.indexOf(':');
                        final String binding = separator >= 0 ? label.substring(0, separator) : label;
                        final String name = separator >= 0 ? label.substring(separator + 1) : "";
                        values.computeIfAbsent(binding, b -> new TreeMap<>()).merge(name, new Values(bounds, counts, sum),
                            (was, more) -> was.plus(more.bounds(), more.counts(), more.sum()));
                    });
                }
            }
        }
        return values;
    }
}
