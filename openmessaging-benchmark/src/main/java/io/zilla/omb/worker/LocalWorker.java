/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.BenchmarkDriver;
import io.zilla.omb.driver.BenchmarkDrivers;
import io.zilla.omb.driver.BenchmarkProducer;

/**
 * The producers and consumers of this process, as OMB's local worker: the whole benchmark in one JVM, or one
 * {@code benchmark-worker} process of a distributed run.
 * <p>
 * Load threads, as many as cores at most, send through the producers in turn, paced by the worker's one
 * {@link UniformRateLimiter}: the n-th message is intended at {@code start + n / rate} whatever happened before, so a
 * stall shows as publish delay instead of being absorbed (coordinated omission). A payload carries its actual send
 * time ({@link EpochNanos}) for the consumer's end-to-end latency. In backlog mode a paused consumer holds its
 * callback, so it takes no more messages.
 */
public final class LocalWorker implements Worker
{
    // topics are created this many at a time, as OMB's Kafka driver batches them
    private static final int TOPIC_BATCH = 500;
    private static final String PROBE_KEY = "key";
    private static final int PROBE_BYTES = 10;
    private static final long PROBE_SECONDS = 60;

    private final Consumer<String> log;
    private final WorkerStats stats = new WorkerStats();
    private final List<BenchmarkProducer> producers = new ArrayList<>();
    private final List<LoadThread> loads = new ArrayList<>();
    private final List<BenchmarkConsumer> consumers = new ArrayList<>();
    private final List<String> createdTopics = new ArrayList<>();

    private BenchmarkDriver driver;
    // the worker's one rate, shared by its load threads as OMB shares it; replaced whole when the rate changes
    private volatile UniformRateLimiter limiter;
    private volatile boolean consumersPaused;
    private volatile boolean stopping;

    public LocalWorker(Consumer<String> log)
    {
        this.log = log;
    }

    @Override
    public synchronized void initializeDriver(DriverConfig config) throws Exception
    {
        stopAll();
        stopping = false;
        stats.resetAll();
        driver = BenchmarkDrivers.create(config);
    }

    @Override
    public synchronized List<String> createTopics(int topics, int partitionsPerTopic) throws Exception
    {
        final BenchmarkDriver driver = driver();
        final List<String> names = new ArrayList<>(topics);
        for (int first = 0; first < topics; first += TOPIC_BATCH)
        {
            final List<CompletableFuture<Void>> created = new ArrayList<>();
            for (int i = first; i < Math.min(topics, first + TOPIC_BATCH); i++)
            {
                final String topic = String.format("%stopic-%07d", driver.getTopicNamePrefix(), i);
                names.add(topic);
                created.add(driver.createTopic(topic, partitionsPerTopic));
            }
            CompletableFuture.allOf(created.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            createdTopics.addAll(names.subList(first, names.size()));
            if (topics > TOPIC_BATCH)
            {
                log.accept(String.format("created topics %d/%d", names.size(), topics));
            }
        }
        return names;
    }

    @Override
    public synchronized void createProducers(List<String> topics) throws Exception
    {
        final BenchmarkDriver driver = driver();
        for (String topic : topics)
        {
            producers.add(driver.createProducer(topic).get(60, TimeUnit.SECONDS));
        }
    }

    @Override
    public synchronized void createConsumers(List<TopicSubscription> subscriptions) throws Exception
    {
        final BenchmarkDriver driver = driver();
        final List<CompletableFuture<BenchmarkConsumer>> created = new ArrayList<>();
        for (TopicSubscription subscription : subscriptions)
        {
            created.add(driver.createConsumer(subscription.topic(), subscription.subscription(), this::onMessage));
        }
        for (CompletableFuture<BenchmarkConsumer> consumer : created)
        {
            consumers.add(consumer.get(90, TimeUnit.SECONDS));
        }
    }

    @Override
    public synchronized void probeProducers() throws Exception
    {
        final List<CompletableFuture<Void>> probes = new ArrayList<>();
        for (BenchmarkProducer producer : producers)
        {
            // stamped as a load message, so that its consumer records a true end-to-end latency (a warmup's)
            final byte[] payload = new byte[PROBE_BYTES];
            PayloadStamp.write(payload, EpochNanos.now());
            probes.add(producer.sendAsync(Optional.of(PROBE_KEY), payload).thenRun(stats::onProbed));
        }
        try
        {
            CompletableFuture.allOf(probes.toArray(CompletableFuture[]::new)).get(PROBE_SECONDS, TimeUnit.SECONDS);
        }
        catch (ExecutionException ex)
        {
            throw new IllegalStateException("a producer's probe message failed: " + ex.getCause(), ex.getCause());
        }
        catch (TimeoutException ex)
        {
            throw new IllegalStateException("the producers' probe messages were not acknowledged within "
                + PROBE_SECONDS + " s", ex);
        }
    }

    /**
     * Starts the load as OMB's worker does: as many threads as cores at most, each sending in turn through its share of
     * the producers, all of them paced by the worker's one rate limiter. A thread per producer would cost a workload of
     * hundreds of producers hundreds of threads, and its scheduling, not the system's, would show in the latencies.
     */
    @Override
    public synchronized void startLoad(ProducerWorkAssignment assignment)
    {
        if (producers.isEmpty())
        {
            return;
        }
        adjustPublishRate(assignment.publishRate());
        final int threads = Math.min(producers.size(), Runtime.getRuntime().availableProcessors());
        final List<List<BenchmarkProducer>> shares = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            shares.add(new ArrayList<>());
        }
        for (int p = 0; p < producers.size(); p++)
        {
            shares.get(p % threads).add(producers.get(p));
        }
        for (int t = 0; t < threads; t++)
        {
            final LoadThread load = new LoadThread(shares.get(t), assignment.payloadData(),
                new KeyDistributor(assignment.keyDistributorType(), 0x5eed + t), t);
            loads.add(load);
            load.start();
        }
    }

