/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.core.bench;

import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

import io.zilla.specs.core.types.stream.DataFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The cost of the generated Data frame flyweight on the data path: wrapping and reading every field, and
 * building a frame, each against a hand-written reference that reads and writes the same bytes directly with
 * agrona at constant offsets. Run with {@code -prof gc}: both must allocate 0 B/op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DataFrameBenchmark
{
    private static final int PAYLOAD_SIZE = 64;

    // the Data frame layout of core.idl, for the reference methods: a 69-byte Frame header, then Data's fields
    private static final int FLAGS = 68;
    private static final int BUDGET_ID = 69;
    private static final int RESERVED = 77;
    private static final int LENGTH = 81;
    private static final int PAYLOAD = 85;

    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[1024]);
    private final UnsafeBuffer payload = new UnsafeBuffer(new byte[PAYLOAD_SIZE]);
    private final DataFW dataRO = new DataFW();
    private final DataFW.Builder dataRW = new DataFW.Builder();

    private int frameLimit;
    private long streamId = 0x0000_0001_0000_0003L;

    @Setup
    public void setup()
    {
        for (int i = 0; i < PAYLOAD_SIZE; i++)
        {
            payload.putByte(i, (byte) i);
        }
        frameLimit = build();
    }

    /** Wraps a Data frame (validating it) and reads every field. */
    @Benchmark
    public long wrapAndRead()
    {
        final DataFW data = dataRO.wrap(frame, 0, frameLimit);
        return data.originId() + data.routedId() + data.streamId() + data.sequence() + data.acknowledge()
            + data.maximum() + data.timestamp() + data.traceId() + data.authorization() + data.flags()
            + data.budgetId() + data.reserved() + data.payload().sizeof() + data.extension().sizeof();
    }

    /** The reference: the same reads, and the same bounds checks, by hand at constant offsets. */
    @Benchmark
    public long referenceRead()
    {
        final UnsafeBuffer buffer = frame;
        final int limit = frameLimit;
        final int length = buffer.getInt(LENGTH);
        if (limit < PAYLOAD || length < -1 || length > limit - PAYLOAD)
        {
            throw new IllegalArgumentException();
        }
        final int extension = limit - PAYLOAD - Math.max(length, 0);
        return buffer.getLong(0) + buffer.getLong(8) + buffer.getLong(16) + buffer.getLong(24) + buffer.getLong(32)
            + buffer.getInt(40) + buffer.getLong(44) + buffer.getLong(52) + buffer.getLong(60) + (buffer.getByte(FLAGS) & 0xff)
            + buffer.getLong(BUDGET_ID) + buffer.getInt(RESERVED) + length + extension;
    }

    /** Builds a Data frame with a 64-byte payload, setting every field. */
    @Benchmark
    public int build()
    {
        return dataRW.wrap(frame, 0, frame.capacity())
            .originId(1L)
            .routedId(2L)
            .streamId(streamId)
            .sequence(1024L)
            .acknowledge(512L)
            .maximum(65536)
            .timestamp(0L)
            .traceId(7L)
            .authorization(0L)
            .flags(3)
            .budgetId(0L)
            .reserved(PAYLOAD_SIZE)
            .payload(payload, 0, PAYLOAD_SIZE)
            .build()
            .limit();
    }

    /**
     * The setters alone, without {@code build()}'s wrap (and validation) of the result: the part of {@link #build}
     * that does what {@link #referenceBuild} does.
     */
    @Benchmark
    public int setFields()
    {
        return dataRW.wrap(frame, 0, frame.capacity())
            .originId(1L)
            .routedId(2L)
            .streamId(streamId)
            .sequence(1024L)
            .acknowledge(512L)
            .maximum(65536)
            .timestamp(0L)
            .traceId(7L)
            .authorization(0L)
            .flags(3)
            .budgetId(0L)
            .reserved(PAYLOAD_SIZE)
            .payload(payload, 0, PAYLOAD_SIZE)
            .limit();
    }

    /** The reference: the same bytes written by hand at constant offsets. */
    @Benchmark
    public int referenceBuild()
    {
        final UnsafeBuffer buffer = frame;
        final ByteOrder order = ByteOrder.nativeOrder();
        buffer.putLong(0, 1L, order);
        buffer.putLong(8, 2L, order);
        buffer.putLong(16, streamId, order);
        buffer.putLong(24, 1024L, order);
        buffer.putLong(32, 512L, order);
        buffer.putInt(40, 65536, order);
        buffer.putLong(44, 0L, order);
        buffer.putLong(52, 7L, order);
        buffer.putLong(60, 0L, order);
        buffer.putByte(FLAGS, (byte) 3);
        buffer.putLong(BUDGET_ID, 0L, order);
        buffer.putInt(RESERVED, PAYLOAD_SIZE, order);
        buffer.putInt(LENGTH, PAYLOAD_SIZE, order);
        buffer.putBytes(PAYLOAD, payload, 0, PAYLOAD_SIZE);
        return PAYLOAD + PAYLOAD_SIZE;
    }
}
