/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Follows the demo broker's log (everything the broker prints goes there, never to the terminal) and copies its
 * ERROR and FATAL lines to stderr as {@code kafka: <line>}, so that a broker in trouble is not silent. Only the
 * lines themselves: a stack trace after one stays in the log.
 */
final class BrokerLogErrors implements AutoCloseable
{
    // EmbeddedKafka's layout: "[%d] %p %m (%c)%n"
    private static final Pattern ERROR = Pattern.compile("^\\[[^\\]]*\\] (ERROR|FATAL) ");
    private static final long POLL_MILLIS = 200;

    private final Path log;
    private final PrintWriter err;
    private final Thread thread;
    private volatile boolean closed;
    private long offset;
    private final StringBuilder partial = new StringBuilder();

    /** Follows {@code log} from its beginning. */
    BrokerLogErrors(Path log, PrintWriter err)
    {
        this.log = log;
        this.err = err;
        this.thread = new Thread(this::follow, "zilla-demo-broker-log");
        thread.setDaemon(true);
    }

    BrokerLogErrors start()
    {
        thread.start();
        return this;
    }

    /** Reads what the log gained since the last poll and copies its complete error lines; for the thread and tests. */
    void poll() throws IOException
    {
        if (!Files.exists(log))
        {
            return;
        }
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r"))
        {
            final long length = file.length();
            if (length <= offset)
            {
                return;
            }
            final byte[] bytes = new byte[(int) Math.min(length - offset, 1 << 20)];
            file.seek(offset);
            file.readFully(bytes);
            offset += bytes.length;
            partial.append(new String(bytes, StandardCharsets.UTF_8));
        }
        int end;
        while ((end = partial.indexOf("\n")) >= 0)
        {
            final String line = partial.substring(0, end);
            partial.delete(0, end + 1);
            if (ERROR.matcher(line).find())
            {
                err.println("kafka: " + line);
                err.flush();
            }
        }
    }

    /** Stops following; what the broker logs from now on (its stop) stays in the log. */
    @Override
    public void close() throws InterruptedException
    {
        closed = true;
        thread.interrupt();
        thread.join(POLL_MILLIS * 10);
    }

    private void follow()
    {
        try
        {
            while (!closed)
            {
                poll();
                Thread.sleep(POLL_MILLIS);
            }
        }
        catch (IOException ex)
        {
            // the log is gone (the broker's directory deleted): nothing more to follow
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
