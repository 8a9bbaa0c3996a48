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

/**
 * Writes and reads {@link TestResult} JSON files. The result file holds OMB's fields only, since OMB's {@code --csv}
 * fails on any other; ours ({@code statsPeriodSeconds}, {@code producerRate}, {@code maxRateSearch}) go to a sidecar
 * of the same name in the subdirectory {@value #SIDECAR_DIRECTORY}, which OMB's tools do not look into (they list the
 * regular files of the result directory only).
 */
public final class ResultFiles
{
    /** The subdirectory of the result directory that holds the sidecar files. */
    public static final String SIDECAR_DIRECTORY = "zilla";

    private static final ObjectMapper JSON = new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd-HH-mm-ss");

    private ResultFiles()
    {
    }

    /** Writes {@code result} to {@code file} (its directory created) and its sidecar to {@code zilla/} beside it. */
    public static Path write(TestResult result, Path file) throws IOException
    {
        final Path sidecar = sidecar(file);
        Files.createDirectories(sidecar.getParent());
        JSON.writeValue(file.toFile(), result);
        JSON.writeValue(sidecar.toFile(), new Sidecar(result.statsPeriodSeconds, result.producerRate, result.maxRateSearch));
        return file;
    }

    /**
     * OMB's name for a result file: {@code <workload file base name>-<driver name>-yyyy-MM-dd-HH-mm-ss.json}, the driver
     * name being the driver file's {@code name}. Only what a file name cannot hold ({@code / \ : * ? " < > |} and
     * control characters) becomes {@code _}.
     */
    public static String resultName(String workloadFileBaseName, String driverName, LocalDateTime time)
    {
        return fileNameSafe(workloadFileBaseName) + "-" + fileNameSafe(driverName) + "-" + TIME.format(time) + ".json";
    }

    /** The chart file's name for a workload: {@code <workload>-<time>.html}. */
    public static String chartName(String workload, LocalDateTime time)
    {
        return safe(workload) + "-" + TIME.format(time) + ".html";
    }

    /** Reads a result file and, when there is one, its sidecar. */
    public static TestResult read(Path file) throws IOException
    {
        final TestResult result = JSON.readValue(file.toFile(), TestResult.class);
        final Path sidecar = sidecar(file);
        if (Files.isRegularFile(sidecar))
        {
            final Sidecar ours = JSON.readValue(sidecar.toFile(), Sidecar.class);
            result.statsPeriodSeconds = ours.statsPeriodSeconds();
            result.producerRate = ours.producerRate();
            result.maxRateSearch = ours.maxRateSearch();
        }
        return result;
    }

    /** The sidecar of a result file: the same name in the subdirectory {@value #SIDECAR_DIRECTORY}. */
    public static Path sidecar(Path resultFile)
    {
        final Path parent = resultFile.toAbsolutePath().getParent();
        return parent.resolve(SIDECAR_DIRECTORY).resolve(resultFile.getFileName());
    }

    static String safe(String name)
    {
        return String.valueOf(name).replaceAll("[^A-Za-z0-9._-]+", "_");
    }

    private static String fileNameSafe(String name)
    {
        return String.valueOf(name).replaceAll("[/\\\\:*?\"<>|\\p{Cntrl}]", "_");
    }

    /** Our fields of a result, which OMB's result JSON cannot hold. */
    private record Sidecar(double statsPeriodSeconds, double producerRate, boolean maxRateSearch)
    {
    }
}
