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
    private static final String RATE = "rate/s";
    private static final String NONE = "-";

    private MetricsTable()
    {
    }

    /** @param counters binding to counter to value, in the order to print */
    static void print(PrintWriter out, Map<String, ? extends Map<String, ?>> counters)
    {
        print(out, counters, null);
    }

    /**
     * @param counters binding to counter to value, in the order to print
     * @param rates    binding to counter to its rate per second, printed as a fourth column ({@code -} where there is
     *                 none); null for three columns
     */
    static void print(PrintWriter out, Map<String, ? extends Map<String, ?>> counters, Map<String, Map<String, String>> rates)
    {
        int bindingWidth = BINDING.length();
        int counterWidth = COUNTER.length();
        int valueWidth = VALUE.length();
        int rateWidth = RATE.length();
        for (Map.Entry<String, ? extends Map<String, ?>> binding : counters.entrySet())
        {
            bindingWidth = Math.max(bindingWidth, binding.getKey().length());
            for (Map.Entry<String, ?> counter : binding.getValue().entrySet())
            {
                counterWidth = Math.max(counterWidth, counter.getKey().length());
                valueWidth = Math.max(valueWidth, String.valueOf(counter.getValue()).length());
                rateWidth = Math.max(rateWidth, rate(rates, binding.getKey(), counter.getKey()).length());
            }
        }

        final String columns = "%-" + bindingWidth + "s  %-" + counterWidth + "s  %" + valueWidth + "s";
        final String format = rates != null ? columns + "  %" + rateWidth + "s%n" : columns + "%n";
        out.printf(format, BINDING, COUNTER, VALUE, RATE);
        for (Map.Entry<String, ? extends Map<String, ?>> binding : counters.entrySet())
        {
            for (Map.Entry<String, ?> counter : binding.getValue().entrySet())
            {
                out.printf(format, binding.getKey(), counter.getKey(), counter.getValue(),
                    rate(rates, binding.getKey(), counter.getKey()));
            }
        }
        out.flush();
    }

    private static String rate(Map<String, Map<String, String>> rates, String binding, String counter)
    {
        final Map<String, String> bindingRates = rates != null ? rates.get(binding) : null;
        final String rate = bindingRates != null ? bindingRates.get(counter) : null;
        return rate != null ? rate : NONE;
    }
}
