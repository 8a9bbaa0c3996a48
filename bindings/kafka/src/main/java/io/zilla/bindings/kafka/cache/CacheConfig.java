/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

/**
 * How a cached partition rolls, retires and compacts its segments: Kafka's topic settings of the same names, with
 * Kafka's defaults, so that a topic's own values (DescribeConfigs) can be applied as they are.
 *
 * <h2>Footprint</h2>
 * A segment's files are mapped at their full capacity and never trimmed, so one segment takes at most
 * {@code S = segment.bytes + 2 * segment.index.bytes} (the {@code .log}, the {@code .index}, and the {@code .hscan}
 * of the head or the {@code .hindex} of a frozen segment, never larger than the {@code .hscan} it was sorted from).
 * Retention counts those file sizes, not the records' bytes, with the files already unlinked but still mapped because
 * a cursor reads them; and it runs before a new head is created. So per partition, with {@code cleanup.policy=delete}:
 * <pre>
 *   disk          &lt;= max(retention.bytes, S) + S
 *   memory mapped &lt;= the same, in address space; what is resident is page cache that the kernel may reclaim
 * </pre>
 * Beyond that bound only: one segment per cursor that stalls inside a segment that retention evicted, until the cursor
 * moves or is closed. With {@code retention.bytes = -1} (Kafka's default) only {@code retention.ms} bounds a partition.
 * Files are sparse: disk blocks are taken as records are written, so the bound is what the files may reach, not what
 * they start at. A segment rolled by {@code segment.ms} before it is full still counts at its full capacity.
 * <p>
 * With {@code compact,delete} the cleaner's copy of one group of segments, at most {@code S}, comes on top while it
 * runs: {@code max(retention.bytes, S) + 2 * S}. With {@code compact} alone nothing is retained by time or size: the
 * bound is {@link #compactedFootprint(long)}, from what the latest record of each key takes.
 *
 * @param segmentBytes           {@code segment.bytes}: the capacity of a segment's {@code .log}
 * @param segmentIndexBytes      {@code segment.index.bytes}: the capacity of its {@code .index} and of its
 *                               {@code .hscan}
 * @param segmentMs              {@code segment.ms}: the head rolls at the next record once it is this old
 * @param retentionBytes         {@code retention.bytes}: the most that frozen segments may take, -1 for no limit;
 *                               not applied with {@code cleanup.policy=compact}
 * @param retentionMs            {@code retention.ms}: a frozen segment whose newest record is older goes, -1 for no
 *                               limit; not applied with {@code cleanup.policy=compact}
 * @param cleanupPolicy          {@code cleanup.policy}
 * @param deleteRetentionMs      {@code delete.retention.ms}: how long the cleaner keeps a tombstone that is the latest
 *                               record of its key, counted by the partition's clock from when its segment froze
 * @param minCleanableDirtyRatio {@code min.cleanable.dirty.ratio}: the cleaner runs once the frozen segments not yet
 *                               cleaned take this share of the frozen segments' footprint, or more
 */
