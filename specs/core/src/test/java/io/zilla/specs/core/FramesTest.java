/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.core;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.ChallengeFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ExtensionFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.FrameFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class FramesTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
    private final UnsafeBuffer payload = new UnsafeBuffer("hello, zilla".getBytes(UTF_8));

    @Test
    void shouldRoundTripDataWithPayloadAndExtension()
    {
        final UnsafeBuffer extension = new UnsafeBuffer(new byte[ExtensionFW.SIZEOF]);
        new ExtensionFW.Builder().wrap(extension, 0, extension.capacity()).typeId(42).build();
        final int limit = new DataFW.Builder().wrap(buffer, 16, buffer.capacity())
            .originId(1L)
            .routedId(2L)
            .streamId(0x0100_0000_0000_0003L)
            .sequence(Long.MAX_VALUE)
            .acknowledge(Long.MIN_VALUE)
            .maximum(65536)
            .timestamp(123456789L)
            .traceId(-7L)
            .authorization(0x0001_0000_0000_0000L)
            .flags(0x02)
            .budgetId(9L)
            .reserved(payload.capacity() + 5)
            .payload(payload, 0, payload.capacity())
            .extension(extension, 0, extension.capacity())
            .build()
            .limit();

        final DataFW data = new DataFW().wrap(buffer, 16, limit);
        assertEquals(1L, data.originId());
        assertEquals(2L, data.routedId());
        assertEquals(0x0100_0000_0000_0003L, data.streamId());
        assertEquals(Long.MAX_VALUE, data.sequence());
        assertEquals(Long.MIN_VALUE, data.acknowledge());
        assertEquals(65536, data.maximum());
        assertEquals(123456789L, data.timestamp());
        assertEquals(-7L, data.traceId());
        assertEquals(0x0001_0000_0000_0000L, data.authorization());
        assertEquals(0x02, data.flags());
        assertEquals(9L, data.budgetId());
        assertEquals(payload.capacity() + 5, data.reserved());
        assertEquals(payload.capacity(), data.length());
        assertTrue(data.payload().contentEquals(payload, 0, payload.capacity()));
        assertEquals(ExtensionFW.SIZEOF, data.extension().sizeof());
        assertEquals(42, new ExtensionFW().wrap(buffer, data.extension().offset(), data.extension().limit()).typeId());
        assertEquals(16 + 85 + payload.capacity() + ExtensionFW.SIZEOF, limit);
    }

    @Test
    void shouldDefaultDataToCompleteMessageWithNullPayload()
    {
        final DataFW data = new DataFW.Builder().wrap(buffer, 0, buffer.capacity())
            .originId(1L)
            .routedId(2L)
            .streamId(3L)
            .sequence(0L)
            .acknowledge(0L)
            .maximum(0)
            .reserved(0)
            .build();

        assertEquals(0L, data.timestamp());
        assertEquals(0L, data.traceId());
        assertEquals(0L, data.authorization());
        assertEquals(0x03, data.flags());
        assertEquals(0L, data.budgetId());
        assertEquals(-1, data.length());
        assertNull(data.payload());
        assertEquals(0, data.extension().sizeof());
        assertEquals(85, data.sizeof());
    }

    @Test
    void shouldTellEmptyPayloadFromNullPayload()
    {
        final DataFW data = dataHeader(new DataFW.Builder().wrap(buffer, 0, buffer.capacity()))
            .reserved(0)
            .payload(new byte[0])
            .build();

        assertEquals(0, data.length());
        assertNotNull(data.payload());
        assertEquals(0, data.payload().sizeof());
    }

    @Test
    void shouldReadTheHeaderOfAnyFrameAsFrame()
    {
        final int limit = new WindowFW.Builder().wrap(buffer, 0, buffer.capacity())
            .originId(11L)
            .routedId(12L)
            .streamId(13L)
            .sequence(14L)
            .acknowledge(15L)
            .maximum(16)
            .padding(5)
            .build()
            .limit();

        final FrameFW frame = new FrameFW().wrap(buffer, 0, limit);
        assertEquals(13L, frame.streamId());
        assertEquals(16, frame.maximum());
        assertEquals(FrameFW.SIZEOF, frame.sizeof());
        assertEquals(WindowFW.SIZEOF, limit);
        assertEquals(5, new WindowFW().wrap(buffer, 0, limit).padding());
    }

    @Test
    void shouldStoreFramesInNativeByteOrder()
    {
        new FrameFW.Builder().wrap(buffer, 0, buffer.capacity())
            .originId(0x0102030405060708L)
            .routedId(0L)
            .streamId(0L)
            .sequence(0L)
            .acknowledge(0L)
            .maximum(0)
            .build();

        assertEquals(0x0102030405060708L, buffer.getLong(0, ByteOrder.nativeOrder()));
    }

    @Test
    void shouldRoundTripEveryOtherFrame()
    {
        final int capacity = buffer.capacity();
        final BeginFW begin = new BeginFW.Builder().wrap(buffer, 0, capacity)
            .originId(1L).routedId(2L).streamId(3L).sequence(0L).acknowledge(0L).maximum(0)
            .affinity(77L).extension(payload, 0, 4).build();
        assertEquals(77L, begin.affinity());
        assertEquals(4, begin.extension().sizeof());

        final EndFW end = new EndFW.Builder().wrap(buffer, 0, capacity)
            .originId(1L).routedId(2L).streamId(3L).sequence(0L).acknowledge(0L).maximum(0).build();
        assertEquals(0, end.extension().sizeof());

        final AbortFW abort = new AbortFW.Builder().wrap(buffer, 0, capacity)
            .originId(1L).routedId(2L).streamId(3L).sequence(0L).acknowledge(0L).maximum(0)
            .extension(payload, 0, 2).build();
        assertEquals(2, abort.extension().sizeof());

        final FlushFW flush = new FlushFW.Builder().wrap(buffer, 0, capacity)
            .originId(1L).routedId(2L).streamId(3L).sequence(0L).acknowledge(0L).maximum(0)
            .budgetId(3L).reserved(10).build();
        assertEquals(3L, flush.budgetId());
        assertEquals(10, flush.reserved());

        final ResetFW reset = new ResetFW.Builder().wrap(buffer, 0, capacity)
            .originId(1L).routedId(2L).streamId(4L).sequence(0L).acknowledge(0L).maximum(0).build();
        assertEquals(4L, reset.streamId());

        final WindowFW window = new WindowFW.Builder().wrap(buffer, 0, capacity)
            .originId(1L).routedId(2L).streamId(4L).sequence(0L).acknowledge(0L).maximum(0)
            .budgetId(5L).padding(4).minimum(1).capabilities(1).build();
        assertEquals(5L, window.budgetId());
        assertEquals(4, window.padding());
        assertEquals(1, window.minimum());
        assertEquals(1, window.capabilities());

        final SignalFW signal = new SignalFW.Builder().wrap(buffer, 0, capacity)
            .originId(1L).routedId(2L).streamId(3L).sequence(0L).acknowledge(0L).maximum(0)
            .cancelId(8L).signalId(1).contextId(2).build();
        assertEquals(8L, signal.cancelId());
        assertEquals(1, signal.signalId());
        assertEquals(2, signal.contextId());
        assertEquals(0, signal.payload().sizeof());

        final ChallengeFW challenge = new ChallengeFW.Builder().wrap(buffer, 0, capacity)
            .originId(1L).routedId(2L).streamId(4L).sequence(0L).acknowledge(0L).maximum(0)
            .extension(payload, 0, 1).build();
        assertEquals(1, challenge.extension().sizeof());
    }

    @Test
    void shouldGiveEachFrameItsOwnTypeId()
    {
        final Set<Integer> typeIds = Stream.of(BeginFW.TYPE_ID, DataFW.TYPE_ID, EndFW.TYPE_ID, AbortFW.TYPE_ID,
            FlushFW.TYPE_ID, ResetFW.TYPE_ID, WindowFW.TYPE_ID, SignalFW.TYPE_ID, ChallengeFW.TYPE_ID)
            .collect(Collectors.toSet());

        assertEquals(9, typeIds.size());
        assertEquals(0x40000001, ResetFW.TYPE_ID);
        assertEquals(0x00000002, DataFW.TYPE_ID);
    }

    @Test
    void shouldRejectTruncatedData()
    {
        final int limit = dataHeader(new DataFW.Builder().wrap(buffer, 0, buffer.capacity()))
            .reserved(payload.capacity())
            .payload(payload, 0, payload.capacity())
            .build()
            .limit();

        final DataFW data = new DataFW();
        for (int cut = 0; cut < 85 + payload.capacity(); cut++)
        {
            assertNull(data.tryWrap(buffer, 0, cut), "cut at " + cut);
        }
        assertNotNull(data.tryWrap(buffer, 0, limit));
        assertThrows(IndexOutOfBoundsException.class, () -> data.wrap(buffer, 0, 84));
    }

    @Test
    void shouldRejectNegativePayloadLength()
    {
        dataHeader(new DataFW.Builder().wrap(buffer, 0, buffer.capacity())).reserved(0).build();
        buffer.putInt(81, -2, ByteOrder.nativeOrder());

        assertNull(new DataFW().tryWrap(buffer, 0, 85));
        assertThrows(IllegalArgumentException.class, () -> new DataFW().wrap(buffer, 0, 85));
    }

    @Test
    void shouldRequireTheFlowControlFields()
    {
        final DataFW.Builder builder = new DataFW.Builder().wrap(buffer, 0, buffer.capacity()).originId(1L).routedId(2L);

        final IllegalStateException missing = assertThrows(IllegalStateException.class, builder::build);
        assertTrue(missing.getMessage().contains("streamId is required"), missing.getMessage());
    }

    private static DataFW.Builder dataHeader(DataFW.Builder builder)
    {
        return builder.originId(1L).routedId(2L).streamId(3L).sequence(0L).acknowledge(0L).maximum(8192);
    }
}
