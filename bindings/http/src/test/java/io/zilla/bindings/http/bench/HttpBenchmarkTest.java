/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The http benchmark at tiny durations, so that it keeps working: every workload is measured on every target, and
 * every request it sent was answered with a 2xx. Nothing here is timed.
 */
class HttpBenchmarkTest
{
    @Test
    void shouldMeasureEveryWorkloadOnEveryTargetWithoutAFailedRequest() throws Exception
    {
        final List<String> lines = new ArrayList<>();
        final List<HttpBenchmark.Run> runs = new HttpBenchmark(Map.of("duration", "1", "warmup", "0", "rounds", "1",
            "size", "16384", "h1-connections", "4", "h2-connections", "2", "streams", "8")).run(lines::add);

        assertEquals(8, runs.size(), String.join("\n", lines));
        for (HttpBenchmark.Run run : runs)
        {
            assertTrue(run.load().succeeded() > 0, run + "\n" + run.load().output());
            assertEquals(0, run.load().failed(), run + "\n" + run.load().output());
        }
        final String summary = HttpBenchmark.summary(runs);
        assertTrue(summary.contains("| h2c-post | zilla |"), summary);
        assertTrue(summary.contains("| h2c-get | nghttpd |"), summary);
        assertTrue(summary.contains("| h1-get | nginx |"), summary);
    }
}
