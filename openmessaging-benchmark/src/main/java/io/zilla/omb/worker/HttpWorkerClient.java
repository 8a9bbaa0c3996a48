/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.core.type.TypeReference;
import io.zilla.omb.config.DriverConfig;

/**
 * A {@code benchmark-worker} process, driven over OMB's worker HTTP API from the coordinator. Every call waits for the
 * worker's answer (up to 10 minutes, as OMB's client: creating a million topics takes a while); a worker that answers
 * anything but 200 fails the call with its status and message.
 */
public final class HttpWorkerClient implements Worker
{
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    // one client (one selector thread) for every worker the coordinator talks to
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();

    private final URI base;

    /** @param address the worker's base URL, {@code http://host:port} (OMB's {@code --workers} entries) */
    public HttpWorkerClient(String address)
    {
        this.base = URI.create(address.endsWith("/") ? address.substring(0, address.length() - 1) : address);
        if (!"http".equals(base.getScheme()) || base.getHost() == null)
        {
            throw new IllegalArgumentException("a worker is an http://host:port address, not " + address);
        }
    }

    public String address()
    {
        return base.toString();
    }

    @Override
    public void initializeDriver(DriverConfig config) throws Exception
    {
        post("/initialize-driver", WorkerJson.driverFile(config).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public List<String> createTopics(int topics, int partitionsPerTopic) throws Exception
    {
        final byte[] answer = post("/create-topics", json(new WorkerJson.TopicsInfo(topics, partitionsPerTopic)));
        return WorkerJson.JSON.readValue(answer, new TypeReference<List<String>>()
        {
        });
    }

    @Override
    public void createProducers(List<String> topics) throws Exception
    {
        post("/create-producers", json(topics));
    }

    @Override
    public void createConsumers(List<TopicSubscription> subscriptions) throws Exception
    {
        post("/create-consumers", json(new WorkerJson.ConsumerAssignment(subscriptions)));
    }

    @Override
    public void probeProducers() throws Exception
    {
        post("/probe-producers", new byte[0]);
    }

    @Override
    public void startLoad(ProducerWorkAssignment assignment) throws Exception
    {
        post("/start-load", json(assignment));
    }

    @Override
    public void adjustPublishRate(double publishRate) throws Exception
    {
        post("/adjust-publish-rate", json(publishRate));
    }

    @Override
    public void pauseConsumers() throws Exception
    {
        post("/pause-consumers", new byte[0]);
    }

    @Override
    public void resumeConsumers() throws Exception
    {
        post("/resume-consumers", new byte[0]);
    }

    @Override
    public PeriodStats periodStats() throws Exception
    {
        return WorkerJson.JSON.readValue(get("/period-stats"), PeriodStats.class);
    }

    @Override
    public CountersStats countersStats() throws Exception
    {
        return WorkerJson.JSON.readValue(get("/counters-stats"), CountersStats.class);
    }

    @Override
    public void resetStats() throws Exception
    {
        post("/reset-stats", new byte[0]);
    }

    @Override
    public void stopAll() throws Exception
    {
        post("/stop-all", new byte[0]);
    }

    @Override
    public String toString()
    {
        return base.toString();
    }

    private static byte[] json(Object value) throws IOException
    {
        return WorkerJson.JSON.writeValueAsBytes(value);
    }

    private byte[] post(String path, byte[] body) throws Exception
    {
        return send(path, HttpRequest.newBuilder(base.resolve(path)).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    private byte[] get(String path) throws Exception
    {
        return send(path, HttpRequest.newBuilder(base.resolve(path)).GET());
    }

    private byte[] send(String path, HttpRequest.Builder request) throws Exception
    {
        final HttpResponse<byte[]> response;
        try
        {
            response = HTTP.send(request.timeout(TIMEOUT).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        }
        catch (IOException ex)
        {
            throw new IOException("worker " + base + path + ": " + ex, ex);
        }
        if (response.statusCode() != 200)
        {
            final byte[] body = response.body();
            throw new IOException("worker " + base + path + " answered " + response.statusCode() + ": "
                + new String(Arrays.copyOf(body, Math.min(body.length, 2000)), StandardCharsets.UTF_8));
        }
        return response.body();
    }
}
