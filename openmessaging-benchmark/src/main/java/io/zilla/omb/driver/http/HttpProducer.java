/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.zilla.omb.driver.BenchmarkProducer;

/**
 * A producer over HTTP: each message is one {@code POST} of its payload to its topic's url, acknowledged by a 2xx
 * (the http-kafka produce route answers 204 once Kafka acknowledged the record); any other status, or a connection
 * that failed with the request in flight, fails the send. Its connections (a pool of HTTP/1.1 keep-alive
 * connections, or h2c connections of many streams) live on one selector thread, which takes the queued requests as
 * connections can take them. At most {@code maxPending} requests wait unsent: {@code sendAsync} then waits, as
 * kafka-clients' {@code send} waits for {@code buffer.memory}.
 */
final class HttpProducer implements BenchmarkProducer, HttpLoadClient.Source
{
    private static final long CLOSE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final HttpTarget target;
    private final HttpLoadClient.SelectorThread thread;
    private final byte[] keyHeader;
    private final Queue<HttpRequest> queue = new ConcurrentLinkedQueue<>();
    private final Semaphore pending;
    private final int maxPending;
    private final List<HttpConnection> connections = new ArrayList<>();
    private final HttpStatusCounts counts;
    private volatile boolean closed;

    HttpProducer(HttpLoadClient client, HttpTarget target, boolean h2c, int connections, int maxStreams,
        int maxPending, String keyHeader, HttpStatusCounts counts)
    {
        this.target = target;
        this.thread = client.nextThread();
        this.keyHeader = keyHeader != null ? keyHeader.getBytes(StandardCharsets.US_ASCII) : null;
        this.maxPending = maxPending;
        this.pending = new Semaphore(maxPending);
        this.counts = counts;
        for (int i = 0; i < connections; i++)
        {
            this.connections.add(h2c ? new H2cConnection(thread, target, maxStreams) : new Http1Connection(thread, target));
        }
        thread.add(this);
    }

    @Override
    public CompletableFuture<Void> sendAsync(Optional<String> key, byte[] payload)
    {
        if (closed)
        {
            return CompletableFuture.failedFuture(new IllegalStateException("producer closed"));
        }
        pending.acquireUninterruptibly();
        final String k = key.orElse(null);
        final byte[][] headers = k != null && keyHeader != null
            ? new byte[][] {keyHeader, k.getBytes(StandardCharsets.UTF_8)}
            : null;
        final Send send = new Send();
        // the caller owns the payload again once this returns: it is copied, as kafka-clients copies it into a batch
        queue.add(new HttpRequest(true, target.path(k), payload.clone(), headers, send));
        thread.signal();
        return send;
    }

    @Override
    public HttpRequest poll()
    {
        return queue.poll();
    }

    @Override
    public boolean hasRequests()
    {
        return !queue.isEmpty();
    }

    @Override
    public List<HttpConnection> connections()
    {
        return connections;
    }

    /** Waits (10 s at most) for what was sent to be answered, then closes the connections, failing what is left. */
    @Override
    public void close()
    {
        closed = true;
        final long deadline = System.nanoTime() + CLOSE_TIMEOUT_NANOS;
        while (pending.availablePermits() < maxPending && System.nanoTime() - deadline < 0)
        {
            try
            {
                Thread.sleep(5);
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                break;
            }
        }
        final IOException cause = new IOException("producer closed");
        thread.remove(this, cause);
        thread.execute(() ->
        {
            HttpRequest request;
            while ((request = queue.poll()) != null)
            {
                request.listener.onFailure(cause);
            }
        });
    }

    /** One send's future, which is also its request's listener. */
    private final class Send extends CompletableFuture<Void> implements HttpRequest.Listener
    {
        @Override
        public void onResponse(int status)
        {
            pending.release();
            counts.onStatus(status);
            if (status / 100 == 2)
            {
                complete(null);
            }
            else
            {
                completeExceptionally(new IOException("HTTP status " + status));
            }
        }

        @Override
        public void onFailure(Throwable cause)
        {
            pending.release();
            counts.onFailure();
            completeExceptionally(cause);
        }
    }

    /** Requests answered by status class, and failed without a status: the driver's closing line. */
    static final class HttpStatusCounts
    {
        final AtomicLong[] byClass = {new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong(),
            new AtomicLong(), new AtomicLong()};
        final AtomicLong failures = new AtomicLong();
        final AtomicLong lastNon2xx = new AtomicLong();

        void onStatus(int status)
        {
            byClass[Math.min(5, Math.max(0, status / 100))].incrementAndGet();
            if (status / 100 != 2)
            {
                lastNon2xx.set(status);
            }
        }

        void onFailure()
        {
            failures.incrementAndGet();
        }

        long succeeded()
        {
            return byClass[2].get();
        }

        @Override
        public String toString()
        {
            return String.format("%d answered 2xx, %d 4xx, %d 5xx%s, %d failed without a response", byClass[2].get(),
                byClass[4].get(), byClass[5].get(), lastNon2xx.get() != 0 ? " (last non-2xx " + lastNon2xx.get() + ")" : "",
                failures.get());
        }
    }
}
