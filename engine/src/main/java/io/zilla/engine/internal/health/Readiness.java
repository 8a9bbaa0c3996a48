/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.health;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import io.zilla.engine.binding.ReadyCondition;
import io.zilla.engine.binding.signal.Doorbell;

/**
 * Whether the engine takes traffic: from the moment every binding is attached on every worker (every listener bound,
 * the engine directory's {@code ready} file written) until a stop begins, and while every condition the bindings
 * registered holds (a kafka binding's cluster reachable). A stopping engine is never ready again.
 * <p>
 * Conditions are checked when a probe asks, not on a timer: each probe rings every condition's doorbell (unless a check
 * is still out), the bindings check on their workers, and the probe waits up to {@link #ANSWER_WAIT_MILLIS} for the
 * answers before it judges by the latest ones. So an engine nobody probes sends nothing to its brokers for readiness,
 * and a probe after the cluster came back sees it at once.
 */
public final class Readiness
{
    /** How long a probe waits for the answers to the checks it asked for: under Kubernetes' 1 s probe timeout. */
    static final long ANSWER_WAIT_MILLIS = 500;
    /** A check out for longer than this is unmet, whatever it answered before: its binding cannot tell any more. */
    static final long NO_ANSWER_MILLIS = 15_000;

    private static final long ANSWER_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final List<Condition> conditions = new CopyOnWriteArrayList<>();
    private final LongSupplier clock;

    private volatile boolean started;
    private volatile boolean stopping;

    public Readiness()
    {
        this(System::currentTimeMillis);
    }

    Readiness(LongSupplier clock)
    {
        this.clock = clock;
    }

    /** Every binding is attached: the engine takes traffic. */
    public void started()
    {
        started = true;
    }

    /** A stop began: a load balancer must send no more traffic. */
    public void stopping()
    {
        stopping = true;
    }

    /** A binding's condition, checked on its worker when {@code check} rings. */
    public ReadyCondition register(String name, Doorbell check)
    {
        final Condition condition = new Condition(name, check);
        conditions.add(condition);
        return condition;
    }

    /**
     * {@code {"ready":true}}, or {@code {"ready":false,"unmet":["starting"]}} (or {@code "stopping"}, or a condition
     * with its reason: {@code "kafka north_kafka_client: localhost:9092: connection failed"}).
     */
    public Verdict check()
    {
        final List<String> unmet = new ArrayList<>();
        if (stopping)
        {
            unmet.add("stopping");
        }
        else
        {
            if (!started)
            {
                unmet.add("starting");
            }
            askAndAwait();
            final long now = clock.getAsLong();
            for (Condition condition : conditions)
            {
                final String reason = condition.unmet(now);
                if (reason != null)
                {
                    unmet.add(condition.name + ": " + reason);
                }
            }
        }
        return unmet.isEmpty()
            ? new Verdict(true, "{\"ready\":true}")
            : new Verdict(false, "{\"ready\":false,\"unmet\":[" + quoted(unmet) + "]}");
    }

    private void askAndAwait()
    {
        final long now = clock.getAsLong();
        for (Condition condition : conditions)
        {
            condition.ask(now);
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANSWER_WAIT_MILLIS);
        while (conditions.stream().anyMatch(Condition::pending) && System.nanoTime() < deadline)
        {
            LockSupport.parkNanos(ANSWER_POLL_NANOS);
        }
    }

    private static String quoted(List<String> values)
    {
        final StringBuilder json = new StringBuilder();
        for (String value : values)
        {
            if (!json.isEmpty())
            {
                json.append(',');
            }
            json.append('"');
            for (int i = 0; i < value.length(); i++)
            {
                final char c = value.charAt(i);
                if (c == '"' || c == '\\')
                {
                    json.append('\\').append(c);
                }
                else if (c < 0x20)
                {
                    json.append(String.format("\\u%04x", (int) c));
                }
                else
                {
                    json.append(c);
                }
            }
            json.append('"');
        }
        return json.toString();
    }

    /**
     * Asked on the health thread, answered on the binding's worker: {@code asked} counts the checks rung, and
     * {@code answered} is the count an answer saw, so a check is out while they differ.
     */
    private final class Condition implements ReadyCondition
    {
        private final String name;
        private final Doorbell check;

        private volatile String reason = "not checked yet";
        private volatile long asked;
        private volatile long answered;
        private volatile long askedAt;

        Condition(String name, Doorbell check)
        {
            this.name = name;
            this.check = check;
        }

        @Override
        public void met()
        {
            reason = null;
            answered = asked;
        }

        @Override
        public void unmet(String reason)
        {
            this.reason = reason;
            answered = asked;
        }

        @Override
        public void close()
        {
            conditions.remove(this);
            check.close();
        }

        void ask(long now)
        {
            if (!pending())
            {
                askedAt = now;
                asked = asked + 1;
                check.ring();
            }
        }

        boolean pending()
        {
            return answered != asked;
        }

        String unmet(long now)
        {
            final long waited = now - askedAt;
            return pending() && waited >= NO_ANSWER_MILLIS
                ? "no answer to a check for " + TimeUnit.MILLISECONDS.toSeconds(waited) + " s"
                : reason;
        }
    }
}
