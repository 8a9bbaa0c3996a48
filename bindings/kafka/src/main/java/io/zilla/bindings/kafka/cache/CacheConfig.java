/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

/**
 * How a cached partition rolls and retires its segments: Kafka's topic settings of the same names, with Kafka's
 * defaults, so that a topic's own values (DescribeConfigs) can be applied as they are.
 *
 * <h2>Footprint</h2>
 * A segment's files are mapped at their full capacity and never trimmed, so one segment takes at most
 * {@code S = segment.bytes + 2 * segment.index.bytes} (the {@code .log}, the {@code .index}, and the {@code .hscan}
 * of the head or the {@code .hindex} of a frozen segment, never larger than the {@code .hscan} it was sorted from).
 * Retention counts those file sizes, not the records' bytes, with the files already unlinked but still mapped because
 * a cursor reads them; and it runs before a new head is created. So per partition:
 * <pre>
 *   disk          &lt;= max(retention.bytes, S) + S
 *   memory mapped &lt;= the same, in address space; what is resident is page cache that the kernel may reclaim
 * </pre>
 * Beyond that bound only: one segment per cursor that stalls inside a segment that retention evicted, until the cursor
 * moves or is closed. With {@code retention.bytes = -1} (Kafka's default) only {@code retention.ms} bounds a partition.
 * Files are sparse: disk blocks are taken as records are written, so the bound is what the files may reach, not what
 * they start at. A segment rolled by {@code segment.ms} before it is full still counts at its full capacity.
 *
 * @param segmentBytes      {@code segment.bytes}: the capacity of a segment's {@code .log}
 * @param segmentIndexBytes {@code segment.index.bytes}: the capacity of its {@code .index} and of its {@code .hscan}
 * @param segmentMs         {@code segment.ms}: the head rolls at the next record once it is this old
 * @param retentionBytes    {@code retention.bytes}: the most that frozen segments may take, -1 for no limit
 * @param retentionMs       {@code retention.ms}: a frozen segment whose newest record is older goes, -1 for no limit
 * @param cleanupPolicy     {@code cleanup.policy}
 */
public record CacheConfig(
    int segmentBytes,
    int segmentIndexBytes,
    long segmentMs,
    long retentionBytes,
    long retentionMs,
    CleanupPolicy cleanupPolicy)
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

    public static final long UNLIMITED = -1L;

    public static final CacheConfig DEFAULTS = new CacheConfig(SEGMENT_BYTES_DEFAULT, SEGMENT_INDEX_BYTES_DEFAULT,
        SEGMENT_MS_DEFAULT, RETENTION_BYTES_DEFAULT, RETENTION_MS_DEFAULT, CleanupPolicy.DELETE);

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

        public boolean compacts()
        {
            return this != DELETE;
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
    }

    public CacheConfig withSegmentBytes(int segmentBytes)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy);
    }

    public CacheConfig withSegmentIndexBytes(int segmentIndexBytes)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy);
    }

    public CacheConfig withSegmentMs(long segmentMs)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy);
    }

    public CacheConfig withRetentionBytes(long retentionBytes)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy);
    }

    public CacheConfig withRetentionMs(long retentionMs)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy);
    }

    public CacheConfig withCleanupPolicy(CleanupPolicy cleanupPolicy)
    {
        return new CacheConfig(segmentBytes, segmentIndexBytes, segmentMs, retentionBytes, retentionMs, cleanupPolicy);
    }

    /** The most one segment's files take: its {@code .log}, {@code .index} and {@code .hscan} (or {@code .hindex}). */
    public long segmentFootprint()
    {
        return segmentBytes + 2L * segmentIndexBytes;
    }

    /** The most one partition's files take, on disk and mapped; -1 when {@code retention.bytes} sets no limit. */
    public long partitionFootprint()
    {
        return retentionBytes == UNLIMITED ? UNLIMITED : Math.max(retentionBytes, segmentFootprint()) + segmentFootprint();
    }

    private static void within(String name, long value, long min, long max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(name + ": " + value + " is outside [" + min + ", " + max + "]");
        }
    }
}
