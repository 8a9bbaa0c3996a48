/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.result;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.HdrHistogram.Histogram;

/**
 * {@code benchmark --csv DIR}, as OMB's: one line per result file of the directory (sorted by message size, topics,
 * partitions) with the topology and the minimum, mean, standard deviation and maximum of the per-period publish and
 * consume rates, into {@code results-<epoch seconds>.csv}. The statistics come from a histogram of one significant
 * digit, as OMB's do, so that the two tools print the same figures for the same files.
 */
public final class ResultsCsv
{
    static final String HEADER = "topics,partitions,message-size,producers-per-topic,consumers-per-topic,"
        + "prod-rate-min,prod-rate-avg,prod-rate-std-dev,prod-rate-max,"
        + "con-rate-min,con-rate-avg,con-rate-std-dev,con-rate-max,";
    private static final long HIGHEST_RATE = 10_000_000;

    private ResultsCsv()
    {
    }

    /** Writes the CSV of the results in {@code directory} into {@code target}; returns the file. */
    public static Path write(Path directory, Path target) throws IOException
    {
        if (!Files.isDirectory(directory))
        {
            throw new IOException("--csv: not a directory: " + directory);
        }
        final List<TestResult> results = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory))
        {
            for (Path file : files.filter(f -> Files.isRegularFile(f) && f.toString().endsWith(".json")).sorted().toList())
            {
                results.add(ResultFiles.read(file));
            }
        }
        results.sort(Comparator.<TestResult>comparingLong(r -> r.messageSize).thenComparingLong(r -> r.topics)
            .thenComparingLong(r -> r.partitions));
        final StringBuilder csv = new StringBuilder(HEADER).append('\n');
        for (TestResult result : results)
        {
            csv.append(line(result)).append('\n');
        }
        final Path file = target.resolve("results-" + Instant.now().getEpochSecond() + ".csv");
        Files.writeString(file, csv);
        return file;
    }

    static String line(TestResult result)
    {
        final Histogram publish = rates(result.publishRate);
        final Histogram consume = rates(result.consumeRate);
        return String.format(Locale.ROOT, "%d,%d,%d,%d,%d,%s,%s", result.topics, result.partitions, result.messageSize,
            result.producersPerTopic, result.consumersPerTopic, columns(publish), columns(consume));
    }

    private static Histogram rates(List<Double> rates)
    {
        final Histogram histogram = new Histogram(HIGHEST_RATE, 1);
        rates.forEach(rate -> histogram.recordValueWithCount(Math.min(HIGHEST_RATE, rate.longValue()), 2));
        return histogram;
    }

    private static String columns(Histogram rates)
    {
        return String.format(Locale.ROOT, "%d,%d,%s,%d", rates.getMinNonZeroValue() == Long.MAX_VALUE ? 0
            : rates.getMinNonZeroValue(), Math.round(rates.getMean()), twoDecimals(rates.getStdDeviation()),
            rates.getMaxValue());
    }

    /** As OMB's {@code {7,number,#.##}}: at most two decimals, none written when they are zeros. */
    private static String twoDecimals(double value)
    {
        return new DecimalFormat("#.##", DecimalFormatSymbols.getInstance(Locale.ROOT)).format(value);
    }
}
