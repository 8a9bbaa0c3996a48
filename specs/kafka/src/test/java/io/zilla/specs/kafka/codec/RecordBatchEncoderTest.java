/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static io.zilla.specs.kafka.codec.RecordSamples.BASE_TIMESTAMP;
import static io.zilla.specs.kafka.codec.RecordSamples.append;
import static io.zilla.specs.kafka.codec.RecordSamples.assertRecords;
import static io.zilla.specs.kafka.codec.RecordSamples.kafkaBatch;
import static io.zilla.specs.kafka.codec.RecordSamples.records;
import static io.zilla.specs.kafka.codec.RecordSamples.slice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Iterator;
import java.util.List;
import java.util.Random;

import io.zilla.specs.flyweight.Array32FW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.stream.KafkaBytesFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Batches built by our encoder, read back by kafka-clients (CRC included) and compared with kafka-clients' own. */
class RecordBatchEncoderTest
{
    private final RecordBatchEncoder encoder = new RecordBatchEncoder();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4 * 1024 * 1024]);

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldEncodeWhatKafkaReads(
        RecordCompression compression)
    {
        final List<SimpleRecord> records = records(60);
        final int length = encode(7, compression, -1L, (short) -1, -1, false, records);
        final MutableRecordBatch batch = onlyBatch(slice(buffer, 7, length));
        assertEquals(compression.id(), batch.compressionType().id);
        assertEquals(TimestampType.CREATE_TIME, batch.timestampType());
        assertEquals(0L, batch.baseOffset());
        assertEquals(59L, batch.lastOffset());
        assertEquals(-1L, batch.producerId());
        assertEquals(-1, batch.producerEpoch());
        assertEquals(-1, batch.baseSequence());
        assertEquals(-1, batch.partitionLeaderEpoch());
        assertFalse(batch.isTransactional());
        assertFalse(batch.isControlBatch());
        assertEquals(records.stream().mapToLong(SimpleRecord::timestamp).max().getAsLong(), batch.maxTimestamp());
        assertRecords(records, 0L, batch);
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldEncodeTheBytesKafkaEncodes(
        RecordCompression compression)
    {
        // same codecs, same levels, same record layout: a producer's batch, byte for byte
        final List<SimpleRecord> records = records(30);
        final int length = encode(0, compression, 4242L, (short) 3, 17, true, records);
        final ByteBuffer kafka = kafkaBatch(compression, TimestampType.CREATE_TIME, 0L, 4242L, (short) 3, 17, true, records);
        assertEquals(kafka, slice(buffer, 0, length));
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldEncodeTheBytesKafkaEncodesInManyBlocks(
        RecordCompression compression)
    {
        final List<SimpleRecord> records = RecordSamples.manyBlockRecords();
        final int length = encode(0, compression, -1L, (short) -1, -1, false, records);
        final ByteBuffer kafka = kafkaBatch(compression, TimestampType.CREATE_TIME, 0L, -1L, (short) -1, -1, false, records);
        assertEquals(kafka, slice(buffer, 0, length));
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldEncodeIdempotentAndTransactionalFields(
        RecordCompression compression)
    {
        final List<SimpleRecord> records = records(6);
        final int idempotent = encode(0, compression, 4242L, (short) 3, 17, false, records);
        final int transactional = encode(idempotent, compression, 4343L, (short) 5, 1000, true, records);

        final Iterator<MutableRecordBatch> batches = MemoryRecords.readableRecords(slice(buffer, 0, idempotent + transactional))
            .batches().iterator();
        final MutableRecordBatch first = batches.next();
        assertEquals(4242L, first.producerId());
        assertEquals(3, first.producerEpoch());
        assertEquals(17, first.baseSequence());
        assertEquals(22, first.lastSequence());
        assertFalse(first.isTransactional());
        assertRecords(records, 0L, first);
        final MutableRecordBatch second = batches.next();
        assertEquals(4343L, second.producerId());
        assertEquals(5, second.producerEpoch());
        assertEquals(1000, second.baseSequence());
        assertTrue(second.isTransactional());
        assertRecords(records, 0L, second);
        assertFalse(batches.hasNext());
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldRoundTripThroughOurDecoder(
        RecordCompression compression)
    {
        final List<SimpleRecord> records = records(25);
        final int length = encode(0, compression, 9L, (short) 1, 0, true, records);
        final RecordBatchDecoder decoder = new RecordBatchDecoder();
        decoder.wrap(buffer, 0, length);
        assertTrue(decoder.nextBatch());
        RecordSamples.assertSameRecords(onlyBatch(slice(buffer, 0, length)), decoder);
        assertFalse(decoder.nextBatch());
        assertEquals(RecordBatchDecoder.NO_ERROR, decoder.error());
    }

    @Test
    void shouldRefuseARecordThatDoesNotFitAndKeepTheBatch()
    {
        final List<SimpleRecord> records = records(12);
        assertFalse(encoder.begin(buffer, 0, RecordBatches.RECORDS_OFFSET - 1, RecordCompression.NONE));
        assertEquals(RecordBatchEncoder.NO_SPACE, encoder.finish());

        final int fitting = RecordBatches.RECORDS_OFFSET + 200;
        assertTrue(encoder.begin(buffer, 100, 100 + fitting, RecordCompression.NONE));
        int appended = 0;
        for (SimpleRecord record : records)
        {
            final UnsafeBuffer value = new UnsafeBuffer(record.value() == null ? ByteBuffer.allocate(0) : record.value());
            if (!encoder.append(record.timestamp(), null, 0, 0, value, 0, value.capacity()))
            {
                break;
            }
            appended++;
        }
        assertTrue(appended > 0 && appended < records.size());
        assertEquals(appended, encoder.recordCount());
        final int length = encoder.finish();
        assertTrue(length <= fitting);
        assertEquals(appended, onlyBatch(slice(buffer, 100, length)).countOrNull());
    }

    @ParameterizedTest
    @EnumSource(value = RecordCompression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void shouldReportACompressedBatchThatDoesNotFit(
        RecordCompression compression)
    {
        final byte[] random = new byte[10_000];
        new Random(3).nextBytes(random);
        assertTrue(encoder.begin(buffer, 0, RecordBatches.RECORDS_OFFSET + 5_000, compression));
        // random bytes do not compress: they fit uncompressed in the encoder's bound, not in the caller's buffer
        assertTrue(encoder.append(BASE_TIMESTAMP, null, 0, 0, new UnsafeBuffer(random), 0, random.length));
        assertEquals(RecordBatchEncoder.NO_SPACE, encoder.finish());

        final RecordBatchEncoder bounded = new RecordBatchEncoder(5_000);
        assertTrue(bounded.begin(buffer, 0, buffer.capacity(), compression));
        assertFalse(bounded.append(BASE_TIMESTAMP, null, 0, 0, new UnsafeBuffer(random), 0, random.length));
        assertEquals(0, bounded.finish());
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldEncodeLargeValuesAndManyRecords(
        RecordCompression compression)
    {
        final byte[] large = new byte[1024 * 1024];
        new Random(11).nextBytes(large);
        final List<SimpleRecord> largeRecords = List.of(new SimpleRecord(BASE_TIMESTAMP, RecordSamples.bytes("large"), large),
            new SimpleRecord(BASE_TIMESTAMP + 1, null, large));
        final int largeLength = encode(0, compression, -1L, (short) -1, -1, false, largeRecords);
        assertRecords(largeRecords, 0L, onlyBatch(slice(buffer, 0, largeLength)));

        final List<SimpleRecord> many = records(10_000);
        final int manyLength = encode(0, compression, -1L, (short) -1, -1, false, many);
        assertRecords(many, 0L, onlyBatch(slice(buffer, 0, manyLength)));
    }

    @Test
    void shouldEncodeARecordAsAKafkaStreamCarriesIt()
    {
        final UnsafeBuffer extension = new UnsafeBuffer(new byte[1024]);
        final KafkaBytesFW key = new KafkaBytesFW.Builder().wrap(extension, 0, 64).value(RecordSamples.bytes("key")).build();
        final KafkaBytesFW nullKey = new KafkaBytesFW.Builder().wrap(extension, 64, 128).build();
        final Array32FW<KafkaHeaderFW> headers = new Array32FW.Builder<>(new KafkaHeaderFW.Builder(), new KafkaHeaderFW(),
            ByteOrder.nativeOrder())
            .wrap(extension, 128, extension.capacity())
            .item(h -> h.name(n -> n.value(RecordSamples.bytes("trace-id"))).value(v -> v.value(RecordSamples.bytes("42"))))
            .item(h -> h.name(n -> n.value(RecordSamples.bytes("empty"))).value(v -> { }))
            .build();
        final Array32FW<KafkaHeaderFW> noHeaders = new Array32FW.Builder<>(new KafkaHeaderFW.Builder(), new KafkaHeaderFW(),
            ByteOrder.nativeOrder())
            .wrap(extension, 512, extension.capacity())
            .build();
        final OctetsFW value = new OctetsFW().wrap(new UnsafeBuffer(RecordSamples.bytes("payload")), 0, 7);

        assertTrue(encoder.begin(buffer, 0, buffer.capacity(), RecordCompression.ZSTD));
        assertTrue(encoder.append(BASE_TIMESTAMP, key, value, headers));
        assertTrue(encoder.append(BASE_TIMESTAMP + 1, nullKey, null, noHeaders));
        final int length = encoder.finish();

        assertRecords(List.of(
            new SimpleRecord(BASE_TIMESTAMP, RecordSamples.bytes("key"), RecordSamples.bytes("payload"),
                new Header[] {new RecordHeader("trace-id", RecordSamples.bytes("42")), new RecordHeader("empty", null)}),
            new SimpleRecord(BASE_TIMESTAMP + 1, (byte[]) null, (byte[]) null)), 0L, onlyBatch(slice(buffer, 0, length)));
    }

    @Test
    void shouldWriteNothingForAnEmptyBatch()
    {
        assertTrue(encoder.begin(buffer, 0, buffer.capacity(), RecordCompression.GZIP));
        assertEquals(0, encoder.finish());
        assertEquals(RecordBatchEncoder.NO_SPACE, encoder.finish());
    }

    private int encode(
        int offset,
        RecordCompression compression,
        long producerId,
        short producerEpoch,
        int baseSequence,
        boolean transactional,
        List<SimpleRecord> records)
    {
        assertTrue(encoder.begin(buffer, offset, buffer.capacity(), compression, producerId, producerEpoch, baseSequence,
            transactional));
        append(encoder, records, true);
        assertEquals(records.size(), encoder.recordCount());
        final int length = encoder.finish();
        assertTrue(length > RecordBatches.RECORDS_OFFSET, "length " + length);
        return length;
    }

    private static MutableRecordBatch onlyBatch(
        ByteBuffer bytes)
    {
        final Iterator<MutableRecordBatch> batches = MemoryRecords.readableRecords(bytes).batches().iterator();
        final MutableRecordBatch batch = batches.next();
        batch.ensureValid();
        assertFalse(batches.hasNext());
        return batch;
    }
}
