/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.prometheus;

import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.zilla.engine.config.PrometheusOptionsConfig;
import io.zilla.engine.config.PrometheusOptionsConfig.Endpoint;
import io.zilla.engine.exporter.ExporterContext;
import io.zilla.engine.exporter.ExporterHandler;

/**
 * Serves the metrics on each endpoint with the JDK's HTTP server, on a thread of its own: a scrape reads the
 * workers' counters files and never touches a worker, so it answers even while a worker is busy or stuck.
 */
final class PrometheusExporterHandler implements ExporterHandler
{
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final ExporterContext context;
    private final List<Endpoint> endpoints;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PrometheusMeters meters;
    private final List<HttpServer> servers = new ArrayList<>();
    private ExecutorService executor;

    PrometheusExporterHandler(ExporterContext context)
    {
        this.context = context;
        this.endpoints = ((PrometheusOptionsConfig) context.exporter().options()).endpoints();
        this.meters = new PrometheusMeters(registry, context.namespace(), context.directory(), context.metrics());
        registry.getPrometheusRegistry().register(
            new PrometheusHistograms(context.namespace(), context.directory(), context.metrics()));
    }

    @Override
    public void start() throws IOException
    {
        // one thread for every endpoint: scrapes are rare, and serialising them keeps the meters single-threaded
        executor = Executors.newSingleThreadExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "zilla-prometheus-" + context.exporter().name());
            thread.setDaemon(true);
            return thread;
        });
        for (Endpoint endpoint : endpoints)
        {
            final HttpServer server;
            try
            {
                server = HttpServer.create(new InetSocketAddress(endpoint.port()), 0);
            }
            catch (BindException ex)
            {
                throw new IOException("cannot listen on port " + endpoint.port() + ": " + ex.getMessage(), ex);
            }
            server.createContext("/", exchange -> serve(endpoint, exchange));
            server.setExecutor(executor);
            server.start();
            servers.add(server);
        }
    }

    @Override
    public String describe()
    {
        return context.exporter().name() + " " + endpoints.stream()
            .map(endpoint -> endpoint.scheme() + "://0.0.0.0:" + endpoint.port() + endpoint.path())
            .collect(Collectors.joining(", "));
    }

    @Override
    public void close()
    {
        servers.forEach(server -> server.stop(0));
        servers.clear();
        if (executor != null)
        {
            executor.shutdownNow();
            executor = null;
        }
        registry.close();
    }

    private void serve(Endpoint endpoint, HttpExchange exchange) throws IOException
    {
        try (exchange)
        {
            final String method = exchange.getRequestMethod();
            if (!exchange.getRequestURI().getPath().equals(endpoint.path()))
            {
                respond(exchange, 404, "not found\n");
            }
            else if (!"GET".equals(method) && !"HEAD".equals(method))
            {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                respond(exchange, 405, "method not allowed\n");
            }
            else
            {
                meters.refresh();
                exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
                respond(exchange, 200, registry.scrape());
            }
        }
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException
    {
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        final boolean head = "HEAD".equals(exchange.getRequestMethod());
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
