/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.SignalFW;
import org.agrona.DirectBuffer;

/**
 * A {@code test} binding of kind server: accepts every stream, begins its reply (unless told not to, with
 * {@link #beginOnOpen}), grants credit, and records what arrives. Streams are listed in the order they were accepted.
 * A test may also answer on a stream's reply as the binding behind would ({@link #send}, {@link #end}, {@link #reset},
 * {@link #challenge}...): the command runs on the worker, woken by a Signal on the stream, and the call waits for it.
 */
public final class TestServer implements BindingHandler
{
    /** The signal id of the wake-ups that run a test's commands on the worker. */
    private static final int COMMAND_SIGNAL = 0x7e57;

    private final EngineContext context;
    private final BindingConfig binding;
    private final BeginFW beginRO = new BeginFW();
    private final SignalFW signalRO = new SignalFW();
    private final List<TestStream> streams = new CopyOnWriteArrayList<>();
    private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private volatile boolean beginOnOpen = true;

    TestServer(EngineContext context, BindingConfig binding)
    {
        this.context = context;
        this.binding = binding;
    }

    EngineContext context()
    {
        return context;
    }

    public List<TestStream> streams()
    {
        return streams;
    }

    /** Whether streams accepted from now on get their reply's Begin at once (the default), or only by {@link #begin}. */
    public TestServer beginOnOpen(boolean beginOnOpen)
    {
        this.beginOnOpen = beginOnOpen;
        return this;
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final long initialId = begin.streamId();
        final TestStream stream = new TestStream(begin.originId(), begin.routedId(), initialId & ~1L, initialId);
        final long traceId = begin.traceId();
        final boolean beginNow = beginOnOpen;
        stream.target(sender);
        streams.add(stream);
        return (type, frames, offset, size) ->
        {
            if (type == SignalFW.TYPE_ID && signalRO.wrap(frames, offset, offset + size).signalId() == COMMAND_SIGNAL)
            {
                Runnable command;
                while ((command = commands.poll()) != null)
                {
                    command.run();
                }
                return;
            }
            stream.onMessage(type, frames, offset, size);
            if (type == BeginFW.TYPE_ID && beginNow)
            {
                stream.doBegin(traceId);
            }
        };
    }

    /** Begins the reply of a stream accepted while {@link #beginOnOpen} was false. */
    public void begin(TestStream stream)
    {
        run(stream, () -> stream.doBegin(0L));
    }

    /**
     * Sends one message on the reply as one Data frame with {@code flags} (0x03: a whole message) and an extension
     * (null: none), once its credit allows.
     */
    public void send(TestStream stream, byte[] payload, byte[] extension, int flags)
    {
        run(stream, () -> stream.queue(payload, extension, flags));
    }

    /** Ends the reply, with an End extension (null: none), once everything sent before has gone. */
    public void end(TestStream stream, byte[] extension)
    {
        run(stream, () -> stream.queueEnd(extension));
    }

    public void abort(TestStream stream)
    {
        run(stream, stream::doAbort);
    }

    /** Resets the stream's initial direction, with a Reset extension (null: none). */
    public void reset(TestStream stream, byte[] extension)
    {
        run(stream, () -> stream.doReset(extension));
    }

    /** Sends a Challenge on the stream's initial direction, with an extension (null: none). */
    public void challenge(TestStream stream, byte[] extension)
    {
        run(stream, () -> stream.doChallenge(extension));
    }

    /** Stops giving the stream's peer credit back, as an application that stops reading. */
    public void stall(TestStream stream)
    {
        run(stream, () -> stream.stalled(true));
    }

    private void run(TestStream stream, Runnable command)
    {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        commands.add(() ->
        {
            try
            {
                command.run();
                done.complete(null);
            }
            catch (Throwable ex)
            {
                done.completeExceptionally(ex);
            }
        });
        context.signalNowFromAnyThread(binding.id(), binding.id(), stream.id(), 0L, COMMAND_SIGNAL, 0);
        try
        {
            done.get(10, TimeUnit.SECONDS);
        }
        catch (InterruptedException | ExecutionException | TimeoutException ex)
        {
            throw new IllegalStateException("the worker did not run the test's command", ex);
        }
    }

    /** The binding this server is. */
    public BindingConfig binding()
    {
        return binding;
    }
}
