/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The share of the machine's CPU time that its hypervisor gave to others ("steal", the {@code st} of vmstat), from
 * {@code /proc/stat}: on a virtual machine it stalls the broker, the clients and zilla alike, at random, and a run
 * with much of it measures the host's neighbours rather than the system under test.
 */
public final class CpuSteal
{
    private static final Path PROC_STAT = Path.of("/proc/stat");

    private final long steal;
    private final long total;

    private CpuSteal(long steal, long total)
    {
        this.steal = steal;
        this.total = total;
    }

    /** The counters now; zero where the system has no {@code /proc/stat}. */
    public static CpuSteal now()
    {
        try
        {
            // "cpu  user nice system idle iowait irq softirq steal guest guest_nice", in clock ticks
            final String[] fields = Files.readAllLines(PROC_STAT).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i <= 8 && i < fields.length; i++)
            {
                total += Long.parseLong(fields[i]);
            }
            return new CpuSteal(fields.length > 8 ? Long.parseLong(fields[8]) : 0, total);
        }
        catch (IOException | RuntimeException ex)
        {
            return new CpuSteal(0, 0);
        }
    }

    /** The percentage of CPU time stolen since {@code before}, or NaN when it cannot be told. */
    public double percentSince(CpuSteal before)
    {
        final long elapsed = total - before.total;
        return elapsed > 0 ? 100.0 * (steal - before.steal) / elapsed : Double.NaN;
    }
}
