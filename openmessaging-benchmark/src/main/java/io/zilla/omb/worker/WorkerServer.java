/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.type.TypeReference;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.zilla.omb.config.DriverConfig;

/**
 * A {@link LocalWorker} behind OMB's worker HTTP API, what {@code benchmark-worker} runs: the coordinator's
 * {@link HttpWorkerClient} posts the commands and gets the statistics. Answers 200 with the result (or nothing), 404 for
 * a path OMB's workers do not have, 405 for the wrong method, 500 with the failure's message when a command fails;
 * the worker goes on serving either way. On the JDK's own HTTP server: a few requests per statistics period need
 * nothing more.
 */
public final class WorkerServer implements AutoCloseable
{
    private static final byte[] NOTHING = new byte[0];

    private final LocalWorker worker;
    private final HttpServer server;
    private final ExecutorService executor;
    private final Consumer<String> log;
    private final Map<String, Command> commands;
    private final Map<String, Command> queries;

    public WorkerServer(InetSocketAddress address, Consumer<String> log) throws IOException
    {
        this.log = log;
        this.worker = new LocalWorker(log);
        this.commands = Map.ofEntries(
            Map.entry("/initialize-driver", this::initializeDriver),
            Map.entry("/create-topics", this::createTopics),
            Map.entry("/create-producers", this::createProducers),
            Map.entry("/create-consumers", this::createConsumers),
            Map.entry("/probe-producers", body -> run(worker::probeProducers)),
            Map.entry("/start-load", this::startLoad),
            Map.entry("/adjust-publish-rate", this::adjustPublishRate),
            Map.entry("/pause-consumers", body -> run(worker::pauseConsumers)),
            Map.entry("/resume-consumers", body -> run(worker::resumeConsumers)),
            Map.entry("/reset-stats", body -> run(worker::resetStats)),
            Map.entry("/stop-all", body -> run(worker::stopAll)));
        this.queries = Map.of(
            "/period-stats", body -> WorkerJson.JSON.writeValueAsBytes(worker.periodStats()),
            "/counters-stats", body -> WorkerJson.JSON.writeValueAsBytes(worker.countersStats()));
        this.server = HttpServer.create(address, 16);
        // the coordinator's commands come one at a time; a second thread answers its statistics queries meanwhile
        this.executor = Executors.newFixedThreadPool(2, r ->
        {
            final Thread thread = new Thread(r, "omb-worker-http");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The port the worker listens on (the one asked for, or the one the system chose for 0). */
    public int port()
    {
        return server.getAddress().getPort();
    }

    @Override
    public void close() throws Exception
    {
        server.stop(0);
        executor.shutdownNow();
        worker.stopAll();
    }

    private void handle(HttpExchange exchange) throws IOException
    {
        final String path = exchange.getRequestURI().getPath();
        final boolean post = "POST".equals(exchange.getRequestMethod());
        final Command command = (post ? commands : queries).get(path);
        try (exchange; InputStream in = exchange.getRequestBody())
        {
            final byte[] body = in.readAllBytes();
            if (command == null)
            {
                final boolean known = commands.containsKey(path) || queries.containsKey(path);
                respond(exchange, known ? 405 : 404, (known ? "wrong method for " : "no such endpoint: ") + path);
                return;
            }
            final byte[] answer;
            try
            {
                answer = command.apply(body);
            }
            catch (Exception ex)
            {
                log.accept("worker: " + path + " failed: " + ex);
                respond(exchange, 500, path + ": " + ex);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0)
            {
                try (OutputStream out = exchange.getResponseBody())
                {
                    out.write(answer);
                }
            }
        }
    }

    private static void respond(HttpExchange exchange, int status, String message) throws IOException
    {
        final byte[] text = message.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, text.length);
        try (OutputStream out = exchange.getResponseBody())
        {
            out.write(text);
        }
    }

    private byte[] initializeDriver(byte[] body) throws Exception
    {
        final DriverConfig config = DriverConfig.parse("initialize-driver", new String(body, StandardCharsets.UTF_8));
        worker.initializeDriver(config);
        log.accept("worker: driver " + config.name() + " initialized");
        return NOTHING;
    }

    private byte[] createTopics(byte[] body) throws Exception
    {
        final WorkerJson.TopicsInfo info = WorkerJson.JSON.readValue(body, WorkerJson.TopicsInfo.class);
        return WorkerJson.JSON.writeValueAsBytes(worker.createTopics(info.numberOfTopics(),
            info.numberOfPartitionsPerTopic()));
    }

    private byte[] createProducers(byte[] body) throws Exception
    {
        worker.createProducers(WorkerJson.JSON.readValue(body, new TypeReference<List<String>>()
        {
        }));
        return NOTHING;
    }

    private byte[] createConsumers(byte[] body) throws Exception
    {
        final WorkerJson.ConsumerAssignment assignment = WorkerJson.JSON.readValue(body, WorkerJson.ConsumerAssignment.class);
        worker.createConsumers(assignment.topicsSubscriptions());
        return NOTHING;
    }

    private byte[] startLoad(byte[] body) throws Exception
    {
        worker.startLoad(WorkerJson.JSON.readValue(body, ProducerWorkAssignment.class));
        return NOTHING;
    }

    private byte[] adjustPublishRate(byte[] body) throws Exception
    {
        worker.adjustPublishRate(WorkerJson.JSON.readValue(body, Double.class));
        return NOTHING;
    }

    private static byte[] run(Action action) throws Exception
    {
        action.run();
        return NOTHING;
    }

    @FunctionalInterface
    private interface Command
    {
        byte[] apply(byte[] body) throws Exception;
    }

    @FunctionalInterface
    private interface Action
    {
        void run() throws Exception;
    }
}
