/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.zilla.omb.config.DriverConfig;

/**
 * Several workers as one, split as OMB's distributed ensemble splits them: the first of them produce, the others
 * consume ({@code P = N / 2} producer workers, or {@code (N + 2) / 3} with {@code --extra} consumer workers, so that a
 * backlog drains faster), the first worker alone creates the topics, producers and consumers are dealt round-robin,
 * and each used producer worker gets an equal share of the rate. Statistics of all workers are added up: counts summed,
 * histograms merged ({@link PeriodStats#plus}). Commands go to the workers at once, in parallel.
 */
public final class DistributedWorkers implements Worker
{
    private final List<Worker> workers;
    private final List<Worker> producerWorkers;
    private final List<Worker> consumerWorkers;
    private final Worker leader;
    private final ExecutorService executor;
    private int usedProducerWorkers;

    /** @param extraConsumers OMB's {@code -x}: a third of the workers produce instead of half */
    public DistributedWorkers(List<? extends Worker> workers, boolean extraConsumers)
    {
        if (workers.size() < 2)
        {
            throw new IllegalArgumentException("a distributed run needs at least 2 workers (one produces, one consumes), "
                + "was " + workers.size());
        }
        this.workers = List.copyOf(workers);
        final int producers = extraConsumers ? (workers.size() + 2) / 3 : workers.size() / 2;
        final List<Worker> reversed = new ArrayList<>(workers);
        Collections.reverse(reversed);
        this.consumerWorkers = List.copyOf(reversed.subList(0, workers.size() - producers));
        this.producerWorkers = List.copyOf(reversed.subList(workers.size() - producers, workers.size()));
        this.leader = workers.get(0);
        this.usedProducerWorkers = producerWorkers.size();
        this.executor = Executors.newCachedThreadPool(r ->
        {
            final Thread thread = new Thread(r, "omb-workers");
            thread.setDaemon(true);
            return thread;
        });
    }

    public List<Worker> producerWorkers()
    {
        return producerWorkers;
    }

    public List<Worker> consumerWorkers()
    {
        return consumerWorkers;
    }

    @Override
    public void initializeDriver(DriverConfig config) throws Exception
    {
        each(workers, worker -> worker.initializeDriver(config));
    }

    @Override
    public List<String> createTopics(int topics, int partitionsPerTopic) throws Exception
    {
        return leader.createTopics(topics, partitionsPerTopic);
    }

    @Override
    public void createProducers(List<String> topics) throws Exception
    {
        final List<List<String>> shares = deal(topics, producerWorkers.size());
        usedProducerWorkers = (int) shares.stream().filter(share -> !share.isEmpty()).count();
        eachIndexed(producerWorkers, (worker, index) -> worker.createProducers(shares.get(index)));
    }

    @Override
    public void createConsumers(List<TopicSubscription> subscriptions) throws Exception
    {
        final List<List<TopicSubscription>> shares = deal(subscriptions, consumerWorkers.size());
        eachIndexed(consumerWorkers, (worker, index) -> worker.createConsumers(shares.get(index)));
    }

    @Override
    public void probeProducers() throws Exception
    {
        each(producerWorkers, Worker::probeProducers);
    }

    @Override
    public void startLoad(ProducerWorkAssignment assignment) throws Exception
    {
        final ProducerWorkAssignment share = assignment.withPublishRate(assignment.publishRate() / usedProducerWorkers);
        each(producerWorkers, worker -> worker.startLoad(share));
    }

    @Override
    public void adjustPublishRate(double publishRate) throws Exception
    {
        each(producerWorkers, worker -> worker.adjustPublishRate(publishRate / usedProducerWorkers));
    }

    @Override
    public void pauseConsumers() throws Exception
    {
        each(consumerWorkers, Worker::pauseConsumers);
    }

    @Override
    public void resumeConsumers() throws Exception
    {
        each(consumerWorkers, Worker::resumeConsumers);
    }

    @Override
    public PeriodStats periodStats() throws Exception
    {
        PeriodStats sum = new PeriodStats();
        for (PeriodStats stats : gather(Worker::periodStats))
        {
            sum = sum.plus(stats);
        }
        return sum;
    }

    @Override
    public CountersStats countersStats() throws Exception
    {
        CountersStats sum = new CountersStats(0, 0, 0);
        for (CountersStats stats : gather(Worker::countersStats))
        {
            sum = sum.plus(stats);
        }
        return sum;
    }

    @Override
    public void resetStats() throws Exception
    {
        each(workers, Worker::resetStats);
    }

    @Override
    public void stopAll() throws Exception
    {
        each(workers, Worker::stopAll);
    }

    @Override
    public void close() throws Exception
    {
        try
        {
            stopAll();
        }
        finally
        {
            executor.shutdownNow();
        }
    }

    /** {@code items} dealt to {@code n} hands in turn, as OMB's {@code ListPartition}: item k to hand k mod n. */
    static <T> List<List<T>> deal(List<T> items, int n)
    {
        final List<List<T>> hands = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            hands.add(new ArrayList<>());
        }
        for (int k = 0; k < items.size(); k++)
        {
            hands.get(k % n).add(items.get(k));
        }
        return hands;
    }

    private void each(List<Worker> targets, Call call) throws Exception
    {
        eachIndexed(targets, (worker, index) -> call.apply(worker));
    }

    private void eachIndexed(List<Worker> targets, IndexedCall call) throws Exception
    {
        gather(targets, (worker, index) ->
        {
            call.apply(worker, index);
            return null;
        });
    }

    private <T> List<T> gather(Query<T> query) throws Exception
    {
        return gather(workers, (worker, index) -> query.apply(worker));
    }

    /** Asks every target at once; waits for all of them; the first failure is thrown, after all of them ended. */
    private <T> List<T> gather(List<Worker> targets, IndexedQuery<T> query) throws Exception
    {
        final List<CompletableFuture<T>> calls = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++)
        {
            final int index = i;
            final Worker worker = targets.get(i);
            calls.add(CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    return query.apply(worker, index);
                }
                catch (Exception ex)
                {
                    throw new CompletionException(ex);
                }
            }, executor));
        }
        final List<T> results = new ArrayList<>();
        Exception failure = null;
        for (CompletableFuture<T> call : calls)
        {
            try
            {
                results.add(call.join());
            }
            catch (CompletionException ex)
            {
                failure = failure != null ? failure
                    : ex.getCause() instanceof Exception cause ? cause : new RuntimeException(ex.getCause());
            }
        }
        if (failure != null)
        {
            throw failure;
        }
        return results;
    }

    @FunctionalInterface
    private interface Call
    {
        void apply(Worker worker) throws Exception;
    }

    @FunctionalInterface
    private interface IndexedCall
    {
        void apply(Worker worker, int index) throws Exception;
    }

    @FunctionalInterface
    private interface Query<T>
    {
        T apply(Worker worker) throws Exception;
    }

    @FunctionalInterface
    private interface IndexedQuery<T>
    {
        T apply(Worker worker, int index) throws Exception;
    }
}
