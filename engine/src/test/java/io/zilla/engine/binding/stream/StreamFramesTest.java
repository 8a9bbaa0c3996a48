/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.internal.stream.StreamDispatcher;
import io.zilla.specs.core.types.stream.DataFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.Test;

/** Data frames built in place in a worker's real ring, and copied when the receiver is not a ring or it is full. */
class StreamFramesTest
{
    private static final DirectBuffer PAYLOAD = new UnsafeBuffer("..hello, ring..".getBytes(StandardCharsets.US_ASCII));
    private static final DirectBuffer EXTENSION = new UnsafeBuffer(new byte[] {1, 2, 3});

    private final MutableDirectBuffer scratch = new UnsafeBuffer(new byte[1024]);
    private final StreamFrames frames = new StreamFrames(scratch);
    private final DataFW dataRO = new DataFW();

    @Test
    void shouldBuildDataInPlaceInTheRing()
    {
        final ManyToOneRingBuffer ring = ring(4096);
        final MessageConsumer writer = dispatcher(ring).writer();
        assertInstanceOf(InPlaceWriter.class, writer);

        frames.data(writer, 1L, 2L, 3L, 4L, 5L, 6, 7L, 0x01, 8L, 9, PAYLOAD, 2, 11, EXTENSION, 0, 3);

        final List<String> read = readAll(ring);
        assertEquals(List.of("1 2 3 4 5 6 7 1 8 9 hello, ring 3"), read);
        assertEquals(0, scratch.getLong(0), "the scratch buffer is not used");
    }

    @Test
    void shouldBuildDataWithoutPayload()
    {
        final ManyToOneRingBuffer ring = ring(4096);

        frames.data(dispatcher(ring).writer(), 1L, 2L, 3L, 4L, 5L, 6, 7L, 0x03, 0L, 0, null, 0, 0, null, 0, 0);

        assertEquals(List.of("1 2 3 4 5 6 7 3 0 0 null 0"), readAll(ring));
    }

    @Test
    void shouldCopyDataToReceiverThatIsNotRing()
    {
        final List<String> received = new ArrayList<>();
        final MessageConsumer receiver = (msgTypeId, buffer, index, length) ->
        {
            assertEquals(DataFW.TYPE_ID, msgTypeId);
            assertSame(scratch, buffer);
            received.add(describe(dataRO.wrap(buffer, index, index + length)));
        };

        frames.data(receiver, 1L, 2L, 3L, 4L, 5L, 6, 7L, 0x03, 0L, 11, PAYLOAD, 2, 11, null, 0, 0);

        assertEquals(List.of("1 2 3 4 5 6 7 3 0 11 hello, ring 0"), received);
    }

    @Test
    void shouldTreatFullRingAsAnyWriteToIt()
    {
        final ManyToOneRingBuffer ring = ring(2048);
        final MessageConsumer writer = dispatcher(ring).writer();
        final DirectBuffer large = new UnsafeBuffer(new byte[100]);
        int written = -1;
        int size;
        do
        {
            size = ring.size();
            // once the claim fails, the copy is refused by the full ring: the frame is dropped, as any other
            frames.data(writer, 1L, 2L, 3L, 0L, 0L, 0, 0L, 0x03, 0L, 0, large, 0, large.capacity(), null, 0, 0);
            written++;
        }
        while (ring.size() > size);

        assertEquals(written, readAll(ring).size());
    }

    @Test
    void shouldGiveClaimBackWhenBuildFails()
    {
        final ManyToOneRingBuffer ring = ring(4096);
        final MessageConsumer writer = dispatcher(ring).writer();

        assertThrows(IndexOutOfBoundsException.class, () ->
            frames.data(writer, 1L, 2L, 3L, 0L, 0L, 0, 0L, 0x03, 0L, 0, PAYLOAD, 10, 100, null, 0, 0));
        frames.data(writer, 1L, 2L, 3L, 4L, 5L, 6, 7L, 0x03, 0L, 0, null, 0, 0, null, 0, 0);

        assertEquals(List.of("1 2 3 4 5 6 7 3 0 0 null 0"), readAll(ring), "the aborted claim is skipped");
    }

