/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;

import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.codec.RecordHeaderFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;

/** Records with every shape a batch can carry, and the kafka-clients side of the cross-checks. */
final class RecordSamples
{
    static final long BASE_TIMESTAMP = 1_790_000_000_000L;

    private RecordSamples()
    {
    }

    /**
     * {@code count} records cycling through: key and value with headers (one with a null value), a null key, an empty
     * key and value, a tombstone (null value), an empty header, many headers; timestamps going back and forth.
     */
    static List<SimpleRecord> records(
        int count)
    {
        final List<SimpleRecord> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final long timestamp = BASE_TIMESTAMP + (i % 3 == 2 ? -i : 7L * i);
            final SimpleRecord record = switch (i % 6)
            {
                case 0 -> new SimpleRecord(timestamp, bytes("key-" + i), bytes("value-" + i),
                    new Header[] {new RecordHeader("h1", bytes("v1")), new RecordHeader("h2", null)});
                case 1 -> new SimpleRecord(timestamp, null, bytes("no key " + i));
                case 2 -> new SimpleRecord(timestamp, new byte[0], new byte[0]);
                case 3 -> new SimpleRecord(timestamp, bytes("tombstone-" + i), null);
                case 4 -> new SimpleRecord(timestamp, bytes("k"), bytes("x".repeat(300 + i % 1000)),
                    new Header[] {new RecordHeader("", new byte[0])});
                default -> new SimpleRecord(timestamp, bytes("many"), bytes("headers"), manyHeaders(i));
            };
            records.add(record);
        }
        return records;
    }

    /**
     * Records beyond every codec's buffers and blocks (gzip's and zstd's 16 KiB stream buffers, snappy's 32 KiB and
     * LZ4's 64 KiB blocks, zstd's 128 KiB blocks), with a random value in the middle that LZ4 stores as it is.
     */
    static List<SimpleRecord> manyBlockRecords()
    {
        final byte[] noise = new byte[70 * 1024];
        new Random(7).nextBytes(noise);
        final List<SimpleRecord> records = new ArrayList<>(records(900));
        records.add(450, new SimpleRecord(BASE_TIMESTAMP, bytes("noise"), noise));
        return records;
    }

    static byte[] bytes(
        String text)
    {
        return text.getBytes(UTF_8);
    }

    static Compression kafka(
        RecordCompression compression)
    {
        return Compression.of(CompressionType.forId(compression.id())).build();
    }

    /** A batch built by kafka-clients, as a producer does (or a broker, with log append time). */
    static ByteBuffer kafkaBatch(
        RecordCompression compression,
        TimestampType timestampType,
        long baseOffset,
        long producerId,
        short producerEpoch,
        int baseSequence,
        boolean transactional,
        List<SimpleRecord> records)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(1024 + records.stream().mapToInt(RecordSamples::sizeOf).sum());
        final long logAppendTime = timestampType == TimestampType.LOG_APPEND_TIME
            ? BASE_TIMESTAMP + 12345
            : RecordBatch.NO_TIMESTAMP;
        try (MemoryRecordsBuilder builder = MemoryRecords.builder(buffer, RecordBatch.MAGIC_VALUE_V2, kafka(compression),
            timestampType, baseOffset, logAppendTime, producerId, producerEpoch, baseSequence, transactional, false,
            RecordBatch.NO_PARTITION_LEADER_EPOCH))
        {
            records.forEach(builder::append);
            return builder.build().buffer();
        }
    }

    /** Appends {@code records} to our encoder, their headers written with RecordHeaderFW. */
    static void append(
        RecordBatchEncoder encoder,
        List<SimpleRecord> records,
        boolean expectFit)
    {
        final UnsafeBuffer headers = new UnsafeBuffer(new byte[64 * 1024]);
        final RecordHeaderFW.Builder headerRW = new RecordHeaderFW.Builder();
        for (SimpleRecord record : records)
        {
            int headersLimit = 0;
            for (Header header : record.headers())
            {
                headerRW.wrap(headers, headersLimit, headers.capacity()).name(bytes(header.key()));
                if (header.value() != null)
                {
                    headerRW.value(header.value());
                }
                headersLimit = headerRW.build().limit();
            }
            final UnsafeBuffer key = record.key() == null ? null : new UnsafeBuffer(record.key());
            final UnsafeBuffer value = record.value() == null ? null : new UnsafeBuffer(record.value());
            final boolean fits = encoder.append(record.timestamp(), key, 0, key == null ? 0 : key.capacity(),
                value, 0, value == null ? 0 : value.capacity(), headers, 0, headersLimit, record.headers().length);
            assertEquals(expectFit, fits);
        }
    }

    /** Checks our decoder's current batch against what kafka-clients reads from the same bytes. */
    static void assertSameRecords(
        RecordBatch expected,
        RecordBatchDecoder decoder)
    {
        assertEquals(expected.baseOffset(), decoder.baseOffset());
        assertEquals(expected.lastOffset(), decoder.lastOffset());
        assertEquals(expected.producerId(), decoder.producerId());
        assertEquals(expected.producerEpoch(), decoder.producerEpoch());
        assertEquals(expected.baseSequence(), decoder.baseSequence());
        assertEquals(expected.isTransactional(), decoder.isTransactional());
        assertEquals(expected.isControlBatch(), decoder.isControl());
        assertEquals(expected.timestampType() == TimestampType.LOG_APPEND_TIME, decoder.isLogAppendTime());
        assertEquals(expected.compressionType().id, decoder.compression().id());
        final Iterator<Record> records = expected.iterator();
        while (records.hasNext())
        {
            final Record record = records.next();
            assertEquals(true, decoder.nextRecord(), "error " + decoder.error());
            final DecodedRecord actual = decoder.record();
            assertEquals(record.offset(), actual.offset());
            assertEquals(record.timestamp(), actual.timestamp());
            assertOctets(record.key(), actual.key());
            assertOctets(record.value(), actual.value());
            final Header[] headers = record.headers();
            assertEquals(headers.length, actual.headerCount());
            for (Header header : headers)
            {
                assertEquals(true, actual.nextHeader());
                assertArrayEquals(bytes(header.key()), bytes(actual.header().name()));
                assertOctets(header.value() == null ? null : ByteBuffer.wrap(header.value()), actual.header().value());
            }
            assertEquals(false, actual.nextHeader());
        }
        assertEquals(false, decoder.nextRecord());
        assertEquals(RecordBatchDecoder.NO_ERROR, decoder.error());
    }

    /** Checks a batch read by kafka-clients against the records appended. */
    static void assertRecords(
        List<SimpleRecord> expected,
        long baseOffset,
        RecordBatch batch)
    {
        batch.ensureValid();
        long offset = baseOffset;
        final Iterator<SimpleRecord> records = expected.iterator();
        for (Record record : batch)
        {
            final SimpleRecord want = records.next();
            assertEquals(offset++, record.offset());
            assertEquals(want.timestamp(), record.timestamp());
            assertEquals(want.key(), record.key());
            assertEquals(want.value(), record.value());
            assertArrayEquals(want.headers(), record.headers());
        }
        assertEquals(false, records.hasNext());
    }

    static void assertOctets(
        ByteBuffer expected,
        OctetsFW actual)
    {
        if (expected == null)
        {
            assertNull(actual);
        }
        else
        {
            final byte[] want = new byte[expected.remaining()];
            expected.duplicate().get(want);
            assertArrayEquals(want, bytes(actual));
        }
    }

    static byte[] bytes(
        OctetsFW octets)
    {
        final byte[] bytes = new byte[octets.sizeof()];
        octets.buffer().getBytes(octets.offset(), bytes);
        return bytes;
    }

    static UnsafeBuffer copy(
        ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return new UnsafeBuffer(bytes);
    }

    static ByteBuffer slice(
        MutableDirectBuffer buffer,
        int offset,
        int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return ByteBuffer.wrap(bytes);
    }

    private static Header[] manyHeaders(
        int i)
    {
        final Header[] headers = new Header[20];
        for (int h = 0; h < headers.length; h++)
        {
            headers[h] = new RecordHeader("header-" + h, h % 4 == 3 ? null : bytes("value-" + i + "-" + h));
        }
        return headers;
    }

    private static int sizeOf(
        SimpleRecord record)
    {
        int size = 64 + (record.key() == null ? 0 : record.key().remaining())
            + (record.value() == null ? 0 : record.value().remaining());
        for (Header header : record.headers())
        {
            size += 16 + header.key().length() + (header.value() == null ? 0 : header.value().length);
        }
        return size;
    }
}
