/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code curl -N} reading an event stream, as the example's README runs it: its output is interpreted as an EventSource
 * would (EventStreamLines) on a thread of its own, and a test waits for the events it expects.
 */
final class CurlStream implements AutoCloseable
{
    private final Process curl;
    private final Thread reader;
    private final List<SseEvent> events = new ArrayList<>();
    private final StringBuilder head = new StringBuilder();
    private final EventStreamLines lines = new EventStreamLines(this::add);

    private CurlStream(Process curl)
    {
        this.curl = curl;
        this.reader = new Thread(this::read, "curl-stream");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code curl -N -s -i} with {@code options} (say, --http2-prior-knowledge, -H ...) on {@code url}. */
    static CurlStream open(String url, String... options) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("curl", "-N", "-s", "-i"));
        command.addAll(List.of(options));
        command.add(url);
        return new CurlStream(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start());
    }

    /** Waits until {@code count} events arrived (or the timeout), and returns all of them so far. */
    List<SseEvent> await(int count, Duration timeout) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this)
        {
            while (events.size() < count && System.nanoTime() < deadline && (curl.isAlive() || reader.isAlive()))
            {
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
            return new ArrayList<>(events);
        }
    }

    /** Every event so far. */
    synchronized List<SseEvent> events()
    {
        return new ArrayList<>(events);
    }

    /** The status line and headers of the response, as curl -i printed them. */
    synchronized String head()
    {
        return head.toString();
    }

    synchronized int comments()
    {
        return lines.comments();
    }

    @Override
    public void close() throws InterruptedException
    {
        curl.destroy();
        curl.waitFor(10, TimeUnit.SECONDS);
        reader.join(10_000);
    }

    private synchronized void add(SseEvent event)
    {
        events.add(event);
        notifyAll();
    }

    private void read()
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(curl.getInputStream(), StandardCharsets.UTF_8)))
        {
            boolean body = false;
            String line;
            while ((line = in.readLine()) != null)
            {
                synchronized (this)
                {
                    if (!body)
                    {
                        // an HTTP/1.1 100 or an h2c upgrade's 101 come before the response's own head
                        head.append(line).append('\n');
                        body = line.isEmpty() && !head.toString().startsWith("HTTP/1.1 101");
                        if (line.isEmpty() && !body)
                        {
                            head.setLength(0);
                        }
                        continue;
                    }
                    lines.line(line);
                }
            }
        }
        catch (IOException ex)
        {
            // curl was stopped
        }
        finally
        {
            synchronized (this)
            {
                notifyAll();
            }
        }
    }
}
