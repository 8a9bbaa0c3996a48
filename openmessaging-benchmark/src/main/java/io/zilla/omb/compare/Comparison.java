/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import io.zilla.omb.result.TestResult;

/**
 * The ratio table of a compare run: each metric's median over the repetitions for the baseline (the first driver)
 * and another driver, their ratio, and whether the difference is significant: a two-sided Mann-Whitney U test at
 * {@link #ALPHA} over the per-period values of all repetitions (latencies, rates) or over the per-repetition values
 * (max rate, zilla CPU).
 */
public final class Comparison
{
    public static final double ALPHA = 0.01;

    private final String baseline;
    private final String other;
    private final List<Row> rows = new ArrayList<>();

    /**
     * @param baselineRuns the baseline's results, one per repetition
     * @param otherRuns the other driver's results, one per repetition
     * @param baselineCores zilla's CPU use in cores per repetition (NaN when direct)
     * @param otherCores the same for the other driver
     */
    public Comparison(List<TestResult> baselineRuns, List<TestResult> otherRuns, double[] baselineCores, double[] otherCores)
    {
        this.baseline = baselineRuns.get(0).driver;
        this.other = otherRuns.get(0).driver;
        addLatency("publish p50 (ms)", baselineRuns, otherRuns, r -> r.aggregatedPublishLatency50pct, r -> r.publishLatency50pct);
        addLatency("publish p99 (ms)", baselineRuns, otherRuns, r -> r.aggregatedPublishLatency99pct, r -> r.publishLatency99pct);
        addLatency("publish p99.9 (ms)", baselineRuns, otherRuns, r -> r.aggregatedPublishLatency999pct,
            r -> r.publishLatency999pct);
        addLatency("end-to-end p50 (ms)", baselineRuns, otherRuns, r -> r.aggregatedEndToEndLatency50pct,
            r -> r.endToEndLatency50pct);
        addLatency("end-to-end p99 (ms)", baselineRuns, otherRuns, r -> r.aggregatedEndToEndLatency99pct,
            r -> r.endToEndLatency99pct);
        addLatency("end-to-end p99.9 (ms)", baselineRuns, otherRuns, r -> r.aggregatedEndToEndLatency999pct,
            r -> r.endToEndLatency999pct);
        if (baselineRuns.get(0).maxRateSearch)
        {
            add("max rate (msg/s)", values(baselineRuns, r -> r.producerRate), values(otherRuns, r -> r.producerRate));
        }
        else
        {
            addLatency("publish rate (msg/s)", baselineRuns, otherRuns,
                r -> r.publishRate.stream().mapToDouble(Double::doubleValue).average().orElse(0), r -> r.publishRate);
        }
        add("zilla CPU (cores)", finite(baselineCores), finite(otherCores));
    }

    public List<Row> rows()
    {
        return List.copyOf(rows);
    }

    /** The table as text, one metric per line. */
    public String table()
    {
        final StringBuilder out = new StringBuilder();
        final int width = Math.max(14, Math.max(baseline.length(), other.length()) + 2);
        out.append(String.format(Locale.ROOT, "%-24s%" + width + "s%" + width + "s%10s%10s  %s%n",
            "metric", baseline, other, "ratio", "p-value", "significant (p < " + ALPHA + ")"));
        for (Row row : rows)
        {
            out.append(String.format(Locale.ROOT, "%-24s%" + width + "s%" + width + "s%10s%10s  %s%n",
                row.metric(), number(row.baseline()), number(row.other()), number(row.ratio()),
                Double.isNaN(row.pValue()) ? "-" : String.format(Locale.ROOT, "%.3f", row.pValue()),
                Double.isNaN(row.pValue()) ? "-" : row.significant() ? "yes" : "no"));
        }
        return out.toString();
    }

    /**
     * Several comparisons against one baseline in one table: the baseline's median, then each other driver's median,
     * its ratio to the baseline and the p-value (a {@code *} when significant), so that direct Kafka, zilla and another
     * proxy read side by side.
     */
    public static String sideBySide(List<Comparison> comparisons)
    {
        final Comparison first = comparisons.get(0);
        int width = Math.max(14, first.baseline.length() + 2);
        for (Comparison comparison : comparisons)
        {
            width = Math.max(width, comparison.other.length() + 2);
        }
        final StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-24s%" + width + "s", "metric",
            first.baseline));
        for (Comparison comparison : comparisons)
        {
            out.append(String.format(Locale.ROOT, "%" + width + "s%10s%10s", comparison.other, "ratio", "p-value"));
        }
        out.append(System.lineSeparator());
        for (int r = 0; r < first.rows.size(); r++)
        {
            final Row baselineRow = first.rows.get(r);
            out.append(String.format(Locale.ROOT, "%-24s%" + width + "s", baselineRow.metric(),
                number(baselineRow.baseline())));
            for (Comparison comparison : comparisons)
            {
                final Row row = comparison.rows.get(r);
                final String p = Double.isNaN(row.pValue()) ? "-"
                    : String.format(Locale.ROOT, "%.3f%s", row.pValue(), row.significant() ? "*" : " ");
                out.append(String.format(Locale.ROOT, "%" + width + "s%10s%10s", number(row.other()), number(row.ratio()),
                    p));
            }
            out.append(System.lineSeparator());
        }
        out.append("ratio: driver / ").append(first.baseline).append("; * significant at p < ").append(ALPHA)
            .append(System.lineSeparator());
        return out.toString();
    }

    private void addLatency(String metric, List<TestResult> a, List<TestResult> b, Function<TestResult, Double> aggregated,
        Function<TestResult, List<Double>> periods)
    {
        final double medianA = median(values(a, aggregated));
        final double medianB = median(values(b, aggregated));
        final double p = MannWhitney.pValue(pooled(a, periods), pooled(b, periods));
        rows.add(new Row(metric, medianA, medianB, medianB / medianA, p, p < ALPHA));
    }

    private void add(String metric, List<Double> a, List<Double> b)
    {
        final double medianA = median(a);
        final double medianB = median(b);
        final double p = a.isEmpty() || b.isEmpty() ? Double.NaN : MannWhitney.pValue(a, b);
        rows.add(new Row(metric, medianA, medianB, medianB / medianA, p, p < ALPHA));
    }

    private static List<Double> values(List<TestResult> runs, Function<TestResult, Double> value)
    {
        return runs.stream().map(value).toList();
    }

    private static List<Double> pooled(List<TestResult> runs, Function<TestResult, List<Double>> periods)
    {
        final List<Double> all = new ArrayList<>();
        runs.forEach(r -> all.addAll(periods.apply(r)));
        return all;
    }

    private static List<Double> finite(double[] values)
    {
        return Arrays.stream(values).filter(Double::isFinite).boxed().toList();
    }

    static double median(List<Double> values)
    {
        if (values.isEmpty())
        {
            return Double.NaN;
        }
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static String number(double value)
    {
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            return "-";
        }
        return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.3f", value);
    }

    /** One metric: the baseline's and the other driver's medians, other / baseline, the p-value (NaN: not tested). */
    public record Row(String metric, double baseline, double other, double ratio, double pValue, boolean significant)
    {
    }
}