    @Test
    void shouldCommitDataWrittenInPlaceAndGiveRestOfClaimBack()
    {
        final ManyToOneRingBuffer ring = ring(16384);
        final InPlaceWriter writer = (InPlaceWriter) dispatcher(ring).writer();

        // as a socket read does: claim 1,000 bytes of payload, write 11 there, commit only those
        final int payloadIndex = frames.claimData(writer, 1_000);
        writer.buffer().putStringWithoutLengthAscii(payloadIndex, "hello, ring");
        frames.commitData(writer, payloadIndex, 1L, 2L, 3L, 4L, 5L, 6, 7L, 0x03, 0L, 19, 11);
        // a read that found nothing gives its claim back
        frames.commitData(writer, frames.claimData(writer, 1_000), 1L, 2L, 3L, 0L, 0L, 0, 0L, 0x03, 0L, 0, 0);
        frames.data(writer, 1L, 2L, 3L, 4L, 5L, 6, 7L, 0x03, 0L, 0, null, 0, 0, null, 0, 0);

        assertEquals(List.of("1 2 3 4 5 6 7 3 0 19 hello, ring 0", "1 2 3 4 5 6 7 3 0 0 null 0"), readAll(ring));
        assertEquals(0, ring.size(), "the unused claims are consumed with the frames");
    }

    @Test
    void shouldRefuseCommitLongerThanClaim()
    {
        final ManyToOneRingBuffer ring = ring(4096);
        final InPlaceWriter writer = (InPlaceWriter) dispatcher(ring).writer();
        final int payloadIndex = frames.claimData(writer, 100);

        assertThrows(IllegalArgumentException.class, () ->
            frames.commitData(writer, payloadIndex, 1L, 2L, 3L, 0L, 0L, 0, 0L, 0x03, 0L, 0, 200));

        assertEquals(List.of(), readAll(ring), "the claim is given back");
        assertEquals(0, ring.size());
    }

    private static ManyToOneRingBuffer ring(int capacity)
    {
        final int length = capacity + RingBufferDescriptor.TRAILER_LENGTH;
        return new ManyToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(length)));
    }

    private static StreamDispatcher dispatcher(ManyToOneRingBuffer ring)
    {
        return new StreamDispatcher(ring, id -> null, id -> null, new StreamDispatcher.FaultReporter()
        {
            @Override
            public void fault(long bindingId, long traceId, Throwable cause)
            {
                throw new AssertionError(cause);
            }

            @Override
            public void overload(long bindingId, long traceId, long streamId)
            {
            }

            @Override
            public void capped(long bindingId, long traceId, int limit)
            {
            }
        });
    }

    private List<String> readAll(ManyToOneRingBuffer ring)
    {
        final List<String> read = new ArrayList<>();
        ring.read((msgTypeId, buffer, index, length) ->
        {
            assertEquals(DataFW.TYPE_ID, msgTypeId);
            read.add(describe(dataRO.wrap(buffer, index, index + length)));
        });
        return read;
    }

    private static String describe(DataFW data)
    {
        final String payload = data.payload() == null ? "null" : data.payload().buffer()
            .getStringWithoutLengthAscii(data.payload().offset(), data.payload().sizeof());
        final int extension = data.extension() == null ? 0 : data.extension().sizeof();
        return String.join(" ", String.valueOf(data.originId()), String.valueOf(data.routedId()),
            String.valueOf(data.streamId()), String.valueOf(data.sequence()), String.valueOf(data.acknowledge()),
            String.valueOf(data.maximum()), String.valueOf(data.traceId()), String.valueOf(data.flags()),
            String.valueOf(data.budgetId()), String.valueOf(data.reserved()), payload, String.valueOf(extension));
    }
}
