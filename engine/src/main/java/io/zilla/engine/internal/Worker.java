/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.MappedByteBuffer;
import java.nio.channels.SelectableChannel;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.ReadyCondition;
import io.zilla.engine.binding.budget.BudgetCreditor;
import io.zilla.engine.binding.budget.BudgetDebitor;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.poller.PollerKey;
import io.zilla.engine.binding.signal.Doorbell;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.internal.budget.WorkerBudgets;
import io.zilla.engine.internal.buffer.SlabBufferPool;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.internal.event.EventLog;
import io.zilla.engine.internal.health.Readiness;
import io.zilla.engine.internal.health.WorkerPulse;
import io.zilla.engine.internal.metrics.BindingCounters;
import io.zilla.engine.internal.metrics.WorkerBindingMetrics;
import io.zilla.engine.internal.metrics.WorkerCounters;
import io.zilla.engine.internal.metrics.WorkerHistograms;
import io.zilla.engine.internal.metrics.WorkerMetrics;
import io.zilla.engine.internal.poller.Poller;
import io.zilla.engine.internal.signal.Doorbells;
import io.zilla.engine.internal.signal.WorkerSignaler;
import io.zilla.engine.internal.stream.StreamDispatcher;
import io.zilla.engine.internal.stream.StreamIds;
import io.zilla.engine.metrics.BindingMetrics;
import io.zilla.engine.vault.VaultHandler;
import io.zilla.specs.core.types.stream.SignalFW;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One single-threaded worker: its selector, timers, ring, buffer slab, budgets and counters, and the binding
 * contexts that run on it. The loop polls the selector, fires timers, drains the ring and flushes budgets;
 * with nothing to do it blocks in select until a socket, the next timer or a wake-up (after spinning and yielding
 * first, if configured to: only worth it on a core of its own).
 */
public final class Worker implements EngineContext, Runnable
{
    private static final int DRAIN_LIMIT = 1024;

    private final int index;
    private final EngineConfiguration configuration;
    private final MappedByteBuffer ringFile;
    private final StreamDispatcher dispatcher;
    private final Poller poller;
    private final WorkerSignaler signaler;
    private final Doorbells doorbells;
    private final BooleanSupplier congested;
    private final BooleanSupplier backlogged;
    private final WorkerBudgets budgets;
    private final SlabBufferPool bufferPool;
    private final WorkerCounters counters;
    private final WorkerHistograms histograms;
    private final EventLog events;
    private final MutableDirectBuffer writeBuffer;
    private final MutableDirectBuffer signalBuffer = new UnsafeBuffer(new byte[256]);
    private final SignalFW.Builder signalRW = new SignalFW.Builder();
    private final Map<String, Binding> bindingsByType;
    private final Object2ObjectHashMap<String, BindingContext> contexts = new Object2ObjectHashMap<>();
    private final Long2ObjectHashMap<BindingConfig> bindings = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<BindingHandler> handlers = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<BindingCounters> bindingCounters = new Long2ObjectHashMap<>();
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final WorkerPulse pulse;
    private final WorkerMetrics metrics;
    private final Readiness readiness;

    private Map<String, VaultHandler> vaults = Map.of();

    private volatile boolean running = true;
    private long nextStream;
    private long nextTrace;
    private Thread thread;

