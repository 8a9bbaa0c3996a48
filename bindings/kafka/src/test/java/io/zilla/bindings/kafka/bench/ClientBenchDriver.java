/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.poller.PollerKey;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaIsolation;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The benchmark's application on zilla's worker: on the benchmark thread's request, it opens one produce or fetch
 * stream per partition to the kafka client binding and drives them as fast as the binding's credit allows, counting
 * what comes back in a {@link DriverRun} that the benchmark thread reads. A produce stream is a <b>plain</b> producer
 * (producer id -1, no idempotence) with acks all; each record is one Data of {@code size} value bytes, no key, no
 * headers, timestamp 0 (the binding's clock), its extension and value built once per run. A fetch stream reads from
 * earliest with a 64 KiB window, returned per half window, until it has its share of the records, then ends. Per
 * record nothing is allocated here either: frames are written with flyweights over reused buffers.
 */
final class ClientBenchDriver implements BenchBinding.Driver
{
    static final int FETCH_CREDIT = 64 * 1024;

    private static final int KAFKA_TYPE_ID = "kafka".hashCode();
    private static final int FLAG_FIN = 0x01;
    private static final int FLAG_INIT = 0x02;
    private static final long EARLIEST = -2L;

    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final WindowFW windowRO = new WindowFW();
    private final ResetFW resetRO = new ResetFW();

    private final EngineContext context;
    private final BindingConfig binding;
    private final StreamFrames frames;
    private final MutableDirectBuffer beginExBuffer = new UnsafeBuffer(new byte[1024]);
    private final MutableDirectBuffer dataExBuffer = new UnsafeBuffer(new byte[256]);
    private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Pipe pipe;
    private final PollerKey key;
    private final ByteBuffer drain = ByteBuffer.allocate(64);

    private MutableDirectBuffer value = new UnsafeBuffer(new byte[0]);
    private int dataExLength;

    ClientBenchDriver(EngineContext context, BindingConfig binding)
    {
        this.context = context;
        this.binding = binding;
        this.frames = new StreamFrames(context.writeBuffer());
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

    /** What one run has done so far: written by the worker, read by the benchmark thread. */
    static final class DriverRun
    {
        final long target;
        private volatile long records;
        private volatile long bytes;
        private volatile int streamsDone;
        private volatile String error;
        private final int streams;
        private final long[] byStream;
        private final int[] frames;

        DriverRun(int streams, long target)
        {
            this.streams = streams;
            this.target = target;
            this.byStream = new long[streams];
            this.frames = new int[streams];
        }

        /** The records of each stream so far, for a run that did not finish (read racily: a diagnostic). */
        String progress()
        {
            return Arrays.toString(byStream) + ", frames " + Arrays.toString(frames);
        }

        long records()
        {
            return records;
        }

        long bytes()
        {
            return bytes;
        }

        boolean done()
        {
            return streamsDone == streams || error != null;
        }

        String error()
        {
            return error;
        }

        private void add(int stream, long records, long bytes)
        {
            byStream[stream] += records;
            // one writer, the worker: no lost updates
            this.records = this.records + records;
            this.bytes = this.bytes + bytes;
        }

        private void streamDone()
        {
            streamsDone = streamsDone + 1;
        }

        private void fail(String why)
        {
            if (error == null)
            {
                error = why;
            }
        }
    }

    /** Produces {@code perPartition} records of {@code size} bytes to each partition; done once all are acknowledged. */
    DriverRun produce(String topic, int partitions, long perPartition, int size)
    {
        final DriverRun run = new DriverRun(partitions, perPartition * partitions);
        commands.add(() ->
        {
            if (value.capacity() != size)
            {
                final byte[] bytes = new byte[size];
                for (int i = 0; i < size; i++)
                {
                    bytes[i] = (byte) ('a' + i % 26);
                }
                value = new UnsafeBuffer(bytes);
            }
            dataExLength = new KafkaDataExFW.Builder().wrap(dataExBuffer, 0, dataExBuffer.capacity())
                .typeId(KAFKA_TYPE_ID)
                .produce(p -> p.deferred(0).timestamp(0L).sequence(-1).key(k ->
                {
                    // a null key
                }))
                .build()
                .sizeof();
            for (int p = 0; p < partitions; p++)
            {
                final int partition = p;
                final KafkaBeginExFW beginEx = new KafkaBeginExFW.Builder().wrap(beginExBuffer, 0, beginExBuffer.capacity())
                    .typeId(KAFKA_TYPE_ID)
                    .produce(b -> b
                        .transaction((String) null)
                        .producerId(-1L)
                        .producerEpoch((short) -1)
                        .topic(topic)
                        .partition(o -> o.partitionId(partition).partitionOffset(-1L))
                        .ackMode(KafkaAckMode.IN_SYNC_REPLICAS))
                    .build();
                new ProduceStream(run, partition, perPartition, size).open(beginEx);
            }
        });
        wakeup();
        return run;
    }

    /** Reads {@code perPartition} records from earliest of each partition; done once all have come. */
    DriverRun fetch(String topic, int partitions, long perPartition)
    {
        final DriverRun run = new DriverRun(partitions, perPartition * partitions);
        commands.add(() ->
        {
            for (int p = 0; p < partitions; p++)
            {
                final int partition = p;
                final KafkaBeginExFW beginEx = new KafkaBeginExFW.Builder().wrap(beginExBuffer, 0, beginExBuffer.capacity())
                    .typeId(KAFKA_TYPE_ID)
                    .fetch(f -> f
                        .topic(topic)
                        .partition(o -> o.partitionId(partition).partitionOffset(EARLIEST))
                        .isolation(KafkaIsolation.READ_UNCOMMITTED))
                    .build();
                new FetchStream(run, partition, perPartition).open(beginEx);
            }
        });
        wakeup();
        return run;
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

    private abstract class DriverStream
    {
        final DriverRun run;
        final long originId;
        final long routedId;
        final long initialId;
        final long replyId;
        MessageConsumer receiver;
        boolean done;

        final int index;

        DriverStream(DriverRun run, int index)
        {
            this.index = index;
            final RouteConfig route = binding.resolveAny();
            this.run = run;
            this.originId = binding.id();
            this.routedId = route.exitId();
            this.initialId = context.supplyInitialId(originId);
            this.replyId = initialId & ~1L;
        }

        final void open(KafkaBeginExFW beginEx)
        {
            final BeginFW begin = new BeginFW.Builder().wrap(context.writeBuffer(), 0, context.writeBuffer().capacity())
                .originId(originId).routedId(routedId).streamId(initialId).sequence(0).acknowledge(0).maximum(0)
                .traceId(context.supplyTraceId())
                .extension(beginEx.buffer(), beginEx.offset(), beginEx.sizeof())
                .build();
            receiver = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(), this::onFrame);
            if (receiver == null)
            {
                run.fail("the kafka client refused the stream");
            }
        }

        final void onFrame(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            run.frames[this.index]++;
            onMessage(msgTypeId, buffer, index, length);
        }

        abstract void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length);

        final void onFailed(String frame)
        {
            if (!done)
            {
                done = true;
                run.fail(frame + " on stream 0x" + Long.toHexString(initialId) + " (" + getClass().getSimpleName() + ")");
            }
        }

        final void finish()
        {
            if (!done)
            {
                done = true;
                run.streamDone();
            }
        }
    }

    private final class ProduceStream extends DriverStream
    {
        private final long count;
        private final int size;

        // where each record sent and not yet acknowledged ends in the sequence: the padding changes once the stream has
        // seen a record, so records reserve different amounts (a ring: no allocation per record)
        private final long[] recordEnds = new long[1 << 16];
        private int recordEndsHead;
        private int recordEndsTail;

        private long sent;
        private long initialSeq;
        private long initialAck;
        private int initialMax;
        private int initialPad;
        private boolean ended;

        ProduceStream(DriverRun run, int index, long count, int size)
        {
            super(run, index);
            this.count = count;
            this.size = size;
        }

        @Override
        void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            switch (msgTypeId)
            {
                case WindowFW.TYPE_ID -> onWindow(windowRO.wrap(buffer, index, index + length));
                case EndFW.TYPE_ID -> finish();
                case ResetFW.TYPE_ID -> onFailed("RESET " + resetRO.wrap(buffer, index, index + length).extension());
                case AbortFW.TYPE_ID -> onFailed("ABORT");
                default ->
                {
                    // the reply Begin: nothing to do
                }
            }
        }

        private void onWindow(WindowFW window)
        {
            final long acknowledge = window.acknowledge();
            initialMax = window.maximum();
            initialPad = window.padding();
            if (acknowledge > initialAck)
            {
                long records = 0;
                while (recordEndsHead != recordEndsTail && recordEnds[recordEndsHead & (recordEnds.length - 1)] <= acknowledge)
                {
                    recordEndsHead++;
                    records++;
                }
                initialAck = acknowledge;
                run.add(index, records, records * size);
            }
            final int reserved = size + initialPad;
            while (sent < count && initialSeq + reserved <= initialAck + initialMax
                && recordEndsTail - recordEndsHead < recordEnds.length)
            {
                frames.data(receiver, originId, routedId, initialId, initialSeq, initialAck, initialMax, 0L,
                    FLAG_INIT | FLAG_FIN, 0L, reserved, value, 0, size, dataExBuffer, 0, dataExLength);
                initialSeq += reserved;
                recordEnds[recordEndsTail++ & (recordEnds.length - 1)] = initialSeq;
                sent++;
            }
            if (sent == count && !ended)
            {
                ended = true;
                frames.end(receiver, originId, routedId, initialId, initialSeq, initialAck, initialMax, 0L);
            }
        }
    }

    private final class FetchStream extends DriverStream
    {
        private final long count;

        private long received;
        private long replySeq;
        private long replyAck;

        FetchStream(DriverRun run, int index, long count)
        {
            super(run, index);
            this.count = count;
        }

        @Override
        void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onBegin(beginRO.wrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onData(dataRO.wrap(buffer, index, index + length));
                case ResetFW.TYPE_ID -> onFailed("RESET " + resetRO.wrap(buffer, index, index + length).extension());
                case AbortFW.TYPE_ID -> onFailed("ABORT");
                default ->
                {
                    // the initial Window (maximum 0), a Flush, the reply's End after ours
                }
            }
        }

        private void onBegin(BeginFW begin)
        {
            doWindow(begin.traceId());
        }

        private void onData(DataFW data)
        {
            replySeq += data.reserved();
            final OctetsFW payload = data.payload();
            final int length = payload != null ? payload.sizeof() : 0;
            if ((data.flags() & FLAG_INIT) != 0)
            {
                received++;
                run.add(index, 1, length);
            }
            else
            {
                run.add(index, 0, length);
            }
            if (received == count && (data.flags() & FLAG_FIN) != 0 && !done)
            {
                frames.end(receiver, originId, routedId, initialId, 0L, 0L, 0, data.traceId());
                finish();
            }
            else if (replySeq - replyAck >= FETCH_CREDIT / 2)
            {
                doWindow(data.traceId());
            }
        }

        private void doWindow(long traceId)
        {
            replyAck = replySeq;
            frames.window(receiver, originId, routedId, replyId, replySeq, replyAck, FETCH_CREDIT, traceId, 0L, 0);
        }
    }

    private void wakeup()
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
