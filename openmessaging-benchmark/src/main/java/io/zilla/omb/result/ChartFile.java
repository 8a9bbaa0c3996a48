/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.result;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One self-contained HTML file of inline SVG charts for a set of results, one series per result (per driver):
 * publish, publish delay and end-to-end latency by percentile (both axes logarithmic, the percentile axis as
 * {@code 1 / (1 - p)} so that p90, p99, p99.9 are evenly spaced), then publish and consume rates over time. No
 * scripts and no external resources, so the file opens anywhere and can be attached to an issue.
 */
public final class ChartFile
{
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};
    private static final int WIDTH = 720;
    private static final int HEIGHT = 380;
    private static final int LEFT = 80;
    private static final int RIGHT = 20;
    private static final int TOP = 40;
    private static final int BOTTOM = 50;
    private static final double MIN_MILLIS = 0.001;
    private static final double MAX_NINES = 5;

    private ChartFile()
    {
    }

    public static Path write(List<TestResult> results, Path file, String title) throws IOException
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        Files.writeString(file, html(results, title), StandardCharsets.UTF_8);
        return file;
    }

    static String html(List<TestResult> results, String title)
    {
        final StringBuilder out = new StringBuilder();
        out.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(escape(title))
            .append("</title>\n<style>body{font-family:sans-serif;margin:24px}svg{display:block;margin:12px 0}"
                + "text{font-size:12px}.title{font-size:15px;font-weight:bold}</style></head><body>\n")
            .append("<h1>").append(escape(title)).append("</h1>\n");
        out.append(quantileChart("Publish latency by percentile (ms)", results, r -> r.aggregatedPublishLatencyQuantiles));
        out.append(quantileChart("Publish delay by percentile (ms, intended to actual send)", results,
            r -> toMillis(r.aggregatedPublishDelayLatencyQuantiles)));
        out.append(quantileChart("End-to-end latency by percentile (ms)", results, r -> r.aggregatedEndToEndLatencyQuantiles));
        out.append(rateChart("Publish rate (msg/s)", results, r -> r.publishRate));
        out.append(rateChart("Consume rate (msg/s)", results, r -> r.consumeRate));
        out.append("</body></html>\n");
        return out.toString();
    }

    private static Map<Double, Double> toMillis(Map<Double, Long> micros)
    {
        final Map<Double, Double> millis = new TreeMap<>();
        micros.forEach((p, v) -> millis.put(p, v / 1000.0));
        return millis;
    }

    private static String quantileChart(String title, List<TestResult> results,
        Function<TestResult, Map<Double, Double>> quantiles)
    {
        final List<Series> series = new ArrayList<>();
        double min = Double.MAX_VALUE;
        double max = MIN_MILLIS;
        for (int i = 0; i < results.size(); i++)
        {
            final Map<Double, Double> values = quantiles.apply(results.get(i));
            final List<double[]> points = new ArrayList<>();
            for (Map.Entry<Double, Double> entry : values.entrySet())
            {
                final double nines = nines(entry.getKey());
                if (nines <= MAX_NINES)
                {
                    final double value = Math.max(MIN_MILLIS, entry.getValue());
                    points.add(new double[] {nines, Math.log10(value)});
                    min = Math.min(min, value);
                    max = Math.max(max, value);
                }
            }
            series.add(new Series(results.get(i).driver, COLORS[i % COLORS.length], points));
        }
        if (min > max)
        {
            min = MIN_MILLIS;
        }
        final double yLow = Math.floor(Math.log10(min));
        final double yHigh = Math.max(yLow + 1, Math.ceil(Math.log10(max)));
        final List<Tick> xTicks = new ArrayList<>();
        final String[] labels = {"p0", "p90", "p99", "p99.9", "p99.99", "p99.999"};
        for (int n = 0; n <= MAX_NINES; n++)
        {
            xTicks.add(new Tick(n, labels[n]));
        }
        final List<Tick> yTicks = new ArrayList<>();
        for (double decade = yLow; decade <= yHigh; decade++)
        {
            yTicks.add(new Tick(decade, number(Math.pow(10, decade))));
        }
        return svg(title, "percentile", series, 0, MAX_NINES, xTicks, yLow, yHigh, yTicks);
    }

    private static String rateChart(String title, List<TestResult> results, Function<TestResult, List<Double>> rates)
    {
        final List<Series> series = new ArrayList<>();
        double maxX = 1;
        double maxY = 1;
        for (int i = 0; i < results.size(); i++)
        {
            final TestResult result = results.get(i);
            final double period = result.statsPeriodSeconds > 0 ? result.statsPeriodSeconds : 10;
            final List<double[]> points = new ArrayList<>();
            final List<Double> values = rates.apply(result);
            for (int t = 0; t < values.size(); t++)
            {
                final double x = (t + 1) * period;
                points.add(new double[] {x, values.get(t)});
                maxX = Math.max(maxX, x);
                maxY = Math.max(maxY, values.get(t));
            }
            series.add(new Series(result.driver, COLORS[i % COLORS.length], points));
        }
        final double yHigh = niceCeiling(maxY * 1.1);
        final List<Tick> xTicks = new ArrayList<>();
        final List<Tick> yTicks = new ArrayList<>();
        for (int k = 0; k <= 5; k++)
        {
            xTicks.add(new Tick(maxX * k / 5, number(maxX * k / 5)));
            yTicks.add(new Tick(yHigh * k / 5, number(yHigh * k / 5)));
        }
        return svg(title, "seconds", series, 0, maxX, xTicks, 0, yHigh, yTicks);
    }

    private static String svg(String title, String xLabel, List<Series> series, double xLow, double xHigh, List<Tick> xTicks,
        double yLow, double yHigh, List<Tick> yTicks)
    {
        final double plotWidth = WIDTH - LEFT - RIGHT;
        final double plotHeight = HEIGHT - TOP - BOTTOM;
        final Function<Double, Double> sx = x -> LEFT + (x - xLow) / (xHigh - xLow) * plotWidth;
        final Function<Double, Double> sy = y -> TOP + plotHeight - (y - yLow) / (yHigh - yLow) * plotHeight;
        final StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            + "viewBox=\"0 0 %d %d\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        out.append(String.format(Locale.ROOT, "<text class=\"title\" x=\"%d\" y=\"22\">%s</text>\n", LEFT, escape(title)));
        out.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
            + "stroke=\"#999\"/>\n", LEFT, TOP, plotWidth, plotHeight));
        for (Tick tick : xTicks)
        {
            final double x = sx.apply(tick.value());
            out.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                x, TOP, x, TOP + plotHeight, x, TOP + plotHeight + 16, escape(tick.label())));
        }
        for (Tick tick : yTicks)
        {
            final double y = sy.apply(tick.value());
            out.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                LEFT, y, LEFT + plotWidth, y, LEFT - 6, y + 4, escape(tick.label())));
        }
        out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
            LEFT + plotWidth / 2, HEIGHT - 12, escape(xLabel)));
        for (int i = 0; i < series.size(); i++)
        {
            final Series s = series.get(i);
            final StringBuilder points = new StringBuilder();
            for (double[] point : s.points())
            {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", sx.apply(point[0]), sy.apply(point[1])));
            }
            out.append(String.format(Locale.ROOT, "<polyline class=\"series\" data-series=\"%s\" fill=\"none\" stroke=\"%s\" "
                + "stroke-width=\"2\" points=\"%s\"/>\n", escape(s.name()), s.color(), points.toString().trim()));
            final double legendY = TOP + 16 + 16 * i;
            out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"3\" fill=\"%s\"/>"
                + "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                LEFT + 12.0, legendY - 4, s.color(), LEFT + 30.0, legendY, escape(s.name())));
        }
        out.append("</svg>\n");
        return out.toString();
    }

    /** How many nines a percentile has: log10(1 / (1 - p)), so p90 is 1, p99 is 2. */
    static double nines(double percentile)
    {
        return percentile >= 100 ? Double.POSITIVE_INFINITY : Math.log10(100.0 / (100.0 - percentile));
    }

    private static double niceCeiling(double value)
    {
        final double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10})
        {
            if (step * magnitude >= value)
            {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String number(double value)
    {
        if ((value >= 1 || value == 0) && value == Math.rint(value))
        {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }

    private static String escape(String text)
    {
        return String.valueOf(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private record Series(String name, String color, List<double[]> points)
    {
    }

    private record Tick(double value, String label)
    {
    }
}
