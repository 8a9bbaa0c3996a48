/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Keeps the echo benchmark working: a short run against both targets must echo messages without errors. This
 * checks the harness, not speed (docs/benchmarks.md has the figures and the command that measures them).
 */
class TcpEchoBenchmarkTest
{
    @Test
    void shouldEchoThroughBothTargets() throws Exception
    {
        final List<TcpEchoBenchmark.Run> runs = TcpEchoBenchmark.of("--connections", "4", "--warmup", "0.1",
            "--duration", "0.3", "--rounds", "1", "--idle", "0.1").run();

        assertEquals(2, runs.size());
        for (TcpEchoBenchmark.Run run : runs)
        {
            assertTrue(run.result().messages() > 0, run.target() + " echoed nothing");
            assertEquals(0, run.result().errors(), run.target() + " echoed wrong bytes");
        }
    }
}
