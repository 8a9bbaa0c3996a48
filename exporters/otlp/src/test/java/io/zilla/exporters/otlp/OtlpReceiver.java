/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;

/**
 * An OTLP/HTTP receiver, as a collector's otlp receiver answers: each POST's body decoded with the official protobuf
 * classes, kept with its path and headers, and answered 200 with an empty ExportMetricsServiceResponse.
 */
final class OtlpReceiver implements AutoCloseable
{
    record Received(String method, String path, Map<String, List<String>> headers, ExportMetricsServiceRequest request)
    {
        String header(String name)
        {
            return headers.entrySet().stream()
                .filter(entry -> entry.getKey().equalsIgnoreCase(name))
                .map(entry -> String.join(",", entry.getValue()))
                .findFirst()
                .orElse(null);
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();

    OtlpReceiver() throws IOException
    {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::receive);
        server.start();
    }

    String location()
    {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Received> received()
    {
        return List.copyOf(received);
    }

    /** Waits until what was received satisfies the condition. */
    List<Received> await(Predicate<List<Received>> condition, String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline)
        {
            final List<Received> now = received();
            if (condition.test(now))
            {
                return now;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no " + what + " in " + received());
    }

    @Override
    public void close()
    {
        server.stop(0);
    }

    private void receive(HttpExchange exchange) throws IOException
    {
        try (exchange)
        {
            final ExportMetricsServiceRequest request = ExportMetricsServiceRequest.parseFrom(
                exchange.getRequestBody().readAllBytes());
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                Map.copyOf(exchange.getRequestHeaders()), request));
            final byte[] response = ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, response.length == 0 ? -1 : response.length);
            if (response.length > 0)
            {
                exchange.getResponseBody().write(response);
            }
        }
    }
}
