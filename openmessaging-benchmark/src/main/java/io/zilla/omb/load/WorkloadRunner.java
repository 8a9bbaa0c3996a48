/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

import io.zilla.omb.config.Workload;
import io.zilla.omb.result.TestResult;
import io.zilla.omb.worker.CountersStats;
import io.zilla.omb.worker.PeriodStats;
import io.zilla.omb.worker.ProducerWorkAssignment;
import io.zilla.omb.worker.TopicSubscription;
import io.zilla.omb.worker.Worker;

/**
 * Runs one workload on a {@link Worker} whose driver is initialized, as OMB's workload generator: creates the topics,
 * the subscriptions' consumers and the producers, puts the load on for the warmup, drops what the warmup recorded,
 * then collects the test's statistics one {@link TestResult} period at a time, and stops the worker.
 * <p>
 * {@code producerRate: 0}: a {@link RateController} adjusts the rate from {@link RateController#START_RATE} every
 * {@link RateController#PERIOD_MILLIS}, through the warmup and the test, as OMB's does.
 * <p>
 * {@code consumerBacklogSizeGB > 0} (backlog mode, as OMB): when the test starts the consumers stop taking messages
 * until the backlog (acknowledged messages times subscriptions, minus messages received) reaches that size, then
 * drain it while the producers go on; the test lasts its duration and, beyond it, until the backlog is down to
 * {@code 1 - backlogDrainRatio} of its size, or 1% of it (one more test duration at most: OMB waits for ever).
 * <p>
 * A test duration of zero runs until {@link #stop()}, then writes what it collected, as OMB's runs until killed do not.
 */
public final class WorkloadRunner
{
    private final Workload workload;
    private final String driverName;
    private final Worker worker;
    private final Duration statsPeriod;
    private final Consumer<String> log;

    private volatile boolean draining;
    private volatile boolean stopping;
    private volatile boolean stopRequested;
    private volatile double rate;

    public WorkloadRunner(Workload workload, String driverName, Worker worker, Duration statsPeriod, Consumer<String> log)
    {
        if (workload.consumerBacklogSizeGB() > 0 && workload.producerRate() == 0)
        {
            throw new IllegalArgumentException(workload.name() + ": a backlog (consumerBacklogSizeGB) needs a fixed "
                + "producerRate: the rate controller would slow the producers down to what the paused consumers take");
        }
        this.workload = workload;
        this.driverName = driverName;
        this.worker = worker;
        this.statsPeriod = statsPeriod;
        this.log = log;
    }

    /** Ends a run that lasts until stopped (or any run, early): the result holds the periods collected so far. */
    public void stop()
    {
        stopRequested = true;
    }

    /** Runs the workload; the worker is stopped (producers, consumers, topics, driver) whatever happens. */
    public TestResult run() throws Exception
    {
        Thread controller = null;
        try
        {
            final List<String> topics = worker.createTopics(workload.topics(), workload.partitionsPerTopic());
            worker.createConsumers(subscriptions(topics));
            worker.createProducers(producerTopics(topics));

            final boolean search = workload.producerRate() == 0;
            rate = search ? RateController.START_RATE : workload.producerRate();
            worker.startLoad(new ProducerWorkAssignment(Payloads.pool(workload, 0x5eed), rate, workload.keyDistributor()));
            controller = search ? startRateController() : null;
            if (!workload.warmupDuration().isZero())
            {
                log.accept(String.format("%s on %s: warmup %d s at %.0f msg/s%s", workload.name(), driverName,
                    workload.warmupDuration().toSeconds(), rate, search ? " (rate controlled)" : ""));
                collect(workload.warmupDuration().toNanos(), null, "warmup");
            }
            worker.resetStats();
            return measure(search);
        }
        finally
        {
            stopping = true;
            if (controller != null)
            {
                controller.interrupt();
                controller.join(TimeUnit.SECONDS.toMillis(10));
            }
            worker.stopAll();
        }
    }

    /** Every subscription's consumers, shuffled as OMB does so that no worker gets one subscription whole. */
    private List<TopicSubscription> subscriptions(List<String> topics)
    {
        final List<TopicSubscription> subscriptions = new ArrayList<>();
        for (String topic : topics)
        {
            for (int s = 0; s < workload.subscriptionsPerTopic(); s++)
            {
                final String name = String.format("sub-%03d-%s", s, Long.toString(ThreadLocalRandom.current().nextLong()
                    >>> 1, Character.MAX_RADIX));
                for (int c = 0; c < workload.consumerPerSubscription(); c++)
                {
                    subscriptions.add(new TopicSubscription(topic, name));
                }
            }
        }
        Collections.shuffle(subscriptions, new Random(topics.size()));
        return subscriptions;
    }

    private List<String> producerTopics(List<String> topics)
    {
        final List<String> producers = new ArrayList<>();
        for (int p = 0; p < workload.producersPerTopic(); p++)
        {
            producers.addAll(topics);
        }
        Collections.shuffle(producers, new Random(producers.size()));
        return producers;
    }

