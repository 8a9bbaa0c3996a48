/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.TestStream;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaResetExFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Builds the kafka client's Begin extensions for a test and reads the extensions of the frames it got back. */
public final class KafkaClientStreams
{
    public static final int KAFKA_TYPE_ID = "kafka".hashCode();

    private KafkaClientStreams()
    {
    }

    /** A META stream's Begin extension. */
    public static byte[] metaBeginEx(String topic)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final KafkaBeginExFW beginEx = new KafkaBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(KAFKA_TYPE_ID)
            .meta(m -> m.topic(topic))
            .build();
        final byte[] bytes = new byte[beginEx.sizeof()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /** The indexes of the frames of {@code type} (DATA, RESET...) that the stream received. */
    public static List<Integer> indexes(TestStream stream, String type)
    {
        final List<Integer> indexes = new ArrayList<>();
        final List<String> frames = stream.frames();
        for (int i = 0; i < frames.size(); i++)
        {
            if (frames.get(i).startsWith(type + " "))
            {
                indexes.add(i);
            }
        }
        return indexes;
    }

    /** The partitions and leaders of every META Data the stream received, each as a list of {partitionId, leaderId}. */
    public static List<List<int[]>> metaData(TestStream stream)
    {
        final List<List<int[]>> answers = new ArrayList<>();
        final List<byte[]> extensions = stream.extensions();
        for (int index : indexes(stream, "DATA"))
        {
            final byte[] bytes = extensions.get(index);
            final KafkaDataExFW dataEx = new KafkaDataExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
            final List<int[]> partitions = new ArrayList<>();
            dataEx.meta().partitions().forEach(p -> partitions.add(new int[] {p.partitionId(), p.leaderId()}));
            answers.add(partitions);
        }
        return answers;
    }

    /** The error code of the KafkaResetEx of the stream's Reset, or null when it has none. */
    public static Short resetError(TestStream stream)
    {
        Short error = null;
        final List<Integer> resets = indexes(stream, "RESET");
        if (!resets.isEmpty())
        {
            final byte[] bytes = stream.extensions().get(resets.get(0));
            if (bytes.length > 0)
            {
                final KafkaResetExFW resetEx = new KafkaResetExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
                error = resetEx.typeId() == KAFKA_TYPE_ID ? resetEx.error() : null;
            }
        }
        return error;
    }

    /** The reply Begin's extension, read as a KafkaBeginEx, or null when the reply did not begin. */
    public static KafkaBeginExFW replyBeginEx(TestStream stream)
    {
        KafkaBeginExFW beginEx = null;
        final List<Integer> begins = indexes(stream, "BEGIN");
        if (!begins.isEmpty())
        {
            final byte[] bytes = stream.extensions().get(begins.get(0));
            beginEx = new KafkaBeginExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        }
        return beginEx;
    }

    /** A counter of a binding, summed over workers: 0 when it was never created. */
    public static long counter(Path directory, String binding, String name)
    {
        try
        {
            final Map<String, Long> counters = EngineCounters.read(directory).getOrDefault(binding, Map.of());
            return counters.getOrDefault(name, 0L);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
