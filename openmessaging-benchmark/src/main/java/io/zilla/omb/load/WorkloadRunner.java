/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.zilla.omb.config.Workload;
import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.BenchmarkDriver;
import io.zilla.omb.driver.BenchmarkProducer;
import io.zilla.omb.result.TestResult;

/**
 * Runs one workload on one driver: creates the topics, the subscriptions' consumers and the producers, puts the load
 * on for the warmup, then measures for the test duration, one {@link TestResult} period at a time.
 * <p>
 * Each producer sends on its own thread at an equal share of {@code producerRate}, paced by a
 * {@link UniformRateLimiter}. It records the publish latency from its actual send time to the acknowledgement and the
 * publish delay from the intended send time to the actual one; the payload carries the actual send time
 * ({@link System#nanoTime()}, consumers run in the same JVM) for the end-to-end latency. What the warmup recorded is
 * dropped when the measured phase starts.
 * <p>
 * With {@code producerRate: 0} the warmup becomes a search for the maximum sustainable rate (at least
 * {@link #MIN_SEARCH}, in steps of {@link #SEARCH_STEP}, the first step at the start rate not judged: clients and
 * broker are cold): a rate is sustained when the acknowledged rate reaches 95% of it and the backlog grows by less
 * than half a second of messages; the rate doubles until a step fails, then is bisected between the best sustained
 * and the lowest failed rate, until they are within 5% or the time is up. The measured phase runs at the best
 * sustained rate (the producers' rate stays fixed there, unlike OMB, which keeps adjusting it).
 * <p>
 * With {@code consumerBacklogSizeGB > 0} (backlog mode, as OMB): when the test starts the consumers stop taking
 * messages (their callbacks wait) until the backlog reaches that size, then they drain it while the producers go on;
 * the test lasts its duration and, beyond it, until the backlog is down to {@code 1 - backlogDrainRatio} of its
 * size, or 1% of it (one more test duration at most).
 */
public final class WorkloadRunner
{
    static final Duration SEARCH_STEP = Duration.ofSeconds(2);
    static final Duration MIN_SEARCH = Duration.ofSeconds(10);
    private static final double SEARCH_START_RATE = 5_000;
    private static final double MIN_RATE = 10;

    private final Workload workload;
    private final String driverName;
    private final BenchmarkDriver driver;
    private final Duration statsPeriod;
    private final Consumer<String> log;
    private final LatencyStats stats = new LatencyStats();
    private final List<ProducerTask> producers = new ArrayList<>();
    private final List<BenchmarkConsumer> consumers = new ArrayList<>();
    private final List<String> topics = new ArrayList<>();

    private volatile boolean consumersPaused;
    private volatile boolean draining;
    private volatile boolean stopping;

    public WorkloadRunner(Workload workload, String driverName, BenchmarkDriver driver, Duration statsPeriod,
        Consumer<String> log)
    {
        this.workload = workload;
        this.driverName = driverName;
        this.driver = driver;
        this.statsPeriod = statsPeriod;
        this.log = log;
    }

    /** Runs the workload; the driver stays open (its owner closes it), producers and consumers are closed. */
    public TestResult run() throws Exception
    {
        try
        {
            topics.addAll(createTopics());
            createConsumers(topics);
            createProducers(topics);

            final boolean search = workload.producerRate() == 0;
            final double rate;
            if (search)
            {
                rate = searchMaxRate();
            }
            else
            {
                rate = workload.producerRate();
                setRate(rate);
                log.accept(String.format("%s on %s: warmup %d s at %.0f msg/s", workload.name(), driverName,
                    workload.warmupDuration().toSeconds(), rate));
                sleep(workload.warmupDuration().toNanos());
            }
            return measure(rate, search);
        }
        finally
        {
            stop();
        }
    }

