/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.signal.Doorbell;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The fan-out benchmark's application on one zilla worker: on the benchmark thread's request (a command queue and a
 * doorbell), it opens subscriber streams to its exit, a cache_client, each with the same Begin extension (a MERGED
 * FETCH_ONLY stream of one topic), and counts the records they receive. Each subscriber gives a 64 KiB window on its
 * reply and returns it per half window consumed, at once; it keeps no frame and no record, only counts. Per record
 * nothing is allocated here: one counter per subscriber, one ordered write of the group's count.
 */
final class FanoutBenchDriver implements BenchBinding.Driver
{
    static final int CREDIT = 64 * 1024;

    private static final int FLAG_INIT = 0x02;

    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final ResetFW resetRO = new ResetFW();

    private final EngineContext context;
    private final BindingConfig binding;
    private final StreamFrames frames;
    private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Doorbell doorbell;

    FanoutBenchDriver(EngineContext context, BindingConfig binding)
    {
        this.context = context;
        this.binding = binding;
        this.frames = new StreamFrames(context.writeBuffer());
        this.doorbell = context.supplyDoorbell(this::onCommands);
    }

    /** What one group of subscribers on this worker has done so far: written by the worker, read by the benchmark. */
    static final class Subscribers
    {
        final int count;
        private final Subscriber[] streams;
        private final AtomicLong records = new AtomicLong();
        private volatile int opened;
        private volatile int begun;
        private volatile int failed;
        private volatile int closed;
        private volatile String error;

        Subscribers(int count)
        {
            this.count = count;
            this.streams = new Subscriber[count];
        }

        /** The records every subscriber of the group received, together. */
        long records()
        {
            return records.get();
        }

        /** Subscribers whose reply has begun: attached to the cache, reading. */
        int begun()
        {
            return begun;
        }

        int opened()
        {
            return opened;
        }

        int failed()
        {
            return failed;
        }

        int closed()
        {
            return closed;
        }

        String error()
        {
            return error;
        }

        /** The fewest records one subscriber received (read racily: call once the records stopped coming). */
        long minRecords()
        {
            long min = Long.MAX_VALUE;
            for (Subscriber stream : streams)
            {
                min = Math.min(min, stream != null ? stream.records : 0L);
            }
            return count > 0 ? min : 0L;
        }

        /** The most records one subscriber received (read racily, as {@link #minRecords()}). */
        long maxRecords()
        {
            long max = 0L;
            for (Subscriber stream : streams)
            {
                max = Math.max(max, stream != null ? stream.records : 0L);
            }
            return max;
        }

        private void fail(String why)
        {
            failed = failed + 1;
            if (error == null)
            {
                error = why;
            }
        }
    }

    /** Opens {@code count} subscribers with this Begin extension; the group counts what they receive. */
    Subscribers subscribe(byte[] beginEx, int count)
    {
        final Subscribers group = new Subscribers(count);
        final DirectBuffer extension = new UnsafeBuffer(beginEx);
        commands.add(() ->
        {
            for (int i = 0; i < count; i++)
            {
                final Subscriber stream = new Subscriber(group);
                group.streams[i] = stream;
                stream.open(extension);
                group.opened = i + 1;
            }
        });
        doorbell.ring();
        return group;
    }

    /** Ends every subscriber of the group; {@link Subscribers#closed()} counts their replies' ends. */
    void unsubscribe(Subscribers group)
    {
        commands.add(() ->
        {
            for (Subscriber stream : group.streams)
            {
                if (stream != null)
                {
                    stream.end();
                }
            }
        });
        doorbell.ring();
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        // a client opens streams; it accepts none
        return null;
    }

    @Override
    public void close()
    {
        doorbell.close();
    }

    private void onCommands()
    {
        Runnable command;
        while ((command = commands.poll()) != null)
        {
            command.run();
        }
    }

    /** One subscriber: what a client's subscription costs the worker is this object, a few fields, and its streams. */
    private final class Subscriber
    {
        private final Subscribers group;
        private final long routedId;
        private final long initialId;
        private final long replyId;
        private MessageConsumer receiver;
        private long replySeq;
        private long replyAck;
        private long records;
        private boolean ended;
        private boolean closed;

        Subscriber(Subscribers group)
        {
            final RouteConfig route = binding.resolveAny();
            this.group = group;
            this.routedId = route.exitId();
            this.initialId = context.supplyInitialId(binding.id());
            this.replyId = initialId & ~1L;
        }

        void open(DirectBuffer extension)
        {
            final BeginFW begin = new BeginFW.Builder().wrap(context.writeBuffer(), 0, context.writeBuffer().capacity())
                .originId(binding.id()).routedId(routedId).streamId(initialId).sequence(0).acknowledge(0).maximum(0)
                .traceId(context.supplyTraceId())
                .extension(extension, 0, extension.capacity())
                .build();
            receiver = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), this::onMessage);
            if (receiver == null)
            {
                closed = true;
                group.fail("the cache_client refused the stream");
            }
        }

        void end()
        {
            if (!ended && !closed)
            {
                ended = true;
                frames.end(receiver, binding.id(), routedId, initialId, 0L, 0L, 0, context.supplyTraceId());
            }
        }

        private void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            switch (msgTypeId)
            {
                case DataFW.TYPE_ID -> onData(dataRO.wrap(buffer, index, index + length));
                case BeginFW.TYPE_ID -> onBegin(beginRO.wrap(buffer, index, index + length));
                case EndFW.TYPE_ID -> onClosed(null);
                case AbortFW.TYPE_ID -> onClosed("ABORT");
                case ResetFW.TYPE_ID -> onClosed("RESET " + resetRO.wrap(buffer, index, index + length).extension());
                default ->
                {
                    // the initial Window, a Flush (progress without a record)
                }
            }
        }

        private void onBegin(BeginFW begin)
        {
            group.begun = group.begun + 1;
            doWindow(begin.traceId());
        }

        private void onData(DataFW data)
        {
            replySeq += data.reserved();
            if ((data.flags() & FLAG_INIT) != 0)
            {
                records++;
                final AtomicLong count = group.records;
                count.lazySet(count.get() + 1);
            }
            if (replySeq - replyAck >= CREDIT / 2)
            {
                doWindow(data.traceId());
            }
        }

        private void onClosed(String why)
        {
            if (!closed)
            {
                closed = true;
                if (why != null && !ended)
                {
                    group.fail(why + " on subscriber 0x" + Long.toHexString(initialId));
                }
                group.closed = group.closed + 1;
            }
        }

        private void doWindow(long traceId)
        {
            replyAck = replySeq;
            frames.window(receiver, binding.id(), routedId, replyId, replySeq, replyAck, CREDIT, traceId, 0L, 0);
        }
    }
}