    public Worker(int index, EngineConfiguration configuration, EngineDirectory directory, Map<String, Binding> bindingsByType,
        EventLog events, Readiness readiness)
    {
        this.index = index;
        this.readiness = readiness;
        this.configuration = configuration;
        this.bindingsByType = bindingsByType;
        this.events = events;
        this.ringFile = directory.map("data" + index, configuration.ringCapacity() + RingBufferDescriptor.TRAILER_LENGTH);
        this.counters = new WorkerCounters(directory, index, configuration.countersCapacity());
        this.histograms = new WorkerHistograms(directory, index, configuration.histogramsCapacity());
        final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(ringFile));
        final int congestion = ring.capacity() / 2;
        this.dispatcher = new StreamDispatcher(ring, handlers::get, this::counters, new Reporter(),
            configuration.streamsPerConnection());
        this.congested = () -> ring.size() > congestion;
        // doorbells (the kafka cache's readers) wait long before sockets do: what they would write waits in the cache
        // as well as in the ring, and a ring kept half full by them holds every socket's frames (a Fetch response the
        // readers wait for among them) behind megabytes of their events, and stops the sockets being read
        final int backlog = ring.capacity() / 16;
        this.backlogged = () -> ring.size() > backlog;
        this.poller = new Poller(this::onChannelFault, congested);
        this.signaler = new WorkerSignaler(System.currentTimeMillis(), this::deliverSignal);
        this.doorbells = new Doorbells(configuration.doorbells(), poller::wakeup);
        this.budgets = new WorkerBudgets(index);
        this.bufferPool = new SlabBufferPool(configuration.bufferSlotCapacity(), configuration.bufferSlots());
        this.writeBuffer = new UnsafeBuffer(new byte[configuration.bufferSlotCapacity() + 1024]);
        this.pulse = new WorkerPulse(index, System.currentTimeMillis());
        this.metrics = new WorkerMetrics(counters, ring::size, ring.capacity(), bufferPool::acquiredSlots,
            configuration.bufferSlots());
    }

    /** When the loop last passed, and whether the thread runs: what {@code /health/live} reads. */
    public WorkerPulse pulse()
    {
        return pulse;
    }

    /** Starts the worker's thread and attaches the bindings there; the future completes once they are attached. */
    public CompletableFuture<Void> start(List<BindingConfig> attach)
    {
        return start(attach, Map.of());
    }

    /**
     * Starts the worker's thread and attaches the bindings there, with the namespace's attached vaults by name;
     * the future completes once they are attached.
     */
    public CompletableFuture<Void> start(List<BindingConfig> attach, Map<String, VaultHandler> attachedVaults)
    {
        final CompletableFuture<Void> attached = new CompletableFuture<>();
        tasks.add(() ->
        {
            try
            {
                vaults = attachedVaults;
                attach.forEach(this::attach);
                attached.complete(null);
            }
            catch (Throwable ex)
            {
                attached.completeExceptionally(ex);
            }
        });
        thread = new Thread(this, "zilla-worker-" + index);
        pulse.thread(thread);
        thread.start();
        return attached;
    }

    /**
     * Moves the worker to another config: bindings that are not in it, or differ, are detached (their streams
     * aborted); bindings that are new, or differ, are attached (and see {@code nextVaults}); the rest keep running
     * untouched, with the vault handlers they took when they attached.
     *
     * @return completes once done, or with the first binding that could not attach (the others still are)
     */
    public CompletableFuture<Void> reconfigure(List<BindingConfig> next, Map<String, VaultHandler> nextVaults)
    {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        tasks.add(() ->
        {
            vaults = nextVaults;
            for (BindingConfig current : List.copyOf(bindings.values()))
            {
                if (!next.contains(current))
                {
                    detachQuietly(current);
                    bindings.remove(current.id());
                    handlers.remove(current.id());
                    bindingCounters.remove(current.id());
                }
            }
            Throwable failure = null;
            for (BindingConfig binding : next)
            {
                if (!bindings.containsKey(binding.id()))
                {
                    try
                    {
                        attach(binding);
                    }
                    catch (Throwable ex)
                    {
                        bindings.remove(binding.id());
                        failure = failure != null ? failure : ex;
                    }
                }
            }
            if (failure != null)
            {
                done.completeExceptionally(failure);
            }
            else
            {
                done.complete(null);
            }
        });
        poller.wakeup();
        return done;
    }

    /** Stops the loop: bindings are detached (their streams aborted, their sockets closed), then files unmapped. */
    public void stop() throws InterruptedException
    {
        running = false;
        poller.wakeup();
        if (thread != null)
        {
            thread.join();
        }
    }

    @Override
    public void run()
    {
        try
        {
            loop();
        }
        finally
        {
            bindings.values().forEach(this::detachQuietly);
            contexts.values().forEach(BindingContext::close);
            poller.close();
            counters.close();
            histograms.close();
            IoUtil.unmap(ringFile);
        }
    }

    private void loop()
    {
        final int spins = configuration.idleSpins();
        final int yields = configuration.idleYields();
        final long parkMax = configuration.idleParkMaxMillis();
        int idle = 0;
        long pollMillis = 0L;
        while (running)
        {
            int work = runTasks();
            // blocking here costs nothing while idle: a socket, a timer or a wake-up ends it, and what it brings is
            // drained below in the same pass, not after another look at the selector; a task that just ran may have
            // queued a frame or a timer, so then there is no waiting
            // a doorbell rung since the last look keeps the worker from blocking; one rung while it blocks wakes it.
            // Only a pass that would block says so: the flag is a volatile write, not for every busy pass
            final boolean blocking = pollMillis > 0L && work == 0;
            final boolean rung = blocking && doorbells.parking(true);
            if (blocking && !rung)
            {
                // the clock is read only around a select that waits: a busy worker pays nothing for engine.worker.idle
                final long waitFrom = System.nanoTime();
                work += poller.poll(pollMillis);
                metrics.idle(System.nanoTime() - waitFrom);
            }
            else
            {
                work += poller.poll(0L);
            }
            if (blocking)
            {
                doorbells.parking(false);
            }
            final long now = System.currentTimeMillis();
            // the time this pass read anyway, for the liveness probe: one ordered store, no fence
            pulse.pass(now);
            metrics.sample(now);
            work += signaler.poll(now);
            // a doorbell's handler writes frames for others to read (the kafka cache's readers): while the ring holds
            // a backlog it waits until the ring is drained; looked at before each doorbell, since a hundred topics'
            // doorbells rung in one cycle would each write their budget before the first was read
            work += doorbells.drain(backlogged);
            work += dispatcher.drain(DRAIN_LIMIT);
            work += budgets.flush(0L);
            pollMillis = 0L;
            if (work > 0)
            {
                idle = 0;
            }
            else if (++idle <= spins)
            {
                Thread.onSpinWait();
            }
            else if (idle <= spins + yields)
            {
                Thread.yield();
            }
            else
            {
                pollMillis = Math.max(1, Math.min(parkMax, signaler.millisToNext(System.currentTimeMillis())));
            }
        }
    }

    private int runTasks()
    {
        int work = 0;
        Runnable task;
        while ((task = tasks.poll()) != null)
        {
            task.run();
            work++;
        }
        return work;
    }

    private void attach(BindingConfig binding)
    {
        final BindingContext context = contexts.computeIfAbsent(binding.type(), type -> bindingsByType.get(type).supply(this));
        bindings.put(binding.id(), binding);
        handlers.put(binding.id(), context.attach(binding));
    }

    private void detachQuietly(BindingConfig binding)
    {
        try
        {
            contexts.get(binding.type()).detach(binding);
        }
        catch (Throwable ex)
        {
            event(binding.id(), 0L, EngineEvent.DETACH_FAILED, describe(ex));
        }
    }

    @Override
    public int index()
    {
        return index;
    }

    @Override
    public MutableDirectBuffer writeBuffer()
    {
        return writeBuffer;
    }

    @Override
    public long supplyInitialId(long bindingId)
    {
        // the count in an id wraps after 2^31 ids (StreamIds): a stream open that long, filed beside the table, keeps
        // its id, and a new one must not take it
        long initialId;
        do
        {
            initialId = StreamIds.initialId(index, ++nextStream, dispatcher.nextSlot());
        }
        while (dispatcher.isOpen(initialId));
        return initialId;
    }

    @Override
    public long supplyReplyId(long initialId)
    {
        return StreamIds.replyId(initialId);
    }

    @Override
    public long supplyTraceId()
    {
        return (long) index << 56 | ++nextTrace;
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        return dispatcher.newStream(msgTypeId, buffer, index, length, sender);
    }

    @Override
    public BindingConfig binding(long bindingId)
    {
        return bindings.get(bindingId);
    }

    @Override
    public VaultHandler supplyVault(long bindingId)
    {
        final BindingConfig binding = bindings.get(bindingId);
        return binding != null && binding.vault() != null ? vaults.get(binding.vault()) : null;
    }

    @Override
    public PollerKey supplyPollerKey(SelectableChannel channel)
    {
        return poller.register(channel);
    }

    @Override
    public BufferPool bufferPool()
    {
        return bufferPool;
    }

    @Override
    public Signaler signaler()
    {
        return signaler;
    }

    @Override
    public void signalNowFromAnyThread(long originId, long routedId, long streamId, long traceId, int signalId,
        int contextId)
    {
        // the signal buffer and the ring's claim belong to the worker: queue the signal for its next duty cycle
        tasks.add(() -> deliverSignal(originId, routedId, streamId, traceId, Signaler.NO_CANCEL_ID, signalId, contextId));
        poller.wakeup();
    }

    @Override
    public Doorbell supplyDoorbell(Runnable onRing)
    {
        return doorbells.supply(onRing);
    }

    @Override
    public BudgetCreditor creditor()
    {
        return budgets;
    }

    @Override
    public BudgetDebitor supplyDebitor(long budgetId)
    {
        return budgets;
    }

    @Override
    public BindingMetrics supplyMetrics(long bindingId)
    {
        final BindingConfig binding = bindings.get(bindingId);
        return new WorkerBindingMetrics(counters, histograms, bindingName(bindingId),
            binding != null ? binding.metrics() : Set.of());
    }

    @Override
    public ReadyCondition supplyReadyCondition(long bindingId, String name, Runnable check)
    {
        return readiness.register(name, doorbells.supply(check));
    }

    @Override
    public AtomicCounter supplyCounter(long bindingId, String name)
    {
        return counters.supply(bindingName(bindingId), name);
    }

    @Override
    public void event(long bindingId, long traceId, String event, String detail)
    {
        events.write(System.currentTimeMillis(), traceId, bindingName(bindingId), event, detail);
    }

    private BindingCounters counters(long bindingId)
    {
        BindingCounters result = bindingCounters.get(bindingId);
        if (result == null)
        {
            final BindingConfig binding = bindings.get(bindingId);
            result = new BindingCounters(counters, bindingName(bindingId), binding != null ? binding.metrics() : Set.of());
            bindingCounters.put(bindingId, result);
        }
        return result;
    }

    private String bindingName(long bindingId)
    {
        final BindingConfig binding = bindings.get(bindingId);
        return binding != null ? binding.name() : "engine";
    }

    private void deliverSignal(long originId, long routedId, long streamId, long traceId, long cancelId, int signalId,
        int contextId)
    {
        final SignalFW signal = signalRW.wrap(signalBuffer, 0, signalBuffer.capacity())
            .originId(originId).routedId(routedId).streamId(streamId).sequence(0).acknowledge(0).maximum(0)
            .traceId(traceId)
            .cancelId(cancelId).signalId(signalId).contextId(contextId)
            .build();
        dispatcher.writer().accept(SignalFW.TYPE_ID, signal.buffer(), signal.offset(), signal.sizeof());
    }

    private void onChannelFault(SelectableChannel channel, Throwable cause)
    {
        try
        {
            channel.close();
        }
        catch (IOException ex)
        {
            cause.addSuppressed(ex);
        }
        event(0L, 0L, EngineEvent.CHANNEL_FAILED, describe(cause));
    }

    /** The exception and where it was thrown, or with {@code zilla.engine.exception.traces} its whole stack trace. */
    private String describe(Throwable cause)
    {
        final StringWriter trace = new StringWriter();
        cause.printStackTrace(new PrintWriter(trace));
        if (configuration.exceptionTraces())
        {
            return trace.toString().stripTrailing();
        }
        final String[] lines = trace.toString().split("\\R", 3);
        return lines.length > 1 ? lines[0] + " " + lines[1].trim() : lines[0];
    }

    private final class Reporter implements StreamDispatcher.FaultReporter
    {
        @Override
        public void fault(long bindingId, long traceId, Throwable cause)
        {
            event(bindingId, traceId, EngineEvent.STREAM_FAILED, describe(cause));
        }

        @Override
        public void overload(long bindingId, long traceId, long streamId)
        {
            metrics.ringFull();
            event(bindingId, traceId, "engine.ring.full", "stream 0x" + Long.toHexString(streamId) + " aborted: worker "
                + index + "'s ring is full");
        }

        @Override
        public void capped(long bindingId, long traceId, int limit)
        {
            event(bindingId, traceId, "engine.streams.capped", "a new stream refused: the connection that caused it has "
                + limit + " streams open (" + EngineConfiguration.STREAMS_PER_CONNECTION + "); do the bindings loop?");
        }
    }
}
