/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** benchmark-worker processes of a test: started, their addresses read from their output, stopped at the end. */
final class WorkerProcesses implements AutoCloseable
{
    private static final String LISTENING = "benchmark-worker listening on ";

    private final List<Process> processes = new ArrayList<>();
    private final StringBuffer output = new StringBuffer();

    /** Starts {@code command} (a benchmark-worker on 127.0.0.1, port 0); returns its address once it listens. */
    String start(ProcessBuilder command) throws IOException
    {
        final Process process = command.redirectErrorStream(true).start();
        processes.add(process);
        final BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line != null; line = lines.readLine())
        {
            if (line.startsWith(LISTENING))
            {
                // the worker goes on logging: its output is kept (and drained, or it blocks once the pipe is full)
                final Thread drain = new Thread(() -> lines.lines().forEach(l -> output.append(l).append('\n')),
                    "worker-output");
                drain.setDaemon(true);
                drain.start();
                return "http://" + line.substring(LISTENING.length());
            }
        }
        throw new IllegalStateException("the worker ended before listening");
    }

    /** What the workers printed after they listened, all of them together. */
    String output()
    {
        return output.toString();
    }

    /** Keeps {@code process} to stop it at the end too. */
    Process add(Process process)
    {
        processes.add(process);
        return process;
    }

    @Override
    public void close() throws InterruptedException
    {
        processes.forEach(Process::destroy);
        for (Process process : processes)
        {
            if (!process.waitFor(20, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
        }
    }
}
