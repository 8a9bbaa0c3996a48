/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.health;

/**
 * Whether the engine takes traffic: from the moment every binding is attached on every worker (every listener bound,
 * the engine directory's {@code ready} file written) until a stop begins. A stopping engine is never ready again.
 */
public final class Readiness
{
    private volatile boolean started;
    private volatile boolean stopping;

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

    /** {@code {"ready":true}}, or {@code {"ready":false,"unmet":["starting"]}} (or {@code "stopping"}). */
    public Verdict check()
    {
        final String unmet = stopping ? "stopping" : !started ? "starting" : null;
        return unmet == null
            ? new Verdict(true, "{\"ready\":true}")
            : new Verdict(false, "{\"ready\":false,\"unmet\":[\"" + unmet + "\"]}");
    }
}
