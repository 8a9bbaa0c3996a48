/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static io.zilla.specs.kafka.codec.RecordSamples.BASE_TIMESTAMP;
import static io.zilla.specs.kafka.codec.RecordSamples.assertSameRecords;
import static io.zilla.specs.kafka.codec.RecordSamples.copy;
import static io.zilla.specs.kafka.codec.RecordSamples.kafkaBatch;
import static io.zilla.specs.kafka.codec.RecordSamples.records;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Batches built by kafka-clients, read by our decoder and checked against kafka-clients' own reading. */
class RecordBatchDecoderTest
{
    private final RecordBatchDecoder decoder = new RecordBatchDecoder();

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldDecodeCreateTimeBatch(
        RecordCompression compression)
    {
        assertDecodesLikeKafka(kafkaBatch(compression, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1, false,
            records(60)));
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldDecodeLogAppendTimeBatch(
        RecordCompression compression)
    {
        final ByteBuffer batch = kafkaBatch(compression, TimestampType.LOG_APPEND_TIME, 1000L, -1L, (short) -1, -1, false,
            records(12));
        assertDecodesLikeKafka(batch);
        decoder.wrap(copy(batch), 0, batch.remaining());
        assertTrue(decoder.nextBatch());
        assertTrue(decoder.isLogAppendTime());
        while (decoder.nextRecord())
        {
            assertEquals(BASE_TIMESTAMP + 12345, decoder.record().timestamp());
        }
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldDecodeIdempotentAndTransactionalBatches(
        RecordCompression compression)
    {
        assertDecodesLikeKafka(kafkaBatch(compression, TimestampType.CREATE_TIME, 77L, 4242L, (short) 3, 17, false,
            records(6)));
        final ByteBuffer transactional = kafkaBatch(compression, TimestampType.CREATE_TIME, 88L, 4343L, (short) 5, 1000,
            true, records(6));
        assertDecodesLikeKafka(transactional);
        decoder.wrap(copy(transactional), 0, transactional.remaining());
        assertTrue(decoder.nextBatch());
        assertTrue(decoder.isTransactional());
        assertEquals(4343L, decoder.producerId());
        assertEquals(5, decoder.producerEpoch());
        assertEquals(1000, decoder.baseSequence());
        assertFalse(decoder.isControl());
    }

    @Test
    void shouldDecodeEndTransactionMarkers()
    {
        final ByteBuffer commit = MemoryRecords.withEndTransactionMarker(90L, BASE_TIMESTAMP, 7, 4343L, (short) 5,
            new EndTransactionMarker(ControlRecordType.COMMIT, 11)).buffer();
        final ByteBuffer abort = MemoryRecords.withEndTransactionMarker(91L, BASE_TIMESTAMP, 7, 4444L, (short) 6,
            new EndTransactionMarker(ControlRecordType.ABORT, 11)).buffer();
        final UnsafeBuffer buffer = concat(commit, abort);
        decoder.wrap(buffer, 0, buffer.capacity());

        assertTrue(decoder.nextBatch());
        assertTrue(decoder.isControl());
        assertTrue(decoder.isTransactional());
        assertEquals(4343L, decoder.producerId());
        assertEquals(RecordBatches.CONTROL_COMMIT, decoder.controlType());
        assertEquals(90L, decoder.baseOffset());
        assertEquals(90L, decoder.lastOffset());

        assertTrue(decoder.nextBatch());
        assertTrue(decoder.isControl());
        assertEquals(4444L, decoder.producerId());
        assertEquals(RecordBatches.CONTROL_ABORT, decoder.controlType());
        assertEquals(91L, decoder.lastOffset());

        assertFalse(decoder.nextBatch());
        assertEquals(RecordBatchDecoder.NO_ERROR, decoder.error());
        assertFalse(decoder.truncated());
    }

    @Test
    void shouldNotTakeADataBatchForAControlOne()
    {
        final ByteBuffer batch = kafkaBatch(RecordCompression.NONE, TimestampType.CREATE_TIME, 0L, 1L, (short) 0, 0, true,
            records(1));
        decoder.wrap(copy(batch), 0, batch.remaining());
        assertTrue(decoder.nextBatch());
        assertFalse(decoder.isControl());
        assertEquals(RecordBatches.CONTROL_UNKNOWN, decoder.controlType());
    }

    @Test
    void shouldDecodeSeveralBatchesOfEveryCompression()
    {
        final ByteBuffer[] batches = new ByteBuffer[RecordCompression.values().length];
        long offset = 0;
        for (RecordCompression compression : RecordCompression.values())
        {
            batches[compression.id()] = kafkaBatch(compression, TimestampType.CREATE_TIME, offset, -1L, (short) -1, -1,
                false, records(9));
            offset += 9;
        }
        final UnsafeBuffer buffer = concat(batches);
        assertDecodesLikeKafka(ByteBuffer.wrap(buffer.byteArray()));
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldSkipATruncatedLastBatchQuietly(
        RecordCompression compression)
    {
        final ByteBuffer first = kafkaBatch(compression, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1, false,
            records(5));
        final ByteBuffer second = kafkaBatch(compression, TimestampType.CREATE_TIME, 5L, -1L, (short) -1, -1, false,
            records(5));
        final UnsafeBuffer buffer = concat(first, second);
        for (int cut = 0; cut < second.remaining(); cut++)
        {
            decoder.wrap(buffer, 0, first.remaining() + cut);
            assertTrue(decoder.nextBatch());
            int count = 0;
            while (decoder.nextRecord())
            {
                count++;
            }
            assertEquals(5, count);
            assertFalse(decoder.nextBatch());
            assertEquals(RecordBatchDecoder.NO_ERROR, decoder.error(), "cut at " + cut);
            assertEquals(cut > 0, decoder.truncated(), "cut at " + cut);
        }
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldDetectACorruptedByte(
        RecordCompression compression)
    {
        final ByteBuffer batch = kafkaBatch(compression, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1, false,
            records(8));
        final Random random = new Random(42);
        for (int i = 0; i < 50; i++)
        {
            final UnsafeBuffer buffer = copy(batch);
            // anywhere from the attributes to the end: what the CRC covers
            final int covered = buffer.capacity() - RecordBatches.ATTRIBUTES_OFFSET;
            final int index = RecordBatches.ATTRIBUTES_OFFSET + random.nextInt(covered);
            buffer.putByte(index, (byte) (buffer.getByte(index) ^ (1 << random.nextInt(8))));
            decoder.wrap(buffer, 0, buffer.capacity());
            assertFalse(decoder.nextBatch());
            assertEquals(RecordBatchDecoder.CORRUPT, decoder.error(), "flipped a bit at " + index);
        }
    }

    @Test
    void shouldReportMalformedRecordsWithoutCrcCheck()
    {
        final RecordBatchDecoder trusting = new RecordBatchDecoder(false, RecordBatchDecoder.DEFAULT_MAX_RECORDS_LENGTH);
        final ByteBuffer batch = kafkaBatch(RecordCompression.NONE, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1,
            false, List.of(new SimpleRecord(BASE_TIMESTAMP, RecordSamples.bytes("k"), RecordSamples.bytes("v"))));
        final UnsafeBuffer buffer = copy(batch);
        // the record's length, one byte too long: it no longer adds up
        buffer.putByte(RecordBatches.RECORDS_OFFSET, (byte) (buffer.getByte(RecordBatches.RECORDS_OFFSET) + 2));
        trusting.wrap(buffer, 0, buffer.capacity());
        assertTrue(trusting.nextBatch());
        assertFalse(trusting.nextRecord());
        assertEquals(RecordBatchDecoder.MALFORMED, trusting.error());
        assertFalse(trusting.nextBatch());
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldNeverThrowOnGarbledRecords(
        RecordCompression compression)
    {
        // without the CRC check, whatever the codecs and the record reader make of garbled bytes must not escape
        final RecordBatchDecoder trusting = new RecordBatchDecoder(false, 1024 * 1024);
        final ByteBuffer batch = kafkaBatch(compression, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1, false,
            records(20));
        final Random random = new Random(5);
        int failed = 0;
        for (int i = 0; i < 500; i++)
        {
            final UnsafeBuffer buffer = copy(batch);
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--)
            {
                final int index = RecordBatches.RECORDS_OFFSET
                    + random.nextInt(buffer.capacity() - RecordBatches.RECORDS_OFFSET);
                buffer.putByte(index, (byte) random.nextInt(256));
            }
            trusting.wrap(buffer, 0, buffer.capacity());
            while (trusting.nextBatch())
            {
                while (trusting.nextRecord())
                {
                    final DecodedRecord record = trusting.record();
                    while (record.nextHeader())
                    {
                        assertTrue(record.header().name().sizeof() >= 0);
                    }
                }
            }
            failed += trusting.error() != RecordBatchDecoder.NO_ERROR ? 1 : 0;
        }
        assertTrue(failed > 0);
    }

    @Test
    void shouldRefuseANullHeaderName()
    {
        // varint -1 (zig-zag 1) for the name, then for the value: the IDL reads a null name, Kafka refuses it
        final UnsafeBuffer headers = new UnsafeBuffer(new byte[] {1, 1});
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final RecordBatchEncoder encoder = new RecordBatchEncoder();
        encoder.begin(buffer, 0, buffer.capacity(), RecordCompression.NONE);
        encoder.append(BASE_TIMESTAMP, null, 0, 0, null, 0, 0, headers, 0, 2, 1);
        final int length = encoder.finish();
        decoder.wrap(buffer, 0, length);
        assertTrue(decoder.nextBatch());
        assertFalse(decoder.nextRecord());
        assertEquals(RecordBatchDecoder.MALFORMED, decoder.error());
    }

    @Test
    void shouldRefuseAnotherMagicOrCompression()
    {
        final ByteBuffer batch = kafkaBatch(RecordCompression.NONE, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1,
            false, records(2));
        final UnsafeBuffer legacy = copy(batch);
        legacy.putByte(RecordBatches.MAGIC_OFFSET, (byte) 1);
        decoder.wrap(legacy, 0, legacy.capacity());
        assertFalse(decoder.nextBatch());
        assertEquals(RecordBatchDecoder.UNSUPPORTED_MAGIC, decoder.error());

        final RecordBatchDecoder trusting = new RecordBatchDecoder(false, RecordBatchDecoder.DEFAULT_MAX_RECORDS_LENGTH);
        final UnsafeBuffer unknown = copy(batch);
        unknown.putByte(RecordBatches.ATTRIBUTES_OFFSET + 1, (byte) 7);
        trusting.wrap(unknown, 0, unknown.capacity());
        assertFalse(trusting.nextBatch());
        assertEquals(RecordBatchDecoder.UNSUPPORTED_COMPRESSION, trusting.error());
    }

    @ParameterizedTest
    @EnumSource(value = RecordCompression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void shouldBoundInflatedRecords(
        RecordCompression compression)
    {
        final ByteBuffer batch = kafkaBatch(compression, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1, false,
            List.of(new SimpleRecord(BASE_TIMESTAMP, null, new byte[200_000])));
        final RecordBatchDecoder bounded = new RecordBatchDecoder(true, 100_000);
        bounded.wrap(copy(batch), 0, batch.remaining());
        assertFalse(bounded.nextBatch());
        assertEquals(RecordBatchDecoder.TOO_LARGE, bounded.error());
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldDecodeLargeValuesAndManyRecords(
        RecordCompression compression)
    {
        final byte[] large = new byte[1024 * 1024];
        new Random(7).nextBytes(large);
        assertDecodesLikeKafka(kafkaBatch(compression, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1, false,
            List.of(new SimpleRecord(BASE_TIMESTAMP, RecordSamples.bytes("large"), large),
                new SimpleRecord(BASE_TIMESTAMP + 1, null, large))));
        assertDecodesLikeKafka(kafkaBatch(compression, TimestampType.CREATE_TIME, 3L, -1L, (short) -1, -1, false,
            records(10_000)));
    }

    @Test
    void shouldReadFromADirectBuffer()
    {
        final ByteBuffer batch = kafkaBatch(RecordCompression.LZ4, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1,
            false, records(30));
        final ByteBuffer direct = ByteBuffer.allocateDirect(batch.remaining() + 10);
        direct.position(10);
        direct.put(batch.duplicate());
        final UnsafeBuffer buffer = new UnsafeBuffer(direct, 10, batch.remaining());
        decoder.wrap(buffer, 0, buffer.capacity());
        for (MutableRecordBatch expected : MemoryRecords.readableRecords(batch.duplicate()).batches())
        {
            assertTrue(decoder.nextBatch());
            assertSameRecords(expected, decoder);
        }
        // and one over a raw address, which has no ByteBuffer to view
        final UnsafeBuffer raw = new UnsafeBuffer(buffer.addressOffset(), buffer.capacity());
        decoder.wrap(raw, 0, raw.capacity());
        for (MutableRecordBatch expected : MemoryRecords.readableRecords(batch.duplicate()).batches())
        {
            assertTrue(decoder.nextBatch());
            assertSameRecords(expected, decoder);
        }
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldDecodeManyBlocksOnAndOffHeap(
        RecordCompression compression)
    {
        final ByteBuffer batch = kafkaBatch(compression, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1, false,
            RecordSamples.manyBlockRecords());
        assertDecodesLikeKafka(batch);

        // off heap: the inflater copies the batch to its own array first
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(batch.remaining()));
        direct.putBytes(0, batch.duplicate(), batch.position(), batch.remaining());
        decoder.wrap(direct, 0, direct.capacity());
        assertTrue(decoder.nextBatch(), "error " + decoder.error());
        assertSameRecords(MemoryRecords.readableRecords(batch.duplicate()).batches().iterator().next(), decoder);
        assertFalse(decoder.nextBatch());
        assertEquals(RecordBatchDecoder.NO_ERROR, decoder.error());
    }

    private void assertDecodesLikeKafka(
        ByteBuffer batches)
    {
        final UnsafeBuffer buffer = copy(batches);
        decoder.wrap(buffer, 0, buffer.capacity());
        for (RecordBatch expected : MemoryRecords.readableRecords(batches.duplicate()).batches())
        {
            assertTrue(decoder.nextBatch(), "error " + decoder.error());
            assertSameRecords(expected, decoder);
        }
        assertFalse(decoder.nextBatch());
        assertEquals(RecordBatchDecoder.NO_ERROR, decoder.error());
        assertFalse(decoder.truncated());
    }

    private static UnsafeBuffer concat(
        ByteBuffer... buffers)
    {
        int length = 0;
        for (ByteBuffer buffer : buffers)
        {
            length += buffer.remaining();
        }
        final UnsafeBuffer result = new UnsafeBuffer(new byte[length]);
        int offset = 0;
        for (ByteBuffer buffer : buffers)
        {
            result.putBytes(offset, buffer.duplicate(), buffer.remaining());
            offset += buffer.remaining();
        }
        return result;
    }
}
