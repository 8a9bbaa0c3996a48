/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
 * Each producer sends on its own thread at an equal share of the worker's rate, paced by a {@link UniformRateLimiter}:
 * the n-th message is intended at {@code start + n / rate} whatever happened before, so a stall shows as publish delay
 * instead of being absorbed (coordinated omission). A payload carries its actual send time ({@link EpochNanos}) for the
 * consumer's end-to-end latency. In backlog mode a paused consumer holds its callback, so it takes no more messages.
 */
public final class LocalWorker implements Worker
{
    // topics are created this many at a time, as OMB's Kafka driver batches them
    private static final int TOPIC_BATCH = 500;

    private final Consumer<String> log;
    private final WorkerStats stats = new WorkerStats();
    private final List<ProducerTask> producers = new ArrayList<>();
    private final List<BenchmarkConsumer> consumers = new ArrayList<>();
    private final List<String> createdTopics = new ArrayList<>();

    private BenchmarkDriver driver;
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
            final BenchmarkProducer producer = driver.createProducer(topic).get(60, TimeUnit.SECONDS);
            producers.add(new ProducerTask(producer, stats, producers.size()));
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
    public synchronized void startLoad(ProducerWorkAssignment assignment)
    {
        final List<byte[]> payloads = assignment.payloadData();
        long seed = 0x5eed;
        for (ProducerTask producer : producers)
        {
            producer.start(payloads, new KeyDistributor(assignment.keyDistributorType(), seed++));
        }
        adjustPublishRate(assignment.publishRate());
    }

    @Override
    public synchronized void adjustPublishRate(double publishRate)
    {
        if (producers.isEmpty())
        {
            return;
        }
        final long start = System.nanoTime();
        final double share = Math.max(1.0, publishRate) / producers.size();
        producers.forEach(p -> p.rate(share, start));
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
        producers.forEach(ProducerTask::stop);
        Exception failure = null;
        for (ProducerTask producer : producers)
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

    /** One producer's load thread: waits for each intended send time, stamps the payload, sends. */
    private static final class ProducerTask implements Runnable
    {
        private final BenchmarkProducer producer;
        private final WorkerStats stats;
        private final Thread thread;

        private List<byte[]> payloads;
        private KeyDistributor keys;
        private volatile UniformRateLimiter limiter;
        private volatile boolean running = true;

        ProducerTask(BenchmarkProducer producer, WorkerStats stats, int index)
        {
            this.producer = producer;
            this.stats = stats;
            this.thread = new Thread(this, "omb-producer-" + index);
            this.thread.setDaemon(true);
        }

        void start(List<byte[]> payloads, KeyDistributor keys)
        {
            this.payloads = payloads;
            this.keys = keys;
            thread.start();
        }

        void rate(double rate, long start)
        {
            limiter = new UniformRateLimiter(rate, start);
            LockSupport.unpark(thread);
        }

        void stop()
        {
            running = false;
            LockSupport.unpark(thread);
        }

        void close() throws Exception
        {
            if (thread.isAlive())
            {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
            producer.close();
        }

        @Override
        public void run()
        {
            int next = 0;
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
                final byte[] payload = payloads.get(next).clone();
                next = next + 1 == payloads.size() ? 0 : next + 1;
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
