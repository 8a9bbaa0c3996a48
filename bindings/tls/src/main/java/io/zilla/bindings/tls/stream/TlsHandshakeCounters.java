/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.util.Locale;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.metrics.BindingMetrics;
import io.zilla.engine.metrics.Histogram;
import io.zilla.engine.metrics.Metrics;
import org.agrona.concurrent.status.AtomicCounter;

/** One tls server or client binding's counters on one worker ({@code zilla metrics} shows them). */
final class TlsHandshakeCounters
{
    /** Handshakes completed. */
    final AtomicCounter handshakes;

    /** Handshakes that resumed an earlier session (its creation time is before this handshake began). */
    final AtomicCounter resumed;

    /** Handshakes that failed: the peer's alert or ours (bad certificate, no common cipher or version...). */
    final AtomicCounter failed;

    /** Of those: a certificate missing, refused, untrusted or for another name. */
    final AtomicCounter failedCertificate;

    /** Of those: no protocol version, cipher suite or ALPN protocol in common. */
    final AtomicCounter failedNegotiation;

    /** Of those: the peer closed or sent an alert of its own. */
    final AtomicCounter failedPeer;

    /** Of those: anything else (a malformed message...). */
    final AtomicCounter failedOther;

    /** Connections closed after the handshake because a record failed (bad_record_mac...). */
    final AtomicCounter recordFailed;

    /** Server: ClientHellos that matched no route (alert 112 or 40). */
    final AtomicCounter unrouted;

    /** Server: first flights that were not a readable ClientHello. */
    final AtomicCounter rejected;

    /** Handshakes not done in time. */
    final AtomicCounter timedOut;

    /** Server: TLS 1.2 renegotiations refused. */
    final AtomicCounter renegotiationRefused;

    // the tls.* metrics the binding's telemetry selects (null when not): the same events, for exporters
    private final AtomicCounter handshakesMetric;
    private final AtomicCounter failedCertificateMetric;
    private final AtomicCounter failedNegotiationMetric;
    private final AtomicCounter failedPeerMetric;
    private final AtomicCounter failedTimeoutMetric;
    private final AtomicCounter failedOtherMetric;
    private final Histogram durationMetric;

    /** A handshake completed, begun at {@code startNanos} ({@link #startNanos()}). */
    void onHandshake(long startNanos)
    {
        handshakes.increment();
        Metrics.increment(handshakesMetric);
        if (durationMetric != null)
        {
            durationMetric.record(System.nanoTime() - startNanos);
        }
    }

    /** When a handshake begins: read only when its duration is recorded. */
    long startNanos()
    {
        return durationMetric != null ? System.nanoTime() : 0L;
    }

    /** A handshake not done in time. */
    void onTimedOut()
    {
        timedOut.increment();
        Metrics.increment(failedTimeoutMetric);
    }

    /** Counts a failed handshake, and its reason in the counter of its kind (from the engine's message). */
    void onFailed(String reason)
    {
        failed.increment();
        final String text = reason.toLowerCase(Locale.ROOT);
        if (text.contains("received fatal alert") || text.contains("peer closed") || text.contains("closed during"))
        {
            failedPeer.increment();
            Metrics.increment(failedPeerMetric);
        }
        else if (text.contains("certif") || text.contains("pkix") || text.contains("subject alternative name"))
        {
            failedCertificate.increment();
            Metrics.increment(failedCertificateMetric);
        }
        else if (text.contains("protocol") || text.contains("cipher") || text.contains("version"))
        {
            failedNegotiation.increment();
            Metrics.increment(failedNegotiationMetric);
        }
        else
        {
            failedOther.increment();
            Metrics.increment(failedOtherMetric);
        }
    }

    TlsHandshakeCounters(EngineContext context, long bindingId)
    {
        this.handshakes = context.supplyCounter(bindingId, "handshakes");
        this.resumed = context.supplyCounter(bindingId, "handshakes.resumed");
        this.failed = context.supplyCounter(bindingId, "handshakes.failed");
        this.failedCertificate = context.supplyCounter(bindingId, "handshakes.failed.certificate");
        this.failedNegotiation = context.supplyCounter(bindingId, "handshakes.failed.negotiation");
        this.failedPeer = context.supplyCounter(bindingId, "handshakes.failed.peer");
        this.failedOther = context.supplyCounter(bindingId, "handshakes.failed.other");
        this.recordFailed = context.supplyCounter(bindingId, "records.failed");
        this.unrouted = context.supplyCounter(bindingId, "connections.unrouted");
        this.rejected = context.supplyCounter(bindingId, "connections.rejected");
        this.timedOut = context.supplyCounter(bindingId, "handshakes.timedout");
        this.renegotiationRefused = context.supplyCounter(bindingId, "renegotiations.refused");
        final BindingMetrics metrics = context.supplyMetrics(bindingId);
        this.handshakesMetric = metrics.counter(TlsMetrics.HANDSHAKES);
        this.failedCertificateMetric = metrics.counter(TlsMetrics.HANDSHAKE_FAILURES, TlsMetrics.CERTIFICATE);
        this.failedNegotiationMetric = metrics.counter(TlsMetrics.HANDSHAKE_FAILURES, TlsMetrics.NEGOTIATION);
        this.failedPeerMetric = metrics.counter(TlsMetrics.HANDSHAKE_FAILURES, TlsMetrics.PEER);
        this.failedTimeoutMetric = metrics.counter(TlsMetrics.HANDSHAKE_FAILURES, TlsMetrics.TIMEOUT);
        this.failedOtherMetric = metrics.counter(TlsMetrics.HANDSHAKE_FAILURES, TlsMetrics.OTHER);
        this.durationMetric = metrics.histogram(TlsMetrics.HANDSHAKE_DURATION);
    }
}
