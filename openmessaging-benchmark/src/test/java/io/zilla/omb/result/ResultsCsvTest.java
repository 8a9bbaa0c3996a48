/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsCsvTest
{
    @TempDir
    Path directory;

    @Test
    void shouldPrintOneLinePerResultSortedByMessageSizeAsOmbDoes() throws Exception
    {
        Files.createDirectories(directory.resolve("results"));
        ResultFiles.write(result(1024, 16, List.of(10_000.0, 10_000.0, 10_000.0), List.of(9_000.0, 11_000.0, 10_000.0)),
            directory.resolve("results/b.json"));
        ResultFiles.write(result(100, 1, List.of(50_000.0, 0.0), List.of(50_000.0, 0.0)),
            directory.resolve("results/a.json"));
        Files.writeString(directory.resolve("results/notes.txt"), "not a result");

        final Path csv = ResultsCsv.write(directory.resolve("results"), directory);

        assertTrue(csv.getFileName().toString().matches("results-\\d+\\.csv"), csv::toString);
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(3, lines.size(), lines::toString);
        assertEquals(ResultsCsv.HEADER, lines.get(0));
        // sorted by message size; then min (non-zero), mean, standard deviation and max of each rate list, from a
        // histogram of one significant digit as OMB's: within its precision (1/16) of the exact figures
        final double[] small = numbers(lines.get(1));
        assertEquals(List.of(1.0, 1.0, 100.0, 1.0, 1.0), List.of(small[0], small[1], small[2], small[3], small[4]));
        assertClose(50_000, small[5]);
        assertClose(25_000, small[6]);
        assertClose(25_000, small[7]);
        assertClose(50_000, small[8]);
        final double[] large = numbers(lines.get(2));
        assertEquals(16.0, large[1]);
        assertEquals(1024.0, large[2]);
        assertClose(10_000, large[6]);
        assertClose(9_000, large[9]);
        assertClose(11_000, large[12]);
    }

    private static double[] numbers(String line)
    {
        return Arrays.stream(line.split(",")).mapToDouble(Double::parseDouble).toArray();
    }

    private static void assertClose(double expected, double actual)
    {
        assertTrue(Math.abs(actual - expected) <= expected / 16, () -> actual + " is not within 1/16 of " + expected);
    }

    private static TestResult result(int messageSize, int partitions, List<Double> publish, List<Double> consume)
    {
        final TestResult result = new TestResult();
        result.workload = "w" + messageSize;
        result.driver = "d";
        result.messageSize = messageSize;
        result.topics = 1;
        result.partitions = partitions;
        result.producersPerTopic = 1;
        result.consumersPerTopic = 1;
        result.publishRate.addAll(publish);
        result.consumeRate.addAll(consume);
        return result;
    }
}