    private List<String> createTopics() throws Exception
    {
        final List<String> names = new ArrayList<>();
        final List<CompletableFuture<Void>> created = new ArrayList<>();
        for (int i = 0; i < workload.topics(); i++)
        {
            final String topic = String.format("%stopic-%04d", driver.getTopicNamePrefix(), i);
            names.add(topic);
            created.add(driver.createTopic(topic, workload.partitionsPerTopic()));
        }
        CompletableFuture.allOf(created.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        return names;
    }

    private void createConsumers(List<String> topics) throws Exception
    {
        final List<CompletableFuture<BenchmarkConsumer>> created = new ArrayList<>();
        for (int t = 0; t < topics.size(); t++)
        {
            for (int s = 0; s < workload.subscriptionsPerTopic(); s++)
            {
                final String subscription = String.format("%ssub-%03d-%04d", driver.getTopicNamePrefix(), s, t);
                for (int c = 0; c < workload.consumerPerSubscription(); c++)
                {
                    created.add(driver.createConsumer(topics.get(t), subscription, this::onMessage));
                }
            }
        }
        for (CompletableFuture<BenchmarkConsumer> consumer : created)
        {
            consumers.add(consumer.get(90, TimeUnit.SECONDS));
        }
    }

    private void createProducers(List<String> topics) throws Exception
    {
        long seed = 0x5eed;
        for (String topic : topics)
        {
            for (int p = 0; p < workload.producersPerTopic(); p++)
            {
                final BenchmarkProducer producer = driver.createProducer(topic).get(60, TimeUnit.SECONDS);
                producers.add(new ProducerTask(producer, new Payloads(workload, seed++), stats, producers.size()));
            }
        }
        producers.forEach(ProducerTask::start);
    }

    private void onMessage(byte[] payload, long publishTimestamp)
    {
        // backlog mode: holding the callback stops the consumer taking more, as OMB's workers do
        while (consumersPaused && !stopping)
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        final long now = System.nanoTime();
        if (payload != null && payload.length >= Long.BYTES)
        {
            stats.onReceived(payload.length, now - Payloads.stamp(payload));
        }
    }

    private void setRate(double totalRate)
    {
        final long start = System.nanoTime();
        final double share = totalRate / producers.size();
        producers.forEach(p -> p.rate(share, start));
    }

    private double searchMaxRate()
    {
        final long budget = Math.max(workload.warmupDuration().toNanos(), MIN_SEARCH.toNanos());
        final long deadline = System.nanoTime() + budget;
        double rate = SEARCH_START_RATE;
        double best = 0;
        double failed = Double.POSITIVE_INFINITY;
        setRate(rate);
        sleep(SEARCH_STEP.toNanos());
        while (System.nanoTime() + SEARCH_STEP.toNanos() <= deadline)
        {
            setRate(rate);
            final long backlogBefore = backlog();
            stats.period();
            final long start = System.nanoTime();
            sleep(SEARCH_STEP.toNanos());
            final LatencyStats.Period period = stats.period();
            final double seconds = (System.nanoTime() - start) / 1e9;
            final double acked = period.acked() / seconds;
            final long growth = backlog() - backlogBefore;
            final boolean sustained = acked >= 0.95 * rate && growth <= rate / 2;
            log.accept(String.format("%s on %s: max rate search: %.0f msg/s %s (acked %.0f msg/s, backlog %+d)",
                workload.name(), driverName, rate, sustained ? "sustained" : "not sustained", acked, growth));
            if (sustained)
            {
                best = rate;
                rate = Double.isInfinite(failed) ? rate * 2 : (best + failed) / 2;
            }
            else
            {
                failed = rate;
                rate = best > 0 ? (best + failed) / 2 : Math.max(MIN_RATE, rate / 2);
            }
            if (best > 0 && failed / best < 1.05)
            {
                break;
            }
        }
        final double found = best > 0 ? best : Math.max(MIN_RATE, rate);
        setRate(found);
        log.accept(String.format("%s on %s: max rate search: measuring at %.0f msg/s", workload.name(), driverName, found));
        return found;
    }

    private TestResult measure(double rate, boolean search)
    {
        final TestResult result = new TestResult();
        result.workload = workload.name();
        result.driver = driverName;
        result.messageSize = workload.messageSize();
        result.topics = workload.topics();
        result.partitions = workload.partitionsPerTopic();
        result.producersPerTopic = workload.producersPerTopic();
        result.consumersPerTopic = (long) workload.subscriptionsPerTopic() * workload.consumerPerSubscription();
        result.producerRate = rate;
        result.maxRateSearch = search;
        final ResultBuilder builder = new ResultBuilder(result, statsPeriod.toNanos() / 1e9);

        stats.period();
        final long start = System.nanoTime();
        final long end = start + workload.testDuration().toNanos();
        final Thread backlogThread = workload.consumerBacklogSizeGB() > 0 ? startBacklog() : null;
        long periodStart = start;
        // a backlog that does not drain keeps the test going one more test duration at most (OMB waits for ever)
        final long drainEnd = end + workload.testDuration().toNanos();
        while (periodStart < end || draining && periodStart < drainEnd)
        {
            final long periodEnd = Math.min(periodStart < end ? end : drainEnd, periodStart + statsPeriod.toNanos());
            sleep(periodEnd - System.nanoTime());
            final long now = System.nanoTime();
            final LatencyStats.Period period = stats.period();
            final double seconds = (now - periodStart) / 1e9;
            final long backlog = backlog();
            builder.add(period, seconds, backlog);
            log.accept(String.format("%s on %s: %5.0f s  pub %8.0f msg/s  cons %8.0f msg/s  backlog %6d  "
                    + "pub p99 %7.3f ms  e2e p99 %7.3f ms",
                workload.name(), driverName, (now - start) / 1e9, period.acked() / seconds, period.received() / seconds,
                backlog, period.publishLatency().getValueAtPercentile(99) / 1000.0,
                period.endToEnd().getValueAtPercentile(99) / 1000.0));
            periodStart = now;
        }
        if (draining)
        {
            log.accept(String.format("%s on %s: the backlog (%d messages) did not drain within the test duration after the "
                + "test", workload.name(), driverName, backlog()));
        }
        else
        {
            joinQuietly(backlogThread);
        }
        return builder.build();
    }

    /** Builds the backlog with the consumers held, then lets them drain it; the test lasts until it is drained. */
    private Thread startBacklog()
    {
        final long target = (long) (workload.consumerBacklogSizeGB() * (1L << 30) / workload.messageSize());
        // with the producers sending, a backlog never stays at 0: 1% of it left counts as drained
        final long emptyLevel = Math.max((long) ((1.0 - workload.backlogDrainRatio()) * target), target / 100);
        consumersPaused = true;
        draining = true;
        final Thread thread = new Thread(() ->
        {
            final long start = System.nanoTime();
            awaitBacklog(() -> backlog() >= target);
            log.accept(String.format("%s on %s: backlog of %d messages built in %.1f s, draining", workload.name(),
                driverName, backlog(), (System.nanoTime() - start) / 1e9));
            consumersPaused = false;
            final long drainStart = System.nanoTime();
            awaitBacklog(() -> backlog() <= emptyLevel);
            log.accept(String.format("%s on %s: backlog drained to %d messages in %.1f s", workload.name(), driverName,
                backlog(), (System.nanoTime() - drainStart) / 1e9));
            draining = false;
        }, "omb-backlog");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private void awaitBacklog(BooleanSupplier reached)
    {
        while (!reached.getAsBoolean() && !stopping)
        {
            sleep(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static void joinQuietly(Thread thread)
    {
        if (thread != null)
        {
            try
            {
                thread.join();
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private long backlog()
    {
        return Math.max(0, stats.totalSent() * workload.subscriptionsPerTopic() - stats.totalReceived());
    }

    private void stop() throws Exception
    {
        stopping = true;
        consumersPaused = false;
        producers.forEach(ProducerTask::stop);
        Exception failure = null;
        for (ProducerTask producer : producers)
        {
            try
            {
                producer.close();
            }
            catch (Exception ex)
            {
                failure = failure == null ? ex : failure;
            }
        }
        for (BenchmarkConsumer consumer : consumers)
        {
            try
            {
                consumer.close();
            }
            catch (Exception ex)
            {
                failure = failure == null ? ex : failure;
            }
        }
        if (!topics.isEmpty())
        {
            try
            {
                // a run's data is not needed after it, and left behind it fills the broker's disk run after run
                driver.deleteTopics(topics).get(60, TimeUnit.SECONDS);
            }
            catch (Exception ex)
            {
                failure = failure == null ? ex : failure;
            }
        }
        if (failure != null)
        {
            throw failure;
        }
    }

    private static void sleep(long nanos)
    {
        UniformRateLimiter.waitUntil(System.nanoTime() + Math.max(0, nanos));
    }

    /** One producer's load thread: waits for each intended send time, stamps the payload, sends. */
    private static final class ProducerTask implements Runnable
    {
        private final BenchmarkProducer producer;
        private final Payloads payloads;
        private final LatencyStats stats;
        private final Thread thread;

        private volatile UniformRateLimiter limiter;
        private volatile boolean running = true;

        ProducerTask(BenchmarkProducer producer, Payloads payloads, LatencyStats stats, int index)
        {
            this.producer = producer;
            this.payloads = payloads;
            this.stats = stats;
            this.thread = new Thread(this, "omb-producer-" + index);
            this.thread.setDaemon(true);
        }

        void start()
        {
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
            thread.join(TimeUnit.SECONDS.toMillis(30));
            producer.close();
        }

        @Override
        public void run()
        {
            UniformRateLimiter current = null;
            while (running)
            {
                current = limiter;
                if (current == null)
                {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                    continue;
                }
                final long intended = current.next();
                UniformRateLimiter.waitUntil(intended);
                if (!running || current != limiter)
                {
                    continue;
                }
                final long sent = System.nanoTime();
                final byte[] payload = payloads.next(sent);
                final Optional<String> key = payloads.nextKey();
                stats.onSent();
                producer.sendAsync(key, payload).whenComplete((v, ex) ->
                {
                    if (ex != null)
                    {
                        stats.onError();
                    }
                    else
                    {
                        stats.onAcked(System.nanoTime() - sent, sent - intended);
                    }
                });
            }
        }
    }
}