    @Override
    public synchronized void adjustPublishRate(double publishRate)
    {
        limiter = new UniformRateLimiter(Math.max(1.0, publishRate), System.nanoTime());
    }

    @Override
    public void pauseConsumers()
    {
        consumersPaused = true;
    }

    @Override
    public void resumeConsumers()
    {
        consumersPaused = false;
    }

    @Override
    public PeriodStats periodStats()
    {
        return stats.period();
    }

    @Override
    public CountersStats countersStats()
    {
        return stats.counters();
    }

    @Override
    public void resetStats()
    {
        stats.period();
    }

    @Override
    public synchronized void stopAll() throws Exception
    {
        stopping = true;
        consumersPaused = false;
        limiter = null;
        loads.forEach(LoadThread::halt);
        Exception failure = null;
        for (LoadThread load : loads)
        {
            failure = closeQuietly(load::awaitEnd, failure);
        }
        loads.clear();
        for (BenchmarkProducer producer : producers)
        {
            failure = closeQuietly(producer::close, failure);
        }
        producers.clear();
        for (BenchmarkConsumer consumer : consumers)
        {
            failure = closeQuietly(consumer::close, failure);
        }
        consumers.clear();
        if (driver != null && !createdTopics.isEmpty())
        {
            // a run's data is not needed after it (OMB leaves it), and left behind it fills the brokers run after run;
            // but a broker that refuses (delete.topic.enable=false, no permission) or is gone (Ctrl-C) fails no run
            final List<String> topics = List.copyOf(createdTopics);
            try
            {
                driver.deleteTopics(topics).get(10, TimeUnit.SECONDS);
            }
            catch (Exception ex)
            {
                log.accept("the run's " + topics.size() + " topic(s) are left on the brokers: deleting them failed: " + ex);
            }
        }
        createdTopics.clear();
        if (driver != null)
        {
            failure = closeQuietly(driver::close, failure);
            driver = null;
        }
        if (failure != null)
        {
            throw failure;
        }
    }

    private BenchmarkDriver driver()
    {
        if (driver == null)
        {
            throw new IllegalStateException("no driver: initialize-driver first");
        }
        return driver;
    }

    private void onMessage(byte[] payload, long publishTimestamp)
    {
        // backlog mode: holding the callback stops the consumer taking more, as OMB's workers do
        while (consumersPaused && !stopping)
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        if (payload != null && payload.length >= PayloadStamp.BYTES)
        {
            // as OMB, a latency of zero or less (clocks of two hosts apart) counts the message but is not recorded
            stats.onReceived(payload.length, EpochNanos.now() - PayloadStamp.read(payload));
        }
    }

    private static Exception closeQuietly(Closing closing, Exception failure)
    {
        try
        {
            closing.close();
            return failure;
        }
        catch (Exception ex)
        {
            return failure != null ? failure : ex;
        }
    }

    @FunctionalInterface
    private interface Closing
    {
        void close() throws Exception;
    }

    /** A load thread: waits for each intended send time of the worker's rate, stamps a payload, sends it. */
    private final class LoadThread extends Thread
    {
        private final List<BenchmarkProducer> producers;
        private final List<byte[]> payloads;
        private final KeyDistributor keys;
        private volatile boolean running = true;

        LoadThread(List<BenchmarkProducer> producers, List<byte[]> payloads, KeyDistributor keys, int index)
        {
            super("omb-load-" + index);
            this.producers = producers;
            this.payloads = payloads;
            this.keys = keys;
            setDaemon(true);
        }

        void halt()
        {
            running = false;
            LockSupport.unpark(this);
        }

        void awaitEnd() throws InterruptedException
        {
            join(TimeUnit.SECONDS.toMillis(30));
        }

        @Override
        public void run()
        {
            int nextPayload = 0;
            int nextProducer = 0;
            while (running)
            {
                final UniformRateLimiter current = limiter;
                if (current == null)
                {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                    continue;
                }
                final long intended = current.next();
                if (!awaitSendTime(intended, current))
                {
                    continue;
                }
                final long sent = System.nanoTime();
                final byte[] payload = payloads.get(nextPayload).clone();
                nextPayload = nextPayload + 1 == payloads.size() ? 0 : nextPayload + 1;
                final BenchmarkProducer producer = producers.get(nextProducer);
                nextProducer = nextProducer + 1 == producers.size() ? 0 : nextProducer + 1;
                PayloadStamp.write(payload, EpochNanos.now());
                final int bytes = payload.length;
                try
                {
                    producer.sendAsync(keys.next(), payload).whenComplete((v, ex) ->
                    {
                        if (ex != null)
                        {
                            stats.onError();
                        }
                        else
                        {
                            stats.onAcked(bytes, System.nanoTime() - sent, sent - intended);
                        }
                    });
                }
                catch (RuntimeException ex)
                {
                    // a send refused at once (a producer closed under it) is an error of the run, not its thread's end
                    stats.onError();
                }
            }
        }

        /**
         * Waits for the intended send time, in steps short enough that a stop or a new rate is seen at once.
         *
         * @return whether to send: still running at the same rate
         */
        private boolean awaitSendTime(long intended, UniformRateLimiter current)
        {
            long remaining;
            while (running && current == limiter && (remaining = intended - System.nanoTime()) > 0)
            {
                LockSupport.parkNanos(Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(10)));
            }
            return running && current == limiter;
        }
    }
}
