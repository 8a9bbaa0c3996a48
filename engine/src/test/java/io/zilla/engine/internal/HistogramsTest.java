/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import java.util.Map;

import io.zilla.engine.EngineHistograms;
import io.zilla.engine.internal.metrics.WorkerHistograms;
import io.zilla.engine.metrics.Buckets;
import io.zilla.engine.metrics.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each worker records into its histograms file; a reader sums the files of every worker, as exporters read them. */
class HistogramsTest
{
    private static final Buckets BUCKETS = new Buckets(10, 100, 1000);

    @TempDir
    Path directory;

    @Test
    void shouldReadWhatEveryWorkerRecordedSummedOverWorkers() throws Exception
    {
        try (EngineDirectory engine = EngineDirectory.lock(directory);
            WorkerHistograms worker0 = new WorkerHistograms(engine, 0, 8);
            WorkerHistograms worker1 = new WorkerHistograms(engine, 1, 8))
        {
            final Histogram first = worker0.supply("north_http_server", "http.duration", BUCKETS);
            assertSame(first, worker0.supply("north_http_server", "http.duration", BUCKETS));
            first.record(5);
            first.record(50);
            first.record(5_000);
            worker1.supply("north_http_server", "http.duration", BUCKETS).record(10);
            worker1.supply("north_http_server", "http.request.size", BUCKETS).record(-3);

            final Map<String, Map<String, EngineHistograms.Values>> read = EngineHistograms.read(directory);

            final EngineHistograms.Values duration = read.get("north_http_server").get("http.duration");
            assertArrayEquals(new long[] {10, 100, 1000}, duration.bounds());
            assertArrayEquals(new long[] {2, 1, 0, 1}, duration.counts());
            assertEquals(4, duration.count());
            assertEquals(5 + 50 + 5_000 + 10, duration.sum());
            assertEquals(10, duration.quantile(0.5));
            assertEquals(Long.MAX_VALUE, duration.quantile(0.99));
            // a negative value (a clock that went back) counts as 0
            final EngineHistograms.Values size = read.get("north_http_server").get("http.request.size");
            assertArrayEquals(new long[] {1, 0, 0, 0}, size.counts());
            assertEquals(0, size.sum());
        }
    }

    @Test
    void shouldRecordInMemoryOnceTheFileIsFull() throws Exception
    {
        try (EngineDirectory engine = EngineDirectory.lock(directory);
            WorkerHistograms worker = new WorkerHistograms(engine, 0, 1))
        {
            worker.supply("a", "http.duration", BUCKETS).record(1);
            final Histogram beyond = worker.supply("b", "http.duration", BUCKETS);
            beyond.record(1);

            final Map<String, Map<String, EngineHistograms.Values>> read = EngineHistograms.read(directory);

            assertEquals(1, read.get("a").get("http.duration").count());
            assertEquals(null, read.get("b"));
        }
    }
}
