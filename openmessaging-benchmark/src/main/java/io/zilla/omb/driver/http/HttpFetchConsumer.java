/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.ConsumerCallback;

/**
 * A consumer over HTTP fetch with long-poll ({@code httpConsumer: fetch}): one HTTP/1.1 connection, one {@code GET}
 * of the topic's fetch endpoint at a time, each after the first with {@code If-None-Match} (the last ETag) and
 * {@code Prefer: wait=N}. zilla's http-kafka fetch answers with the latest state (the topic's last record, or with
 * {@code merge} the latest value of each key), as soon as it changes, or 304 after the wait.
 * <p>
 * So it is not OMB's per-message consumer: the records produced between two answers are never seen, only the last of
 * them. Each 200 is delivered to the callback as one message (its body is the latest record's value, whose stamp
 * gives how old that state was when it arrived); the counts say how many answers, how many 304s, and the driver's
 * closing line tells them. OMB's consume rate is then the rate of states seen, and its end-to-end latency their age:
 * the freshness of a long-polling client, not a delivery latency.
 */
final class HttpFetchConsumer implements BenchmarkConsumer, HttpLoadClient.Source, HttpRequest.Listener
{
    private static final byte[] IF_NONE_MATCH = "if-none-match".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PREFER = "prefer".getBytes(StandardCharsets.US_ASCII);
    private static final long REST_MILLIS = 100;
    private static final byte[] ETAG = "etag".getBytes(StandardCharsets.US_ASCII);

    /** What all fetch consumers of a driver saw. */
    static final class Counts
    {
        final AtomicLong changed = new AtomicLong();
        final AtomicLong notModified = new AtomicLong();
        final AtomicLong other = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final AtomicLong lastOther = new AtomicLong();

        @Override
        public String toString()
        {
            return String.format("%d states seen (200), %d unchanged after the wait (304), %d other statuses%s, "
                + "%d failed", changed.get(), notModified.get(), other.get(),
                lastOther.get() != 0 ? " (last " + lastOther.get() + ")" : "", failures.get());
        }
    }

    private final HttpTarget target;
    private final HttpLoadClient.SelectorThread thread;
    private final byte[] prefer;
    private final ConsumerCallback callback;
    private final Counts counts;
    private final List<HttpConnection> connections;
    private final CompletableFuture<HttpFetchConsumer> started = new CompletableFuture<>();

    // on the selector thread only
    private boolean inFlight;
    private byte[] etag;
    private byte[] responseEtag;
    private byte[] body = new byte[1024];
    private int bodyLength;
    private volatile boolean closed;
    // after an answer without an ETag (a 404 of an empty topic, an error) the next GET waits a little: no busy polling
    private volatile boolean resting;

    HttpFetchConsumer(HttpLoadClient client, HttpTarget target, int waitSeconds, ConsumerCallback callback, Counts counts)
    {
        this.target = target;
        this.thread = client.nextThread();
        this.prefer = ("wait=" + waitSeconds).getBytes(StandardCharsets.US_ASCII);
        this.callback = callback;
        this.counts = counts;
        this.connections = List.of(new Http1Connection(thread, target));
        thread.add(this);
    }

    /** Completes once the first answer came (the state when the consumer started, or none: a 404). */
    CompletableFuture<HttpFetchConsumer> started()
    {
        return started;
    }

    @Override
    public boolean hasRequests()
    {
        return !inFlight && !closed && !resting;
    }

    @Override
    public HttpRequest poll()
    {
        if (inFlight || closed || resting)
        {
            return null;
        }
        inFlight = true;
        bodyLength = 0;
        responseEtag = null;
        final byte[][] headers = etag != null ? new byte[][] {IF_NONE_MATCH, etag, PREFER, prefer} : null;
        return new HttpRequest(false, target.path(null), null, headers, this);
    }

    @Override
    public List<HttpConnection> connections()
    {
        return connections;
    }

    @Override
    public void onHeader(byte[] buffer, int nameOffset, int nameLength, int valueOffset, int valueLength)
    {
        if (nameLength == ETAG.length)
        {
            for (int i = 0; i < nameLength; i++)
            {
                if ((buffer[nameOffset + i] | 0x20) != ETAG[i])
                {
                    return;
                }
            }
            responseEtag = Arrays.copyOfRange(buffer, valueOffset, valueOffset + valueLength);
        }
    }

    @Override
    public void onBody(byte[] buffer, int offset, int length)
    {
        if (bodyLength + length > body.length)
        {
            body = Arrays.copyOf(body, Math.max(body.length * 2, bodyLength + length));
        }
        System.arraycopy(buffer, offset, body, bodyLength, length);
        bodyLength += length;
    }

    @Override
    public void onResponse(int status)
    {
        inFlight = false;
        if (status == 200)
        {
            if (started.isDone())
            {
                counts.changed.incrementAndGet();
                callback.messageReceived(Arrays.copyOf(body, bodyLength), System.currentTimeMillis());
            }
            etag = responseEtag;
        }
        else if (status == 304)
        {
            counts.notModified.incrementAndGet();
        }
        else if (status != 404 || started.isDone())
        {
            counts.other.incrementAndGet();
            counts.lastOther.set(status);
        }
        // the first answer is the state before the run, not a message of it
        started.complete(this);
        if (etag == null)
        {
            rest();
        }
        thread.signal();
    }

    @Override
    public void onFailure(Throwable cause)
    {
        inFlight = false;
        counts.failures.incrementAndGet();
        if (closed && !started.isDone())
        {
            started.completeExceptionally(cause);
        }
        rest();
    }

    /** The next GET in {@link #REST_MILLIS}: nothing to wait on (no ETag), or the connection failed. */
    private void rest()
    {
        resting = true;
        CompletableFuture.delayedExecutor(REST_MILLIS, TimeUnit.MILLISECONDS).execute(() ->
        {
            resting = false;
            thread.signal();
        });
    }

    @Override
    public void close()
    {
        closed = true;
        started.completeExceptionally(new IOException("closed before its first answer"));
        thread.remove(this, new IOException("consumer closed"));
    }
}