    private Thread startRateController()
    {
        final Thread thread = new Thread(() ->
        {
            final RateController controller = new RateController();
            long last = System.nanoTime();
            while (!stopping)
            {
                sleep(TimeUnit.MILLISECONDS.toNanos(RateController.PERIOD_MILLIS));
                try
                {
                    final CountersStats totals = worker.countersStats();
                    final long now = System.nanoTime();
                    rate = controller.nextRate(rate, now - last, totals.messagesSent(), totals.messagesReceived());
                    last = now;
                    if (!stopping)
                    {
                        worker.adjustPublishRate(rate);
                    }
                }
                catch (Exception ex)
                {
                    if (!stopping)
                    {
                        log.accept(workload.name() + " on " + driverName + ": rate controller: " + ex);
                    }
                }
            }
        }, "omb-rate-controller");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private TestResult measure(boolean search) throws Exception
    {
        final TestResult result = new TestResult();
        result.workload = workload.name();
        result.driver = driverName;
        result.messageSize = workload.messageSize();
        result.topics = workload.topics();
        result.partitions = workload.partitionsPerTopic();
        result.producersPerTopic = workload.producersPerTopic();
        // what OMB writes here: the consumers of one subscription, not of all the topic's subscriptions
        result.consumersPerTopic = workload.consumerPerSubscription();
        result.maxRateSearch = search;
        final ResultBuilder builder = new ResultBuilder(result, statsPeriod.toNanos() / 1e9);

        final Thread backlogThread = workload.consumerBacklogSizeGB() > 0 ? startBacklog() : null;
        final long testNanos = workload.testDuration().isZero() ? Long.MAX_VALUE : workload.testDuration().toNanos();
        collect(testNanos, builder, "test");
        if (draining)
        {
            log.accept(String.format("%s on %s: the backlog (%d messages) did not drain within the test duration after "
                + "the test", workload.name(), driverName, backlog(worker.countersStats())));
        }
        else if (backlogThread != null)
        {
            backlogThread.join();
        }
        result.producerRate = search
            ? result.publishRate.stream().mapToDouble(Double::doubleValue).average().orElse(0)
            : workload.producerRate();
        return builder.build();
    }

    /**
     * Collects one period after another for {@code durationNanos} (and, in the test, while a backlog drains, one more
     * test duration at most), logging each; adds them to {@code builder} unless it is null (the warmup).
     */
    private void collect(long durationNanos, ResultBuilder builder, String phase) throws Exception
    {
        // elapsed times, not deadlines: a run until stopped has a duration of Long.MAX_VALUE, and no sum overflows
        final long drainNanos = durationNanos > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * durationNanos;
        final long start = System.nanoTime();
        long elapsed = 0;
        while (!stopRequested && (elapsed < durationNanos || builder != null && draining && elapsed < drainNanos))
        {
            final long phaseNanos = elapsed < durationNanos ? durationNanos : drainNanos;
            final long periodStart = start + elapsed;
            sleepUnlessStopped(periodStart, Math.min(phaseNanos - elapsed, statsPeriod.toNanos()));
            final long now = System.nanoTime();
            final PeriodStats period = worker.periodStats();
            final double seconds = (now - periodStart) / 1e9;
            final long backlog = backlog(period);
            if (builder != null)
            {
                builder.add(period, seconds, backlog);
            }
            log.accept(String.format("%s on %s: %s %5.0f s  pub %8.0f msg/s  cons %8.0f msg/s  backlog %6d  "
                    + "pub p99 %7.3f ms  e2e p99 %7.3f ms", workload.name(), driverName, phase, (now - start) / 1e9,
                period.messagesSent / seconds, period.messagesReceived / seconds, backlog,
                period.publishLatency.getValueAtPercentile(99) / 1000.0,
                period.endToEndLatency.getValueAtPercentile(99) / 1000.0));
            elapsed = now - start;
        }
    }

    /** Builds the backlog with the consumers held, then lets them drain it; the test lasts until it is drained. */
    private Thread startBacklog() throws Exception
    {
        final long target = (long) (workload.consumerBacklogSizeGB() * (1L << 30) / workload.messageSize());
        // with the producers sending, a backlog never stays at 0: 1% of it left counts as drained
        final long emptyLevel = Math.max((long) ((1.0 - workload.backlogDrainRatio()) * target), target / 100);
        worker.pauseConsumers();
        draining = true;
        final Thread thread = new Thread(() ->
        {
            try
            {
                final long start = System.nanoTime();
                awaitBacklog(backlog -> backlog >= target);
                log.accept(String.format("%s on %s: backlog of %d messages built in %.1f s, draining", workload.name(),
                    driverName, backlog(worker.countersStats()), (System.nanoTime() - start) / 1e9));
                worker.resumeConsumers();
                final long drainStart = System.nanoTime();
                awaitBacklog(backlog -> backlog <= emptyLevel);
                log.accept(String.format("%s on %s: backlog drained to %d messages in %.1f s", workload.name(),
                    driverName, backlog(worker.countersStats()), (System.nanoTime() - drainStart) / 1e9));
            }
            catch (Exception ex)
            {
                log.accept(workload.name() + " on " + driverName + ": backlog: " + ex);
            }
            draining = false;
        }, "omb-backlog");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private void awaitBacklog(LongPredicate reached) throws Exception
    {
        while (!stopping && !stopRequested && !reached.test(backlog(worker.countersStats())))
        {
            sleep(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /** Messages acknowledged times subscriptions, minus messages received: what the consumers still have to take. */
    private long backlog(CountersStats totals)
    {
        return Math.max(0, totals.messagesSent() * workload.subscriptionsPerTopic() - totals.messagesReceived());
    }

    private long backlog(PeriodStats period)
    {
        return Math.max(0, period.totalMessagesSent * workload.subscriptionsPerTopic() - period.totalMessagesReceived);
    }

    private void sleepUnlessStopped(long start, long nanos)
    {
        long remaining;
        while (!stopRequested && (remaining = nanos - (System.nanoTime() - start)) > 0)
        {
            LockSupport.parkNanos(Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(100)));
        }
    }

    private static void sleep(long nanos)
    {
        LockSupport.parkNanos(Math.max(0, nanos));
    }
}
