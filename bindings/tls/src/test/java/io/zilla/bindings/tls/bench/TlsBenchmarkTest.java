/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Keeps the TLS benchmark working: a short run of every workload against every target must measure handshakes and
 * download every byte without errors. This checks the harness, not speed (docs/benchmarks.md has the figures and the
 * command that measures them).
 */
class TlsBenchmarkTest
{
    @Test
    void shouldMeasureEveryWorkloadOnEveryTarget() throws Exception
    {
        final List<TlsBenchmark.Run> runs = TlsBenchmark.of("--time", "1", "--warmup", "0", "--size", "2",
            "--downloads", "2", "--rounds", "1").run();

        assertEquals(9, runs.size());
        for (TlsBenchmark.Run run : runs)
        {
            final String what = run.target() + " " + run.workload();
            assertTrue(run.count() > 0, what + " measured nothing");
            assertEquals(0, run.errors(), what + " had errors");
            if (TlsBenchmark.BULK.equals(run.workload()))
            {
                assertEquals(2 * 2 * 1024 * 1024L, run.count(), what + " bytes");
                // s_server's CPU is counted in 10 ms ticks: 4 MiB may take none of them
                assertTrue(run.usage().cpuNanos() > 0 || TlsBenchmark.OPENSSL.equals(run.target()), what + " server CPU");
            }
        }
    }
}
