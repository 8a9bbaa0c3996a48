/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs a child process (kcat, another JVM) to completion, bounded in time, with its output in files so that no
 * pipe fills up; on timeout it is killed and the test fails with what it printed.
 */
public record ChildProcess(List<String> command, int exit, String out, String err)
{
    private static final int TAIL_LINES = 80;

    /** Runs {@code command} with {@code stdin} (or nothing) as input; output goes to {@code name}.out and .err. */
    public static ChildProcess run(List<String> command, Path stdin, Path directory, String name, Duration timeout)
        throws IOException, InterruptedException
    {
        final Path out = directory.resolve(name + ".out");
        final Path err = directory.resolve(name + ".err");
        final Process process = new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(stdin != null ? stdin.toFile() : new File("/dev/null"))
            .start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
        {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(name + " did not finish within " + timeout + "\n"
                + new ChildProcess(command, -1, Files.readString(out, UTF_8), Files.readString(err, UTF_8)).describe());
        }
        return new ChildProcess(command, process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
    }

    /** The command, exit code, output and the last lines of the error output, for assertion messages. */
    public String describe()
    {
        final List<String> lines = err.lines().collect(Collectors.toList());
        final String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        return String.join(" ", command) + "\nexit " + exit + "\n--- stdout\n" + out + "\n--- stderr (tail)\n" + tail;
    }
}
