/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.zilla.engine.binding.signal.Doorbell;

/**
 * One topic of a cache, as every worker sees it: the worker that owns it (fetches it and writes its partitions), the
 * partitions it has written so far, and one doorbell per worker that reads it.
 * <p>
 * The owner publishes a partition once it knows it ({@link #partition(int, CachePartition)}) and, after each batch it
 * appended, rings every reading worker ({@link #appended()}): once per batch and worker, not per reader; a worker's
 * handler then moves those of its streams whose cursors are behind. Readers never block the owner: ringing a doorbell
 * takes no lock and allocates nothing.
 */
public final class CacheTopic
{
    private final String name;
    private final int owner;
    private final AtomicReferenceArray<Doorbell> readers;
    private final AtomicBoolean requested = new AtomicBoolean();
    private volatile CachePartition[] partitions = new CachePartition[0];
    private volatile int error;
    private volatile int version;

    CacheTopic(String name, int owner, int workers)
    {
        this.name = name;
        this.owner = owner;
        this.readers = new AtomicReferenceArray<>(workers);
    }

    public String name()
    {
        return name;
    }

    /** The index of the worker that fetches this topic and writes its partitions. */
    public int owner()
    {
        return owner;
    }

    /**
     * Asks for the topic to be fetched.
     *
     * @return true for the one call that asked first (its caller tells the owner), false for every other
     */
    public boolean request()
    {
        return requested.compareAndSet(false, true);
    }

    /** Whether the topic was asked for (or bootstrapped). */
    public boolean requested()
    {
        return requested.get();
    }

    /** The partition, or null while the owner has not written it yet. From any thread. */
    public CachePartition partition(int id)
    {
        final CachePartition[] known = partitions;
        return id >= 0 && id < known.length ? known[id] : null;
    }

    /**
     * Changes whenever the owner publishes a partition or more of them: a reader that has a cursor on every partition
     * and sees the same version has nothing to look at. From any thread.
     */
    public int version()
    {
        return version;
    }

    /** How many partitions the owner knows of so far. From any thread. */
    public int partitionCount()
    {
        return partitions.length;
    }

    /**
     * Publishes how many partitions the topic has (from its metadata), before each is written: those not written yet
     * are null. On the owner's worker.
     */
    public void partitions(int count)
    {
        final CachePartition[] known = partitions;
        if (count > known.length)
        {
            partitions = Arrays.copyOf(known, count);
            version++;
        }
    }

    /**
     * The Kafka error the owner last met asking for the topic (3: Kafka does not know it), 0 once it knows the topic.
     * From any thread.
     */
    public int error()
    {
        return error;
    }

    /** Publishes the error of the topic's metadata; on the owner's worker. */
    public void error(int error)
    {
        this.error = error;
    }

    /** Publishes a partition the owner now writes; on the owner's worker. */
    public void partition(int id, CachePartition partition)
    {
        final CachePartition[] known = partitions;
        final CachePartition[] grown = Arrays.copyOf(known, Math.max(known.length, id + 1));
        grown[id] = partition;
        partitions = grown;
        version++;
    }

    /** The doorbell of worker {@code worker}'s readers of this topic; the first one a worker gives is kept. */
    public void readers(int worker, Doorbell doorbell)
    {
        readers.compareAndSet(worker, null, doorbell);
    }

    /** Rings every worker that reads the topic: the owner appended a batch. Allocates nothing. */
    public void appended()
    {
        for (int worker = 0; worker < readers.length(); worker++)
        {
            final Doorbell doorbell = readers.get(worker);
            if (doorbell != null)
            {
                doorbell.ring();
            }
        }
    }
}
