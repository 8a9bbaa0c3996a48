/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceBeginEx;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceDataEx;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import io.zilla.bindings.kafka.test.KafkaProduceStreams.Header;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.codec.RecordBatchDecoder;
import io.zilla.specs.kafka.codec.RecordBatchEncoder;
import io.zilla.specs.kafka.codec.RecordBatches;
import io.zilla.specs.kafka.codec.RecordCompression;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The kafka client's {@code compression} option: records produced through zilla with each codec are read back
 * exactly by a KafkaConsumer, and the batches in the broker's log segment (read with {@link RecordBatchDecoder},
 * without any client) carry that codec in their attributes and are smaller than their records.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientProduceCompressionTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int WHOLE = 0x03;
    private static final int COMPRESSIBLE = 400;
    private static final int INCOMPRESSIBLE = 200;
    /** What a produce stream's batch holds with the engine's default 64 KiB slot: half a slot. */
    private static final int BATCH_CAPACITY = 32 * 1024;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientProduceCompressionTest.class);

    @ParameterizedTest
    @EnumSource(value = RecordCompression.class, names = {"GZIP", "SNAPPY", "LZ4", "ZSTD"})
    void shouldProduceCompressedBatchesThatAKafkaConsumerReadsBack(RecordCompression compression, EmbeddedKafka kafka,
        KafkaTopics topics) throws IOException
    {
        final String topic = topics.name() + "-" + compression;
        kafka.createTopic(topic, 2);
        final TestClient app = start(kafka, compression);
        // partition 0: text that compresses well; partition 1: random bytes at full credit, which no codec shrinks
        final TestStream text = app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));
        final TestStream random = app.open(produceBeginEx(topic, 1, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));
        final long base = System.currentTimeMillis() - 60_000L;
        final List<byte[]> textValues = new ArrayList<>();
        for (int i = 0; i < COMPRESSIBLE; i++)
        {
            final byte[] value = textValue(i);
            textValues.add(value);
            final List<Header> headers = i % 2 == 0 ? List.of() : List.of(new Header("h", ("v" + i).getBytes()));
            app.send(text, value, produceDataEx(0, base + i, ("key-" + i).getBytes(), headers), WHOLE);
        }
        final Random bytes = new Random(42);
        final List<byte[]> randomValues = new ArrayList<>();
        for (int i = 0; i < INCOMPRESSIBLE; i++)
        {
            final byte[] value = new byte[1024];
            bytes.nextBytes(value);
            randomValues.add(value);
            app.send(random, value, produceDataEx(0, base + i, null, List.of()), WHOLE);
        }
        app.end(text);
        app.end(random);
        for (TestStream stream : List.of(text, random))
        {
            stream.await(WAIT, () -> stream.ended() || stream.reset());
            assertFalse(stream.reset(), () -> "reset with " + resetError(stream) + ", events " + engine.events());
        }

        final List<ConsumerRecord<byte[], byte[]>> consumed = KafkaClientProduceTest.consume(kafka, topic, 2,
            COMPRESSIBLE + INCOMPRESSIBLE);
        assertEquals(COMPRESSIBLE + INCOMPRESSIBLE, consumed.size());
        int t = 0;
        int r = 0;
        for (ConsumerRecord<byte[], byte[]> record : consumed)
        {
            if (record.partition() == 0)
            {
                assertArrayEquals(("key-" + t).getBytes(), record.key());
                assertArrayEquals(textValues.get(t), record.value());
                assertEquals(base + t, record.timestamp());
                assertEquals(t % 2 == 0 ? 0 : 1, record.headers().toArray().length);
                t++;
            }
            else
            {
                assertArrayEquals(null, record.key());
                assertArrayEquals(randomValues.get(r), record.value());
                r++;
            }
        }

        final Batches textBatches = batchesOnDisk(kafka, topic, 0);
        assertEquals(COMPRESSIBLE, textBatches.records, "every record in the log once");
        assertEquals(List.of(compression), textBatches.codecs, "every batch compressed with " + compression);
        assertTrue(textBatches.batches > 1, "records were batched, more than one batch: " + textBatches.batches);
        final long textBytes = textValues.stream().mapToLong(v -> v.length).sum();
        assertTrue(textBatches.bytes < textBytes / 4, () -> compression + " batches of " + textBatches.bytes
            + " B for " + textBytes + " B of values");

        final Batches randomBatches = batchesOnDisk(kafka, topic, 1);
        assertEquals(INCOMPRESSIBLE, randomBatches.records);
        assertEquals(List.of(compression), randomBatches.codecs);
    }

    @ParameterizedTest
    @EnumSource(value = RecordCompression.class, names = {"GZIP", "SNAPPY", "LZ4", "ZSTD"})
    void shouldFitAWindowOfIncompressibleRecordsWithinTheMargin(RecordCompression compression)
    {
        // the records a stream's credit lets in: a window less the margin, filled to the last byte with random values
        final int records = BATCH_CAPACITY - RecordBatches.RECORDS_OFFSET - KafkaClientProduceFactory.COMPRESSION_MARGIN;
        final RecordBatchEncoder encoder = new RecordBatchEncoder(records);
        final UnsafeBuffer batch = new UnsafeBuffer(new byte[BATCH_CAPACITY]);
        final byte[] value = new byte[1024];
        final Random random = new Random(7);
        random.nextBytes(value);
        final UnsafeBuffer values = new UnsafeBuffer(value);
        encoder.begin(batch, 0, BATCH_CAPACITY, compression);
        while (encoder.append(0L, null, 0, 0, values, 0, value.length))
        {
            random.nextBytes(value);
        }
        for (int length = value.length - 1; length >= 0 && !encoder.append(0L, null, 0, 0, values, 0, length); length--)
        {
            // the last record takes what is left
        }
        final int length = encoder.finish();
        assertNotEquals(RecordBatchEncoder.NO_SPACE, length, compression + " outgrew the margin");
        final int added = length - RecordBatches.RECORDS_OFFSET - records;
        System.out.printf(Locale.ROOT, "%s adds %d B to %d B of random records%n", compression, added, records);
        assertTrue(added < KafkaClientProduceFactory.COMPRESSION_MARGIN / 4, compression + " adds " + added + " B");
    }

    private TestClient start(EmbeddedKafka kafka, RecordCompression compression)
    {
        engine.startText("client.compression.yaml", String.join("\n",
            "---",
            "name: test",
            "bindings:",
            "  app:",
            "    type: test",
            "    kind: client",
            "    exit: kafka_client",
            "  kafka_client:",
            "    type: kafka",
            "    kind: client",
            "    options:",
            "      servers:",
            "        - " + kafka.bootstrapServers(),
            "      compression: " + compression.name().toLowerCase(Locale.ROOT),
            "    exit: tcp_client",
            "  tcp_client:",
            "    type: tcp",
            "    kind: client",
            ""));
        return TestBinding.client("app");
    }

    private static byte[] textValue(int i)
    {
        final StringBuilder value = new StringBuilder();
        while (value.length() < 200)
        {
            value.append("record ").append(i).append(" of the compression test; ");
        }
        return value.toString().getBytes(StandardCharsets.UTF_8);
    }

    private record Batches(int batches, int records, long bytes, List<RecordCompression> codecs)
    {
    }

    // the partition's batches as the broker stored them: its log segment files, read without a client
    private static Batches batchesOnDisk(EmbeddedKafka kafka, String topic, int partition) throws IOException
    {
        // the broker writes and renames its checkpoint files meanwhile: one that vanishes while the walk looks at it
        // is passed over (Files.walk threw NoSuchFileException on kraft/log-start-offset-checkpoint.tmp)
        final List<Path> segments = new ArrayList<>();
        Files.walkFileTree(kafka.directory(), new SimpleFileVisitor<>()
        {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
            {
                if (file.getParent().getFileName().toString().equals(topic + "-" + partition)
                    && file.getFileName().toString().endsWith(".log"))
                {
                    segments.add(file);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException ex) throws IOException
            {
                if (ex instanceof NoSuchFileException)
                {
                    return FileVisitResult.CONTINUE;
                }
                throw ex;
            }
        });
        Collections.sort(segments);
        assertFalse(segments.isEmpty(), "no log segment of " + topic + "-" + partition);
        final RecordBatchDecoder decoder = new RecordBatchDecoder();
        final List<RecordCompression> codecs = new ArrayList<>();
        int batches = 0;
        int records = 0;
        long bytes = 0;
        for (Path segment : segments)
        {
            final byte[] log = Files.readAllBytes(segment);
            decoder.wrap(new UnsafeBuffer(log), 0, log.length);
            int position = 0;
            while (decoder.nextBatch())
            {
                batches++;
                records += decoder.recordCount();
                final int batchBytes = RecordBatches.LOG_OVERHEAD + decoder.batch().batchLength();
                bytes += batchBytes;
                position += batchBytes;
                if (!codecs.contains(decoder.compression()))
                {
                    codecs.add(decoder.compression());
                }
            }
            assertEquals(RecordBatchDecoder.NO_ERROR, decoder.error(), "segment " + segment);
            assertEquals(log.length, position, "every byte of the segment is a whole batch");
        }
        return new Batches(batches, records, bytes, codecs);
    }
}
