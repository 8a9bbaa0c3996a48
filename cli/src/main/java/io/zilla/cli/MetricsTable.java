/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.PrintWriter;
import java.util.Map;

/** Prints metrics as aligned columns: binding and counter to the left, value to the right. */
final class MetricsTable
{
    private static final String BINDING = "binding";
    private static final String COUNTER = "counter";
    private static final String VALUE = "value";

    private MetricsTable()
    {
    }

    /** @param counters binding to counter to value, in the order to print */
    static void print(PrintWriter out, Map<String, ? extends Map<String, ?>> counters)
    {
        int bindingWidth = BINDING.length();
        int counterWidth = COUNTER.length();
        int valueWidth = VALUE.length();
        for (Map.Entry<String, ? extends Map<String, ?>> binding : counters.entrySet())
        {
            bindingWidth = Math.max(bindingWidth, binding.getKey().length());
            for (Map.Entry<String, ?> counter : binding.getValue().entrySet())
            {
                counterWidth = Math.max(counterWidth, counter.getKey().length());
                valueWidth = Math.max(valueWidth, String.valueOf(counter.getValue()).length());
            }
        }

        final String format = "%-" + bindingWidth + "s  %-" + counterWidth + "s  %" + valueWidth + "s%n";
        out.printf(format, BINDING, COUNTER, VALUE);
        for (Map.Entry<String, ? extends Map<String, ?>> binding : counters.entrySet())
        {
            for (Map.Entry<String, ?> counter : binding.getValue().entrySet())
            {
                out.printf(format, binding.getKey(), counter.getKey(), counter.getValue());
            }
        }
        out.flush();
    }
}
