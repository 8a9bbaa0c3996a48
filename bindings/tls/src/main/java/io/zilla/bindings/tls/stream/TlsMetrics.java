/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.util.List;

import io.zilla.engine.metrics.Buckets;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricUnit;

/**
 * The {@code tls.*} metrics of a server or client binding (Zilla has none): the handshakes done, those that failed by
 * reason, and how long a handshake took. Kept with the binding's handshake counters ({@link TlsHandshakeCounters}).
 */
public final class TlsMetrics
{
    public static final String CERTIFICATE = "certificate";
    public static final String NEGOTIATION = "negotiation";
    public static final String PEER = "peer";
    public static final String TIMEOUT = "timeout";
    public static final String OTHER = "other";

    public static final Metric HANDSHAKES = Metric.counter("tls.handshakes", MetricUnit.COUNT, "TLS handshakes completed");
    public static final Metric HANDSHAKE_FAILURES = Metric.counter("tls.handshake.failures", MetricUnit.COUNT,
        "TLS handshakes that failed, by reason", "reason", CERTIFICATE, NEGOTIATION, PEER, TIMEOUT, OTHER);
    public static final Metric HANDSHAKE_DURATION = Metric.histogram("tls.handshake.duration", MetricUnit.NANOSECONDS,
        "Time from a connection's first handshake message to its handshake's end", Buckets.DURATIONS);

    public static final List<Metric> DECLARED = List.of(HANDSHAKES, HANDSHAKE_FAILURES, HANDSHAKE_DURATION);

    private TlsMetrics()
    {
    }
}
