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
 * {@code 1 - backlogDrainRatio} of its size or 1,000 messages, and one more test duration after that.
 * <p>
 * A test duration of zero runs until {@link #stop()}, then writes what it collected, as OMB's runs until killed do not.
 */
public final class WorkloadRunner
{
    private static final long READY_MILLIS = 60_000;
    private static final long READY_POLL_MILLIS = 50;

    private final Workload workload;
    private final String driverName;
    private final Worker worker;
    private final Duration statsPeriod;
    private final Consumer<String> log;

    private volatile boolean draining;
    private volatile boolean stopping;
    private volatile boolean stopRequested;
    private volatile double rate;
    private Runnable onTest = () -> { };

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

    /** What a run does with its result as soon as it is measured, before the worker is stopped. */
    @FunctionalInterface
    public interface ResultSink
    {
        void accept(TestResult result) throws Exception;
    }

    /**
     * As OMB's workload generator before the load: each producer sends one message, and this waits until every
     * subscription received it (within {@link #READY_MILLIS}), so that the warmup measures the system, not a topic's
     * leader election, the clients' first metadata and connections, or a consumer group's first assignment.
     */
    private void awaitTopicsReady(int topics) throws Exception
    {
        final long before = worker.countersStats().messagesReceived();
        worker.probeProducers();
        final long expected = before + (long) topics * workload.producersPerTopic() * workload.subscriptionsPerTopic();
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_MILLIS);
        long received;
        while ((received = worker.countersStats().messagesReceived()) < expected)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException(String.format("%s on %s: the consumers received %d of the %d probe "
                    + "messages within %d s: the subscriptions are not ready", workload.name(), driverName,
                    received - before, expected - before, TimeUnit.MILLISECONDS.toSeconds(READY_MILLIS)));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(READY_POLL_MILLIS));
        }
        worker.resetStats();
    }

    /** Runs {@code onTest} when the test phase begins (after the warmup), on the thread that called run. */
    public void onTest(Runnable onTest)
    {
        this.onTest = onTest;
    }

    /**
     * Runs the workload; hands the result to {@code sink} as soon as it is measured (so that a stop that fails, a broker
     * gone after Ctrl-C say, loses nothing), then stops the worker (producers, consumers, topics, driver). A failure to
     * stop after the result is out is logged, not thrown; one after a failed run is added to that failure.
     *
     * @return the result, or null when the test collected no period (stopped before it began)
     */
    public TestResult run(ResultSink sink) throws Exception
    {
        Thread controller = null;
        Thread backlog = null;
        TestResult result = null;
        Exception failure = null;
        try
        {
            final List<String> topics = worker.createTopics(workload.topics(), workload.partitionsPerTopic());
            worker.createConsumers(subscriptions(topics));
            worker.createProducers(producerTopics(topics));
            awaitTopicsReady(topics.size());

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
            onTest.run();
            backlog = workload.consumerBacklogSizeGB() > 0 && !stopRequested ? startBacklog() : null;
            final TestResult measured = measure(search);
            if (measured.publishRate.isEmpty())
            {
                log.accept(workload.name() + " on " + driverName + ": stopped before the test collected a period: "
                    + "no result");
            }
            else
            {
                result = measured;
                sink.accept(result);
            }
        }
        catch (Exception ex)
        {
            failure = ex;
        }
        finally
        {
            stopping = true;
            stopThread(controller);
            stopThread(backlog);
            try
            {
                worker.stopAll();
            }
            catch (Exception ex)
            {
                if (failure != null)
                {
                    failure.addSuppressed(ex);
                }
                else
                {
                    log.accept(workload.name() + " on " + driverName + ": stopping the worker failed (the result is "
                        + "written): " + ex);
                }
            }
        }
        if (failure != null)
        {
            throw failure;
        }
        return result;
    }

    private static void stopThread(Thread thread) throws InterruptedException
    {
        if (thread != null)
        {
            // an HTTP call to a worker in progress ends on the interrupt: nothing from this run reaches the next one
            thread.interrupt();
            thread.join();
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
            while (!stopping && !Thread.currentThread().isInterrupted())
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

        final long testNanos = workload.testDuration().isZero() ? Long.MAX_VALUE : workload.testDuration().toNanos();
        collect(testNanos, builder, "test");
        result.producerRate = search
            ? result.publishRate.stream().mapToDouble(Double::doubleValue).average().orElse(0)
            : workload.producerRate();
        return builder.build();
    }

    /**
     * Collects one period after another for {@code durationNanos} (and, in the test, for as long as a backlog is
     * built, drained and followed by one more test duration, as OMB), logging each; adds them to {@code builder} unless
     * it is null (the warmup).
     */
    private void collect(long durationNanos, ResultBuilder builder, String phase) throws Exception
    {
        // elapsed times, not deadlines: a run until stopped has a duration of Long.MAX_VALUE, and no sum overflows
        final long start = System.nanoTime();
        long elapsed = 0;
        while (!stopRequested && (elapsed < durationNanos || builder != null && draining))
        {
            final long periodStart = start + elapsed;
            final long left = elapsed < durationNanos ? durationNanos - elapsed : Long.MAX_VALUE;
            sleepUnlessStopped(periodStart, Math.min(left, statsPeriod.toNanos()));
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

    /**
     * Builds the backlog with the consumers held, lets them drain it, then waits one more test duration, as OMB: the
     * test lasts until then (or until stopped). Drained is at most 1,000 messages left, or {@code 1 - backlogDrainRatio}
     * of the backlog, as OMB counts it.
     */
    private Thread startBacklog() throws Exception
    {
        final long target = (long) (workload.consumerBacklogSizeGB() * (1L << 30) / workload.messageSize());
        final long emptyLevel = Math.max(1_000, (long) ((1.0 - workload.backlogDrainRatio()) * target));
        worker.pauseConsumers();
        draining = true;
        final Thread thread = new Thread(() ->
        {
            try
            {
                final long start = System.nanoTime();
                if (awaitBacklog(backlog -> backlog >= target))
                {
                    log.accept(String.format("%s on %s: backlog of %d messages built in %.1f s, draining",
                        workload.name(), driverName, backlog(worker.countersStats()), (System.nanoTime() - start) / 1e9));
                    worker.resumeConsumers();
                    final long drainStart = System.nanoTime();
                    if (awaitBacklog(backlog -> backlog <= emptyLevel))
                    {
                        log.accept(String.format("%s on %s: backlog drained to %d messages in %.1f s, one more test "
                            + "duration", workload.name(), driverName, backlog(worker.countersStats()),
                            (System.nanoTime() - drainStart) / 1e9));
                        final long after = System.nanoTime();
                        while (!stopping && !stopRequested && System.nanoTime() - after < workload.testDuration().toNanos())
                        {
                            sleep(TimeUnit.MILLISECONDS.toNanos(100));
                        }
                    }
                }
            }
            catch (Exception ex)
            {
                if (!stopping)
                {
                    log.accept(workload.name() + " on " + driverName + ": backlog: " + ex);
                }
            }
            draining = false;
        }, "omb-backlog");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** @return whether the backlog got there; false when the run stopped first */
    private boolean awaitBacklog(LongPredicate reached) throws Exception
    {
        while (!stopping && !stopRequested && !Thread.currentThread().isInterrupted())
        {
            if (reached.test(backlog(worker.countersStats())))
            {
                return true;
            }
            sleep(TimeUnit.MILLISECONDS.toNanos(100));
        }
        return false;
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
