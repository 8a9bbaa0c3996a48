/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.ReadyCondition;
import io.zilla.engine.binding.poller.PollerKey;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A {@code test} binding of kind client: opens streams to its exit when a test asks. The test's calls are
 * handed to the worker through a queue and a pipe that wakes the worker's selector.
 */
public final class TestClient implements BindingHandler
{
    private final EngineContext context;
    private final BindingConfig binding;
    private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Pipe pipe;
    private final PollerKey key;
    private final ByteBuffer drain = ByteBuffer.allocate(64);

    TestClient(EngineContext context, BindingConfig binding)
    {
        this.context = context;
        this.binding = binding;
        try
        {
            this.pipe = Pipe.open();
            pipe.sink().configureBlocking(false);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        this.key = context.supplyPollerKey(pipe.source());
        key.handler(SelectionKey.OP_READ, this::onWakeup);
        key.register(SelectionKey.OP_READ);
    }

    EngineContext context()
    {
        return context;
    }

    /** Opens a stream to the binding's exit (its first route); returns it once the Begin is sent. */
    public TestStream open()
    {
        return open(null);
    }

    /** Opens a stream with a Begin extension. */
    public TestStream open(byte[] extension)
    {
        return open(extension, TestStream.CREDIT);
    }

    /** Opens a stream with a Begin extension, offering the peer {@code credit} bytes at a time. */
    public TestStream open(byte[] extension, int credit)
    {
        return call(() -> doOpen(extension, credit));
    }

    /**
     * Ends {@code stream}, opens another and resets {@code stream}'s reply, in one turn of the worker, so that the three
     * frames are in the ring together: the peer takes the new stream's Begin after it ended {@code stream}'s reply in
     * turn, and then the Reset, a late frame of the stream before (as a Reset crossing an End does).
     *
     * @return the new stream
     */
    public TestStream endOpenAndReset(TestStream stream)
    {
        return call(() ->
        {
            stream.queue(new byte[0], true);
            final TestStream next = doOpen(null, TestStream.CREDIT);
            stream.doReset();
            return next;
        });
    }

    private TestStream doOpen(byte[] extension, int credit)
    {
        final RouteConfig route = binding.resolveAny();
        final long initialId = context.supplyInitialId(binding.id());
        final TestStream stream = new TestStream(binding.id(), route.exitId(), initialId, initialId & ~1L);
        stream.credit(credit);
        final BeginFW.Builder builder = new BeginFW.Builder().wrap(context.writeBuffer(), 0, context.writeBuffer().capacity())
            .originId(binding.id()).routedId(route.exitId()).streamId(initialId).sequence(0).acknowledge(0).maximum(0)
            .traceId(context.supplyTraceId());
        if (extension != null)
        {
            builder.extension(new UnsafeBuffer(extension), 0, extension.length);
        }
        final BeginFW begin = builder.build();
        final MessageConsumer receiver = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(),
            stream::onMessage);
        stream.target(receiver != null ? receiver : MessageConsumer.NOOP);
        return stream;
    }

    /** Stops giving {@code stream}'s peer credit back: it reads no more, as a stalled application. */
    public void stall(TestStream stream)
    {
        run(() -> stream.stalled(true));
    }

    /** Gives {@code stream}'s peer its credit back, all that it used, and goes on doing so. */
    public void resume(TestStream stream)
    {
        run(() -> stream.stalled(false));
    }

    /** Sends bytes on the stream, as its credit allows (the rest waits for Window frames). */
    public void write(TestStream stream, byte[] bytes)
    {
        run(() -> stream.queue(bytes, false));
    }

    /**
     * Sends one message as one Data frame with {@code flags} (0x03: a whole message) and an extension (null: none),
     * once its credit allows; a null payload sends a Data without one (length -1). Messages and bytes go in order.
     */
    public void send(TestStream stream, byte[] payload, byte[] extension, int flags)
    {
        run(() -> stream.queue(payload, extension, flags));
    }

    /**
     * Sends {@code count} messages on the stream in one pass of the worker, as an application with many at hand: the
     * message i is {@code payload(i)} with {@code extension(i)}.
     */
    public void send(TestStream stream, int count, IntFunction<byte[]> payload, IntFunction<byte[]> extension, int flags)
    {
        run(() ->
        {
            for (int i = 0; i < count; i++)
            {
                stream.queue(payload.apply(i), extension.apply(i), flags);
            }
        });
    }

    /** Ends the stream's initial direction once everything written has been sent. */
    public void end(TestStream stream)
    {
        run(() -> stream.queue(new byte[0], true));
    }

    public void abort(TestStream stream)
    {
        run(stream::doAbort);
    }

    /** Resets the reply direction. */
    public void reset(TestStream stream)
    {
        run(stream::doReset);
    }

    /**
     * Blocks the worker's thread for {@code millis}, as a binding stuck in a handler would: the worker makes no pass
     * meanwhile. Returns at once; the future completes on the worker once the block is over.
     */
    public CompletableFuture<Void> block(long millis)
    {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        commands.add(() ->
        {
            try
            {
                Thread.sleep(millis);
                done.complete(null);
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                done.completeExceptionally(ex);
            }
        });
        wake();
        return done;
    }

    /**
     * Registers a readiness condition on the worker whose check answers with what {@code state} holds then: null is
     * met, anything else unmet with it as the reason.
     */
    public ReadyCondition readyCondition(String name, Supplier<String> state)
    {
        final ReadyCondition[] condition = new ReadyCondition[1];
        return call(() -> condition[0] = context.supplyReadyCondition(binding.id(), name, () ->
        {
            final String reason = state.get();
            if (reason == null)
            {
                condition[0].met();
            }
            else
            {
                condition[0].unmet(reason);
            }
        }));
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        // a client opens streams; it accepts none
        return null;
    }

    void close()
    {
        key.cancel();
        try
        {
            pipe.source().close();
            pipe.sink().close();
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Runs {@code command} on the worker and waits for it. */
    public void run(Runnable command)
    {
        call(() ->
        {
            command.run();
            return null;
        });
    }

    private <T> T call(Supplier<T> command)
    {
        final CompletableFuture<T> result = new CompletableFuture<>();
        commands.add(() ->
        {
            try
            {
                result.complete(command.get());
            }
            catch (Throwable ex)
            {
                result.completeExceptionally(ex);
            }
        });
        wake();
        try
        {
            return result.get(10, TimeUnit.SECONDS);
        }
        catch (InterruptedException | ExecutionException | TimeoutException ex)
        {
            throw new IllegalStateException("the worker did not run the test's command", ex);
        }
    }

    private void wake()
    {
        try
        {
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private int onWakeup(PollerKey key)
    {
        try
        {
            drain.clear();
            pipe.source().read(drain);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        int work = 0;
        Runnable command;
        while ((command = commands.poll()) != null)
        {
            command.run();
            work++;
        }
        return work;
    }
}
