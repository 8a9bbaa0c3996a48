/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.result;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** Writes and reads {@link TestResult} JSON files, named as OMB names them: {@code <workload>-<driver>-<time>.json}. */
public final class ResultFiles
{
    private static final ObjectMapper JSON = new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd-HH-mm-ss");

    private ResultFiles()
    {
    }

    /** OMB's name of a result file: {@code <workload file base name>-<driver name>-yyyy-MM-dd-HH-mm-ss.json}. */
    public static String resultName(String workloadFileBaseName, String driverName, LocalDateTime time)
    {
        return workloadFileBaseName + "-" + safe(driverName) + "-" + TIME.format(time) + ".json";
    }

    /** Writes {@code result} to {@code file}, creating its directory. */
    public static Path write(TestResult result, Path file) throws IOException
    {
        final Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        JSON.writeValue(file.toFile(), result);
        return file;
    }

    /** The chart file's name for a workload: {@code <workload>-<time>.html}. */
    public static String chartName(String workload, LocalDateTime time)
    {
        return safe(workload) + "-" + TIME.format(time) + ".html";
    }

    public static TestResult read(Path file) throws IOException
    {
        return JSON.readValue(file.toFile(), TestResult.class);
    }

    static String safe(String name)
    {
        return String.valueOf(name).replaceAll("[^A-Za-z0-9._-]+", "_");
    }
}
