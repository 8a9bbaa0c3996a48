/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultFilesTest
{
    private static final LocalDateTime TIME = LocalDateTime.of(2024, 2, 8, 10, 51, 41);

    @TempDir
    Path directory;

    @Test
    void shouldNameResultsAsOmb()
    {
        assertEquals("1-topic-1-partition-1kb-Kafka-2024-02-08-10-51-41.json",
            ResultFiles.resultName("1-topic-1-partition-1kb", "Kafka", TIME));
        assertEquals("w-Kafka-exactly-once-2024-02-08-10-51-41.json", ResultFiles.resultName("w", "Kafka-exactly-once", TIME));
        assertEquals("w-Kafka (acks=all)_x_y_z-2024-02-08-10-51-41.json",
            ResultFiles.resultName("w", "Kafka (acks=all)/x:y\\z", TIME));
    }

    @Test
    void shouldWriteOnlyOmbFieldsInOmbOrderReadableByOmb() throws Exception
    {
        final TestResult result = filled();
        final Path file = ResultFiles.write(result,
            directory.resolve(ResultFiles.resultName("1-topic-1-partition-1kb", "Kafka", TIME)));

        // OMB's --csv: a plain ObjectMapper, failing on unknown properties, into OMB's TestResult
        final ObjectMapper omb = new ObjectMapper();
        final UpstreamTestResult read = omb.readValue(file.toFile(), UpstreamTestResult.class);
        assertEquals(result.workload, read.workload);
        assertEquals(result.publishDelayLatencyAvg, read.publishDelayLatencyAvg);
        assertEquals(result.aggregatedPublishDelayLatencyAvg, read.aggregatedPublishDelayLatencyAvg);
        assertEquals(result.aggregatedEndToEndLatencyQuantiles, read.aggregatedEndToEndLatencyQuantiles);
        assertEquals(result.backlog, read.backlog);

        // every field of OMB's, in its declaration order, and nothing else
        final JsonNode tree = omb.readTree(file.toFile());
        final List<String> names = new ArrayList<>();
        tree.fieldNames().forEachRemaining(names::add);
        assertEquals(Arrays.stream(UpstreamTestResult.class.getDeclaredFields()).map(Field::getName).toList(), names);

        // the check is real: one field more and OMB's reader fails
        final ObjectNode extended = ((ObjectNode) tree).put("statsPeriodSeconds", 10.0);
        assertThrows(UnrecognizedPropertyException.class,
            () -> omb.treeToValue(extended, UpstreamTestResult.class));

        // OMB's --csv lists the regular .json files of the directory only: the sidecar is not one of them
        try (Stream<Path> list = Files.list(directory))
        {
            assertEquals(List.of(file), list.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(".json")).toList());
        }
    }

    @Test
    void shouldKeepOurFieldsInSidecar() throws Exception
    {
        final TestResult result = filled();
        final Path file = ResultFiles.write(result, directory.resolve("a-Kafka-2024-02-08-10-51-41.json"));

        final Path sidecar = directory.resolve("zilla").resolve("a-Kafka-2024-02-08-10-51-41.json");
        assertEquals(sidecar, ResultFiles.sidecar(file));
        assertTrue(Files.isRegularFile(sidecar));
        final JsonNode ours = new ObjectMapper().readTree(sidecar.toFile());
        assertEquals(5.0, ours.get("statsPeriodSeconds").doubleValue());
        assertEquals(12_345.5, ours.get("producerRate").doubleValue());
        assertTrue(ours.get("maxRateSearch").booleanValue());

        final TestResult read = ResultFiles.read(file);
        assertEquals(5.0, read.statsPeriodSeconds);
        assertEquals(12_345.5, read.producerRate);
        assertTrue(read.maxRateSearch);
        assertEquals(result.aggregatedPublishDelayLatencyAvg, read.aggregatedPublishDelayLatencyAvg);

        // a result file without its sidecar (OMB's own) reads with our fields at their defaults
        Files.delete(sidecar);
        final TestResult plain = ResultFiles.read(file);
        assertEquals(0.0, plain.statsPeriodSeconds);
        assertFalse(plain.maxRateSearch);
        assertEquals(result.workload, plain.workload);
    }

    /** A result with a value that is not the default in every field, ours included, whatever fields it has. */
    private static TestResult filled() throws ReflectiveOperationException
    {
        final TestResult result = new TestResult();
        double value = 1.25;
        for (Field field : TestResult.class.getDeclaredFields())
        {
            if (Modifier.isStatic(field.getModifiers()))
            {
                continue;
            }
            value += 1.0;
            final Class<?> type = field.getType();
            if (type == String.class)
            {
                field.set(result, field.getName().equals("driver") ? "Kafka" : "1 topic / 1 partition / 1Kb");
            }
            else if (type == long.class)
            {
                field.setLong(result, (long) value);
            }
            else if (type == double.class)
            {
                field.setDouble(result, value);
            }
            else if (type == boolean.class)
            {
                field.setBoolean(result, true);
            }
            else if (List.class.isAssignableFrom(type))
            {
                @SuppressWarnings("unchecked")
                final List<Object> list = (List<Object>) field.get(result);
                final boolean longs = field.getGenericType().getTypeName().endsWith("<java.lang.Long>");
                list.add(longs ? (Object) (long) value : (Object) value);
                list.add(longs ? (Object) ((long) value + 1) : (Object) (value + 0.5));
            }
            else if (Map.class.isAssignableFrom(type))
            {
                @SuppressWarnings("unchecked")
                final Map<Double, Object> map = (Map<Double, Object>) field.get(result);
                final boolean longs = field.getGenericType().getTypeName().endsWith("java.lang.Long>");
                map.put(50.0, longs ? (Object) (long) value : (Object) value);
                map.put(99.99, longs ? (Object) ((long) value + 1) : (Object) (value + 0.5));
            }
            else
            {
                throw new AssertionError("a field of a type the test does not fill: " + field);
            }
        }
        result.statsPeriodSeconds = 5.0;
        result.producerRate = 12_345.5;
        return result;
    }
}
