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
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;

/**
 * An OTLP/HTTP receiver, as a collector's otlp receiver answers: each POST's body decoded with the official protobuf
 * classes, kept with its path and headers, and answered 200 with an empty ExportMetricsServiceResponse. A POST to a
 * path that ends in {@code /logs} is an ExportLogsServiceRequest, kept apart with the status it was answered,
 * 200 unless {@link #answerLogs} says otherwise.
 */
final class OtlpReceiver implements AutoCloseable
{
    record Received(String method, String path, Map<String, List<String>> headers, ExportMetricsServiceRequest request)
    {
        String header(String name)
        {
            return OtlpReceiver.header(headers, name);
        }
    }

    record ReceivedLogs(String path, Map<String, List<String>> headers, ExportLogsServiceRequest request, int status)
    {
        String header(String name)
        {
            return OtlpReceiver.header(headers, name);
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<ReceivedLogs> logs = new CopyOnWriteArrayList<>();
    private final Queue<Integer> logsStatuses = new ConcurrentLinkedQueue<>();

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

    /** Every logs request, answered or not. */
    List<ReceivedLogs> logs()
    {
        return List.copyOf(logs);
    }

    /** The statuses of the next logs requests, in order; 200 after them. */
    void answerLogs(int... statuses)
    {
        for (int status : statuses)
        {
            logsStatuses.add(status);
        }
    }

    /** Waits until the logs requests satisfy the condition. */
    List<ReceivedLogs> awaitLogs(Predicate<List<ReceivedLogs>> condition, String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline)
        {
            final List<ReceivedLogs> now = logs();
            if (condition.test(now))
            {
                return now;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no " + what + " in " + logs());
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

    private static String header(Map<String, List<String>> headers, String name)
    {
        return headers.entrySet().stream()
            .filter(entry -> entry.getKey().equalsIgnoreCase(name))
            .map(entry -> String.join(",", entry.getValue()))
            .findFirst()
            .orElse(null);
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
            if (exchange.getRequestURI().getPath().endsWith("/logs"))
            {
                final ExportLogsServiceRequest request = ExportLogsServiceRequest.parseFrom(
                    exchange.getRequestBody().readAllBytes());
                final Integer next = logsStatuses.poll();
                final int status = next != null ? next : 200;
                logs.add(new ReceivedLogs(exchange.getRequestURI().getPath(), Map.copyOf(exchange.getRequestHeaders()),
                    request, status));
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(status, -1);
                return;
            }
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
