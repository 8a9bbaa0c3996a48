/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How busy each core of the machine was, from the per-core lines of {@code /proc/stat}: with the broker, the
 * clients and zilla pinned to cores of their own, it tells which core a run was bound by (one near 100% while the
 * other has room left) or that none was (the clients waiting on round trips instead).
 */
final class CoreBusy
{
    private static final Path PROC_STAT = Path.of("/proc/stat");
    private static final double[] NONE = new double[0];

    private final long[] busy;
    private final long[] total;

    private CoreBusy(long[] busy, long[] total)
    {
        this.busy = busy;
        this.total = total;
    }

    /** The counters now; no cores where the system has no {@code /proc/stat}. */
    static CoreBusy now()
    {
        try
        {
            final List<String> cores = Files.readAllLines(PROC_STAT).stream()
                .filter(line -> line.startsWith("cpu") && Character.isDigit(line.charAt(3)))
                .toList();
            final long[] busy = new long[cores.size()];
            final long[] total = new long[cores.size()];
            for (int core = 0; core < cores.size(); core++)
            {
                // "cpuN user nice system idle iowait irq softirq steal ...", in clock ticks; idle and iowait are not
                // busy, steal is time the core was not ours at all
                final String[] fields = cores.get(core).trim().split("\\s+");
                for (int i = 1; i <= 8 && i < fields.length; i++)
                {
                    final long ticks = Long.parseLong(fields[i]);
                    total[core] += ticks;
                    busy[core] += i == 4 || i == 5 || i == 8 ? 0 : ticks;
                }
            }
            return new CoreBusy(busy, total);
        }
        catch (IOException | RuntimeException ex)
        {
            return new CoreBusy(new long[0], new long[0]);
        }
    }

    /** Each core's busy share since {@code before}, in percent, by core number; empty when it cannot be told. */
    double[] percentSince(CoreBusy before)
    {
        if (before.busy.length != busy.length)
        {
            return NONE;
        }
        final double[] percent = new double[busy.length];
        for (int core = 0; core < busy.length; core++)
        {
            final long elapsed = total[core] - before.total[core];
            percent[core] = elapsed > 0 ? 100.0 * (busy[core] - before.busy[core]) / elapsed : Double.NaN;
        }
        return percent;
    }
}
