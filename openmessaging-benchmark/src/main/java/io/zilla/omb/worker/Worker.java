/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.util.List;

import io.zilla.omb.config.DriverConfig;

/**
 * What the benchmark asks of the processes that hold the producers and consumers, in the shape of OMB's worker: one
 * in-process {@link LocalWorker}, one remote {@code benchmark-worker} ({@link HttpWorkerClient}) or several spread over
 * hosts ({@link DistributedWorkers}). The coordinator ({@link io.zilla.omb.load.WorkloadRunner}) drives it: a driver,
 * topics, consumers, producers, the load, then the statistics period after period, then {@link #stopAll()}.
 */
public interface Worker extends AutoCloseable
{
    /** Connects the driver the file names; what a previous run left is stopped first. */
    void initializeDriver(DriverConfig config) throws Exception;

    /** Creates {@code topics} topics of {@code partitionsPerTopic} partitions; returns their names. */
    List<String> createTopics(int topics, int partitionsPerTopic) throws Exception;

    /** One producer per entry (a topic repeated for several producers of it). */
    void createProducers(List<String> topics) throws Exception;

    /** One consumer per entry; returns when every consumer has joined its subscription. */
    void createConsumers(List<TopicSubscription> subscriptions) throws Exception;

    /**
     * Each producer sends one message and this returns once every one is acknowledged (OMB's {@code /probe-producers}):
     * a topic just created, its leaders elected, the clients' metadata and connections are ready before the load.
     */
    void probeProducers() throws Exception;

    /** Starts every producer at an equal share of {@code assignment}'s rate, which is this worker's whole rate. */
    void startLoad(ProducerWorkAssignment assignment) throws Exception;

    /** The producers' new rate in messages per second (this worker's whole rate); at least 1. */
    void adjustPublishRate(double publishRate) throws Exception;

    /** The consumers stop taking messages (backlog mode) until {@link #resumeConsumers()}. */
    void pauseConsumers() throws Exception;

    void resumeConsumers() throws Exception;

    /** The counts and histograms since the previous call. */
    PeriodStats periodStats() throws Exception;

    /** The totals since the driver was initialized. */
    CountersStats countersStats() throws Exception;

    /** Drops the latencies recorded so far (the warmup's) and the period's counts. */
    void resetStats() throws Exception;

    /** Stops the load, closes producers and consumers, deletes the topics this worker created, closes the driver. */
    void stopAll() throws Exception;

    @Override
    default void close() throws Exception
    {
        stopAll();
    }
}
