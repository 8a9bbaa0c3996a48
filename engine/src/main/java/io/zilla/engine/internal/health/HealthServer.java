/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.health;

import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * {@code /health/live}, {@code /health/ready} and {@code /health} (both), served by the JDK's HTTP server on a thread
 * of its own: a probe reads what the workers wrote and never waits for one, so it answers while a worker is stuck,
 * which is what it is there to tell.
 */
public final class HealthServer implements AutoCloseable
{
    public static final String LIVE = "/health/live";
    public static final String READY = "/health/ready";
    public static final String BOTH = "/health";

    private static final String CONTENT_TYPE = "application/json";

    private final String host;
    private final int port;
    private final Liveness liveness;
    private final Readiness readiness;
    private HttpServer server;
    private ExecutorService executor;

    public HealthServer(String host, int port, Liveness liveness, Readiness readiness)
    {
        this.host = host;
        this.port = port;
        this.liveness = liveness;
        this.readiness = readiness;
    }

    /** @throws IOException naming the port when it cannot be listened on (in use, say) */
    public void start() throws IOException
    {
        try
        {
            server = HttpServer.create(new InetSocketAddress(host, port), 0);
        }
        catch (BindException ex)
        {
            throw new IOException("cannot listen on port " + port + ": " + ex.getMessage(), ex);
        }
        // one thread: probes are rare and cheap, and a slow client holds no worker
        executor = Executors.newSingleThreadExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "zilla-health");
            thread.setDaemon(true);
            return thread;
        });
        server.createContext("/", this::serve);
        server.setExecutor(executor);
        server.start();
    }

    /** The port it listens on: the one configured, or the one the system chose for port 0. */
    public int port()
    {
        return server != null ? server.getAddress().getPort() : port;
    }

    /** {@code http://0.0.0.0:7183/health/ready, /health/live}, for the start log. */
    public String describe()
    {
        return "http://" + host + ":" + port() + READY + ", " + LIVE;
    }

    @Override
    public void close()
    {
        if (server != null)
        {
            server.stop(0);
            server = null;
        }
        if (executor != null)
        {
            executor.shutdownNow();
            try
            {
                // a stopped engine leaves no thread behind
                executor.awaitTermination(1, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            executor = null;
        }
    }

    private void serve(HttpExchange exchange) throws IOException
    {
        try (exchange)
        {
            final String path = exchange.getRequestURI().getPath();
            final String method = exchange.getRequestMethod();
            if (!LIVE.equals(path) && !READY.equals(path) && !BOTH.equals(path))
            {
                respond(exchange, 404, "{\"error\":\"not found\"}");
            }
            else if (!"GET".equals(method) && !"HEAD".equals(method))
            {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                respond(exchange, 405, "{\"error\":\"method not allowed\"}");
            }
            else if (LIVE.equals(path))
            {
                respond(exchange, liveness.check());
            }
            else if (READY.equals(path))
            {
                respond(exchange, readiness.check());
            }
            else
            {
                final Verdict live = liveness.check();
                final Verdict ready = readiness.check();
                respond(exchange, live.ok() && ready.ok() ? 200 : 503,
                    "{\"live\":" + live.json() + ",\"ready\":" + ready.json() + "}");
            }
        }
    }

    private static void respond(HttpExchange exchange, Verdict verdict) throws IOException
    {
        respond(exchange, verdict.status(), verdict.json());
    }

    private static void respond(HttpExchange exchange, int status, String json) throws IOException
    {
        final byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
        final boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
        // probes must see the state of now, never a cached answer
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head)
        {
            try (OutputStream out = exchange.getResponseBody())
            {
                out.write(bytes);
            }
        }
    }
}