public record CacheConfig(
    int segmentBytes,
    int segmentIndexBytes,
    long segmentMs,
    long retentionBytes,
    long retentionMs,
    CleanupPolicy cleanupPolicy,
    long deleteRetentionMs,
    double minCleanableDirtyRatio)
{
    /** Kafka's default {@code segment.bytes}, 1 GiB, is also the most: log positions are 32-bit in the indexes. */
    public static final int SEGMENT_BYTES_DEFAULT = 1 << 30;
    public static final int SEGMENT_BYTES_MAX = 1 << 30;
    public static final int SEGMENT_BYTES_MIN = 4096;

    /** Kafka's default {@code segment.index.bytes}: 10 MiB, 1.3 million records per segment. */
    public static final int SEGMENT_INDEX_BYTES_DEFAULT = 10 << 20;
    public static final int SEGMENT_INDEX_BYTES_MAX = 1 << 30;
    public static final int SEGMENT_INDEX_BYTES_MIN = 4096;

    /** Kafka's default {@code segment.ms} and {@code retention.ms}: 7 days. */
    public static final long SEGMENT_MS_DEFAULT = 604_800_000L;
    public static final long RETENTION_MS_DEFAULT = 604_800_000L;

    /** Kafka's default {@code retention.bytes}: no limit, so only time bounds a partition unless a topic says more. */
    public static final long RETENTION_BYTES_DEFAULT = -1L;

    /** Kafka's default {@code delete.retention.ms}: 1 day. */
    public static final long DELETE_RETENTION_MS_DEFAULT = 86_400_000L;

    /** Kafka's default {@code min.cleanable.dirty.ratio}: the cleaner runs once half the frozen bytes are dirty. */
    public static final double MIN_CLEANABLE_DIRTY_RATIO_DEFAULT = 0.5;

    public static final long UNLIMITED = -1L;

    public static final CacheConfig DEFAULTS = new CacheConfig(SEGMENT_BYTES_DEFAULT, SEGMENT_INDEX_BYTES_DEFAULT,
        SEGMENT_MS_DEFAULT, RETENTION_BYTES_DEFAULT, RETENTION_MS_DEFAULT, CleanupPolicy.DELETE,
        DELETE_RETENTION_MS_DEFAULT, MIN_CLEANABLE_DIRTY_RATIO_DEFAULT);

    /** Kafka's {@code cleanup.policy}: {@code delete}, {@code compact}, or both. */
    public enum CleanupPolicy
    {
        DELETE,
        COMPACT,
        COMPACT_DELETE;

        /** A topic's value as DescribeConfigs gives it: "delete", "compact", "compact,delete" or "delete,compact". */
        public static CleanupPolicy of(String value)
        {
            final String policy = value.replace(" ", "");
            final CleanupPolicy result;
            if ("delete".equals(policy))
            {
                result = DELETE;
            }
            else if ("compact".equals(policy))
            {
                result = COMPACT;
            }
            else if ("compact,delete".equals(policy) || "delete,compact".equals(policy))
            {
                result = COMPACT_DELETE;
            }
            else
            {
                throw new IllegalArgumentException("cleanup.policy: " + value + " is none of delete, compact, compact,delete");
            }
            return result;
        }

        /** Whether the cleaner keeps only the latest record of each key. */
        public boolean compacts()
        {
            return this != DELETE;
        }

        /** Whether {@code retention.ms} and {@code retention.bytes} remove old segments. */
        public boolean deletes()
        {
            return this != COMPACT;
        }
    }

    public CacheConfig
    {
        within("segment.bytes", segmentBytes, SEGMENT_BYTES_MIN, SEGMENT_BYTES_MAX);
        within("segment.index.bytes", segmentIndexBytes, SEGMENT_INDEX_BYTES_MIN, SEGMENT_INDEX_BYTES_MAX);
        within("segment.ms", segmentMs, 1L, Long.MAX_VALUE);
        if (retentionBytes != UNLIMITED)
        {
            within("retention.bytes", retentionBytes, 0L, Long.MAX_VALUE);
        }
        if (retentionMs != UNLIMITED)
        {
            within("retention.ms", retentionMs, 0L, Long.MAX_VALUE);
        }
        if (cleanupPolicy == null)
        {
            throw new IllegalArgumentException("cleanup.policy is missing");
        }
        within("delete.retention.ms", deleteRetentionMs, 0L, Long.MAX_VALUE);
        if (!(minCleanableDirtyRatio >= 0.0 && minCleanableDirtyRatio <= 1.0))
        {
            throw new IllegalArgumentException("min.cleanable.dirty.ratio: " + minCleanableDirtyRatio
                + " is outside [0, 1]");
        }
    }

    public CacheConfig withSegmentBytes(int segmentBytes)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy,
            deleteRetentionMs, minCleanableDirtyRatio);
    }

    public CacheConfig withSegmentIndexBytes(int segmentIndexBytes)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy,
            deleteRetentionMs, minCleanableDirtyRatio);
    }

    public CacheConfig withSegmentMs(long segmentMs)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy,
            deleteRetentionMs, minCleanableDirtyRatio);
    }

    public CacheConfig withRetentionBytes(long retentionBytes)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy,
            deleteRetentionMs, minCleanableDirtyRatio);
    }

    public CacheConfig withRetentionMs(long retentionMs)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy,
            deleteRetentionMs, minCleanableDirtyRatio);
    }

    public CacheConfig withCleanupPolicy(CleanupPolicy cleanupPolicy)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy,
            deleteRetentionMs, minCleanableDirtyRatio);
    }

    public CacheConfig withDeleteRetentionMs(long deleteRetentionMs)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy,
            deleteRetentionMs, minCleanableDirtyRatio);
    }

    public CacheConfig withMinCleanableDirtyRatio(double minCleanableDirtyRatio)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy,
            deleteRetentionMs, minCleanableDirtyRatio);
    }

    /** The most one segment's files take: its {@code .log}, {@code .index} and {@code .hscan} (or {@code .hindex}). */
    public long segmentFootprint()
    {
        return segmentBytes + 2L * segmentIndexBytes;
    }

    /**
     * The most one partition's files take, on disk and mapped, by retention: -1 when {@code retention.bytes} sets no
     * limit or is not applied ({@code cleanup.policy=compact}, see {@link #compactedFootprint(long)}).
     */
    public long partitionFootprint()
    {
        final long footprint;
        if (retentionBytes == UNLIMITED || !cleanupPolicy.deletes())
        {
            footprint = UNLIMITED;
        }
        else
        {
            // compact,delete: plus the cleaner's copy of one group while it rewrites it
            final long copies = cleanupPolicy.compacts() ? 2 : 1;
            footprint = Math.max(retentionBytes, segmentFootprint()) + copies * segmentFootprint();
        }
        return footprint;
    }

    /**
     * The most a compacted partition's files take, on disk and mapped, when one record per key takes {@code latest}
     * bytes in all in compacted segments: per key, its largest record's {@link CacheEntry#sizeOf entry}, 8 bytes of
     * {@code .index}, and 8 bytes of {@code .hindex} for its key and for each of its headers (a tombstone counts until
     * {@code delete.retention.ms}; records with a null key are never compacted away and each counts). The cleaned
     * segments hold one record per key, so at most that; the segments frozen since the cleaner's last pass stay below
     * {@code ratio / (1 - ratio)} of it, plus the one just frozen, as the cleaner runs once they reach that share; and
     * the head, or the cleaner's copy of one run of segments while it runs, takes one more {@code S}:
     * <pre>
     *   disk &lt;= latest / (1 - min.cleanable.dirty.ratio) + 2 * S
     * </pre>
     * Beyond it only: a segment that the cleaner replaced, while a cursor that stalls inside it pins it. -1 with a
     * ratio of 1, which lets the segments not yet cleaned grow without a bound.
     */
    public long compactedFootprint(long latest)
    {
        return minCleanableDirtyRatio >= 1.0
            ? UNLIMITED
            : (long) Math.ceil(latest / (1.0 - minCleanableDirtyRatio)) + 2 * segmentFootprint();
    }

    private static void within(String name, long value, long min, long max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(name + ": " + value + " is outside [" + min + ", " + max + "]");
        }
    }
}
