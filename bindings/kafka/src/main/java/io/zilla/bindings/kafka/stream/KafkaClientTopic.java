/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one worker knows of one topic: its partitions and their leaders (sorted by partition id), the error of the
 * last Metadata answer about it, and when that was. {@link #generation()} moves each time the partitions or leaders
 * change, so that a stream can tell whether it has told its application already.
 */
final class KafkaClientTopic
{
    static final short NONE = 0;

    /** Hears each Metadata answer about the topic, or its failure. */
    interface Listener
    {
        void onTopicMetadata(KafkaClientTopic topic, long traceId);
    }

    private final String name;
    private final List<Listener> listeners = new ArrayList<>();

    private int[] partitionIds = new int[0];
    private int[] leaderIds = new int[0];
    private int partitions;
    private short error = NONE;
    private long updatedAt = -1L;
    private int generation;

    KafkaClientTopic(String name)
    {
        this.name = name;
    }

    String name()
    {
        return name;
    }

    /** Kafka's error code of the last answer (or the request's failure), 0 when the partitions below are current. */
    short error()
    {
        return error;
    }

    /** Whether a Metadata answer with partitions has come since the topic was first asked about. */
    boolean known()
    {
        return generation > 0;
    }

    int generation()
    {
        return generation;
    }

    /** The time of the last successful answer, or -1. */
    long updatedAt()
    {
        return updatedAt;
    }

    int partitions()
    {
        return partitions;
    }

    int partitionId(int index)
    {
        return partitionIds[index];
    }

    int leaderId(int index)
    {
        return leaderIds[index];
    }

    /** The leader of a partition, or -1 when it has none or the partition is not known. */
    int leader(int partitionId)
    {
        final int index = Arrays.binarySearch(partitionIds, 0, partitions, partitionId);
        return index >= 0 ? leaderIds[index] : -1;
    }

    /** Whether some partition has no leader now (an election is under way). */
    boolean leaderless()
    {
        boolean leaderless = false;
        for (int i = 0; i < partitions && !leaderless; i++)
        {
            leaderless = leaderIds[i] < 0;
        }
        return leaderless;
    }

    boolean hasListeners()
    {
        return !listeners.isEmpty();
    }

    void addListener(Listener listener)
    {
        listeners.add(listener);
    }

    void removeListener(Listener listener)
    {
        listeners.remove(listener);
    }

    /** A successful answer: {@code ids} and {@code leaders}, in any order, of {@code count} partitions. */
    void update(int[] ids, int[] leaders, int count, long now)
    {
        sort(ids, leaders, count);
        final boolean changed = count != partitions
            || !Arrays.equals(ids, 0, count, partitionIds, 0, partitions)
            || !Arrays.equals(leaders, 0, count, leaderIds, 0, partitions);
        if (changed)
        {
            partitionIds = Arrays.copyOf(ids, count);
            leaderIds = Arrays.copyOf(leaders, count);
            partitions = count;
            generation++;
        }
        error = NONE;
        updatedAt = now;
    }

    /** An error answer about the topic, or the failure of the request: the partitions known stay as they were. */
    void fail(short error)
    {
        this.error = error;
    }

    void notifyListeners(long traceId)
    {
        // a listener may leave while it is told (its stream resets): tell a copy of the list
        final Listener[] told = listeners.toArray(new Listener[0]);
        for (Listener listener : told)
        {
            listener.onTopicMetadata(this, traceId);
        }
    }

    private static void sort(int[] ids, int[] leaders, int count)
    {
        // a handful of partitions, in order already as brokers send them: insertion sort
        for (int i = 1; i < count; i++)
        {
            final int id = ids[i];
            final int leader = leaders[i];
            int j = i - 1;
            while (j >= 0 && ids[j] > id)
            {
                ids[j + 1] = ids[j];
                leaders[j + 1] = leaders[j];
                j--;
            }
            ids[j + 1] = id;
            leaders[j + 1] = leader;
        }
    }
}
