/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An idle worker blocks in select instead of spinning: over two idle seconds its threads use well under 1%
 * of a core. (CPU time, not wall time: this checks that the worker sleeps, not how fast it is.)
 */
class IdleWorkerTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().property(EngineConfiguration.WORKERS, 2);

    @Test
    void shouldSleepWhenIdle() throws InterruptedException
    {
        final RouteConfig route = new RouteConfig(0, List.of(), null, "net", 1L << 32 | 2, Map.of());
        engine.start(new NamespaceConfig("idle", List.of(
            new BindingConfig(1L << 32 | 1, "app", "test", KindConfig.CLIENT, null, null, List.of(route)),
            new BindingConfig(1L << 32 | 2, "net", "test", KindConfig.SERVER, null, null, List.of())),
            List.of(), List.of(), TelemetryConfig.EMPTY));
        Thread.sleep(500);

        final long before = workerCpuNanos();
        final long start = System.nanoTime();
        Thread.sleep(2000);
        final long cpu = workerCpuNanos() - before;
        final long wall = System.nanoTime() - start;

        final double percentOfACore = 100.0 * cpu / wall / 2;
        assertTrue(percentOfACore < 1.0, "each idle worker used " + percentOfACore + "% of a core");
    }

    private static long workerCpuNanos()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.dumpAllThreads(false, false))
        {
            if (info.getThreadName().startsWith("zilla-worker-"))
            {
                total += threads.getThreadCpuTime(info.getThreadId());
            }
        }
        return total;
    }
}
