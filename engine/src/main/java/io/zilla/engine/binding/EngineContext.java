/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding;

import java.nio.channels.SelectableChannel;

import io.zilla.engine.binding.budget.BudgetCreditor;
import io.zilla.engine.binding.budget.BudgetDebitor;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.poller.PollerKey;
import io.zilla.engine.binding.signal.Doorbell;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.metrics.BindingMetrics;
import io.zilla.engine.vault.VaultHandler;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * What a binding may use on its worker. Everything here is single-threaded: call it only from the worker's
 * thread, that is from a handler, a poller callback or a signal; {@link #signalNowFromAnyThread} is the exception.
 */
public interface EngineContext
{
    /** The worker's index, from 0. */
    int index();

    /** A scratch buffer for building frames, reused by every binding on the worker. */
    MutableDirectBuffer writeBuffer();

    /** A new initial stream id (odd) owned by this worker. */
    long supplyInitialId(long bindingId);

    /** The reply id of a stream: its initial id with the low bit cleared. */
    long supplyReplyId(long initialId);

    /** A new trace id, to follow one cause through frames and events. */
    long supplyTraceId();

    /**
     * Opens a stream: writes the Begin (whose routedId names the target binding) to the target's ring and
     * registers {@code sender} to receive what the target sends back (the Window and Reset of the initial
     * direction, and the reply direction).
     *
     * @return where to write the rest of the initial direction, or null when the routedId names no binding
     *         (nothing is written)
     */
    MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender);

    /** A binding by id, for routing and for names in events. */
    BindingConfig binding(long bindingId);

    /**
     * The keys and certificates of the vault that a binding names ({@code vault: server} in zilla.yaml), or null
     * when it names none. Call it when the binding attaches, and build its {@code SSLContext} there, not per stream.
     */
    VaultHandler supplyVault(long bindingId);

    /** Registers a channel with the worker's selector. */
    PollerKey supplyPollerKey(SelectableChannel channel);

    /** The worker's slab of fixed-size buffers, for bytes that must wait (a partial frame, an unwritten tail). */
    BufferPool bufferPool();

    /** Timers and wake-ups, delivered as Signal frames. */
    Signaler signaler();

    /**
     * The one method here that any thread may call: signals the stream as {@code signaler().signalNow} does, from
     * a thread that is not the worker's (a task a binding ran off the worker, such as a TLS handshake's delegated
     * task, telling its stream that it is done). The signal is queued, the worker woken if it is parked, and the
     * Signal frame written by the worker itself.
     */
    void signalNowFromAnyThread(long originId, long routedId, long streamId, long traceId, int signalId, int contextId);

    /**
     * A doorbell of this worker: any thread may ring it, and {@code onRing} then runs here, on the worker, once per
     * duty cycle at most (rings meanwhile are one). Unlike {@link #signalNowFromAnyThread}, ringing allocates nothing;
     * a worker has room for {@link io.zilla.engine.EngineConfiguration#DOORBELLS} doorbells.
     *
     * @throws IllegalStateException when the worker has no room for another
     */
    Doorbell supplyDoorbell(Runnable onRing);

    /** Shared budgets that many streams draw on, owned by the stream that gives the credit. */
    BudgetCreditor creditor();

    /** Draws from shared budgets. */
    BudgetDebitor supplyDebitor(long budgetId);

    /**
     * A counter of a binding in the worker's counters file ({@code zilla metrics} shows it), created on first use.
     * Names are dotted, such as {@code connections.active}.
     */
    AtomicCounter supplyCounter(long bindingId, String name);

    /**
     * The metrics of a binding its zilla.yaml {@code telemetry} selects, read when asked: a binding asks when it attaches,
     * so that a reload that changes what it selects applies to the handler the reload attaches.
     */
    BindingMetrics supplyMetrics(long bindingId);

    /**
     * A condition of the engine's readiness ({@code /health/ready}) that the binding checks: {@code check} runs on this
     * worker whenever the health endpoint asks, and answers through the condition it got here (at once or later). The
     * condition is named in a 503 while it is unmet ({@code "kafka north_kafka_client: localhost:9092: connection
     * failed"}). Ask for it when the binding attaches, on one worker only, and close it when the binding detaches.
     */
    ReadyCondition supplyReadyCondition(long bindingId, String name, Runnable check);

    /** Reports an event (a refused connection, a reset with its reason) to the engine's event log. */
    void event(long bindingId, long traceId, String event, String detail);
}
