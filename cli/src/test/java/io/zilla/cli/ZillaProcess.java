/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The distribution's {@code bin/zilla} run as a child process, its stdout and stderr collected line by line. */
final class ZillaProcess implements AutoCloseable
{
    private static final int CTRL_C = 0x03;

    private final Process process;
    private final List<String> out = new CopyOnWriteArrayList<>();
    private final List<String> err = new CopyOnWriteArrayList<>();
    private final List<Thread> readers = new ArrayList<>();

    private ZillaProcess(Process process)
    {
        this.process = process;
        readers.add(collect(process.getInputStream(), out));
        readers.add(collect(process.getErrorStream(), err));
    }

    /** Starts {@code bin/zilla args...} of the distribution in {@code distribution}, in {@code workingDirectory}. */
    static ZillaProcess start(Path distribution, Path workingDirectory, Object... args) throws IOException
    {
        return start(distribution, workingDirectory, Map.of(), args);
    }

    /** The same, with {@code environment} added to this process's environment. */
    static ZillaProcess start(Path distribution, Path workingDirectory, Map<String, String> environment, Object... args)
        throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(distribution.resolve("bin/zilla").toString());
        Stream.of(args).map(String::valueOf).forEach(command::add);
        final ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile());
        builder.environment().putAll(environment);
        return new ZillaProcess(builder.start());
    }

    /**
     * Starts {@code bin/zilla args...} in a terminal of its own: util-linux {@code script} runs it on a new
     * pseudo-terminal, in the foreground, as a user's shell would, so that {@link #ctrlC()} is a real Ctrl-C (SIGINT
     * to the whole foreground process group, children included). Its output comes back with the terminal's echo.
     */
    static ZillaProcess startInTerminal(Path distribution, Path workingDirectory, Object... args) throws IOException
    {
        // a shell without job control starts its background commands with SIGINT ignored, and the JVM keeps an
        // ignored SIGINT ignored: reset it, so that Ctrl-C works however the test run itself was started
        final StringBuilder command = new StringBuilder("exec env --default-signal=INT '")
            .append(distribution.resolve("bin/zilla")).append('\'');
        Stream.of(args).map(String::valueOf).forEach(arg -> command.append(" '").append(arg).append('\''));
        final ProcessBuilder builder = new ProcessBuilder("script", "--quiet", "--flush", "--return", "--command",
            command.toString(), "/dev/null").directory(workingDirectory.toFile());
        return new ZillaProcess(builder.start());
    }

    /** Types Ctrl-C on the terminal of {@link #startInTerminal}. */
    void ctrlC() throws IOException
    {
        process.getOutputStream().write(CTRL_C);
        process.getOutputStream().flush();
    }

    Process process()
    {
        return process;
    }

    List<String> out()
    {
        return List.copyOf(out);
    }

    List<String> err()
    {
        return List.copyOf(err);
    }

    /**
     * Sends SIGTERM, as Process.destroy() does; but through the process handle, because Process.destroy() also
     * closes the pipes, and the test must still read what zilla prints while it stops.
     */
    void sigterm()
    {
        process.toHandle().destroy();
    }

    /** Waits for the process to exit and for its output to be read; returns its exit status. */
    int awaitExit(Duration timeout) throws InterruptedException
    {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
        {
            throw new AssertionError("zilla still runs after " + timeout + "; stdout: " + out + " stderr: " + err);
        }
        for (Thread reader : readers)
        {
            reader.join(timeout.toMillis());
        }
        return process.exitValue();
    }

    /** Waits until a line of stdout starts with {@code prefix}, and returns it. */
    String awaitOut(String prefix, Duration timeout) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (true)
        {
            for (String line : out)
            {
                if (line.startsWith(prefix))
                {
                    return line;
                }
            }
            if (!process.isAlive() || System.nanoTime() > deadline)
            {
                throw new AssertionError("no '" + prefix + "' from zilla (alive: " + process.isAlive() + "); stdout: " + out
                    + " stderr: " + err);
            }
            Thread.sleep(20);
        }
    }

    /** Kills the process if a test left it running. */
    @Override
    public void close()
    {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static Thread collect(InputStream stream, List<String> lines)
    {
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8)))
            {
                for (String line = in.readLine(); line != null; line = in.readLine())
                {
                    lines.add(line);
                }
            }
            catch (IOException ex)
            {
                // the pipe was closed under the reader (close() of a process still running): no more output
                lines.add("[zilla-output: " + ex.getMessage() + "]");
            }
        }, "zilla-output");
        reader.setDaemon(true);
        reader.start();
        return reader;
    }
}
