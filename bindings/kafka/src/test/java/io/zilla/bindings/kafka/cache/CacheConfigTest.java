/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zilla.bindings.kafka.cache.CacheConfig.CleanupPolicy;
import org.junit.jupiter.api.Test;

/** The cache's settings: Kafka's defaults, the bounds that the 32-bit log positions set, and the footprint. */
class CacheConfigTest
{
    @Test
    void shouldDefaultAsKafka()
    {
        final CacheConfig config = CacheConfig.DEFAULTS;
        assertEquals(1 << 30, config.segmentBytes());
        assertEquals(10 << 20, config.segmentIndexBytes());
        assertEquals(604_800_000L, config.segmentMs());
        assertEquals(-1L, config.retentionBytes());
        assertEquals(604_800_000L, config.retentionMs());
        assertEquals(CleanupPolicy.DELETE, config.cleanupPolicy());
        assertEquals(86_400_000L, config.deleteRetentionMs());
        assertEquals(0.5, config.minCleanableDirtyRatio());
        assertEquals(-1L, config.partitionFootprint(), "no bound by size unless retention.bytes sets one");
    }

    @Test
    void shouldBoundAPartitionsFootprint()
    {
        final CacheConfig config = CacheConfig.DEFAULTS
            .withSegmentBytes(4 << 20)
            .withSegmentIndexBytes(128 << 10)
            .withRetentionBytes(16 << 20);
        assertEquals((4 << 20) + (256 << 10), config.segmentFootprint());
        assertEquals((16 << 20) + (4 << 20) + (256 << 10), config.partitionFootprint());
        assertEquals(2L * config.segmentFootprint(), config.withRetentionBytes(0).partitionFootprint(),
            "at least the head and the segment frozen before it");

        // compact,delete: one more segment, the cleaner's copy of a run; compact: no bound by retention
        assertEquals((16 << 20) + 2L * config.segmentFootprint(),
            config.withCleanupPolicy(CleanupPolicy.COMPACT_DELETE).partitionFootprint());
        assertEquals(-1L, config.withCleanupPolicy(CleanupPolicy.COMPACT).partitionFootprint());
    }

    @Test
    void shouldBoundACompactedPartitionsFootprintByItsKeys()
    {
        final CacheConfig config = CacheConfig.DEFAULTS
            .withSegmentBytes(64 << 10)
            .withSegmentIndexBytes(8 << 10)
            .withCleanupPolicy(CleanupPolicy.COMPACT);
        assertEquals(2 * 38_400L + 2 * 81_920L, config.compactedFootprint(38_400), "twice the keys, two segments");
        assertEquals(38_400L + 2 * 81_920L, config.withMinCleanableDirtyRatio(0).compactedFootprint(38_400));
        assertEquals(4 * 38_400L + 2 * 81_920L, config.withMinCleanableDirtyRatio(0.75).compactedFootprint(38_400));
        assertEquals(-1L, config.withMinCleanableDirtyRatio(1).compactedFootprint(38_400), "never cleaned again");
    }

    @Test
    void shouldRefuseValuesOutOfBounds()
    {
        final CacheConfig config = CacheConfig.DEFAULTS;
        assertThrows(IllegalArgumentException.class, () -> config.withSegmentBytes(CacheConfig.SEGMENT_BYTES_MIN - 1));
        assertThrows(IllegalArgumentException.class, () -> config.withSegmentBytes(Integer.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> config.withSegmentIndexBytes(16));
        assertThrows(IllegalArgumentException.class, () -> config.withSegmentMs(0));
        assertThrows(IllegalArgumentException.class, () -> config.withRetentionBytes(-2));
        assertThrows(IllegalArgumentException.class, () -> config.withRetentionMs(-2));
        assertThrows(IllegalArgumentException.class, () -> config.withCleanupPolicy(null));
        assertThrows(IllegalArgumentException.class, () -> config.withDeleteRetentionMs(-1));
        assertThrows(IllegalArgumentException.class, () -> config.withMinCleanableDirtyRatio(-0.1));
        assertThrows(IllegalArgumentException.class, () -> config.withMinCleanableDirtyRatio(1.1));
        assertThrows(IllegalArgumentException.class, () -> config.withMinCleanableDirtyRatio(Double.NaN));
        assertEquals(CacheConfig.UNLIMITED, config.withRetentionMs(-1).retentionMs());
    }

    @Test
    void shouldReadKafkasCleanupPolicies()
    {
        assertEquals(CleanupPolicy.DELETE, CleanupPolicy.of("delete"));
        assertEquals(CleanupPolicy.COMPACT, CleanupPolicy.of("compact"));
        assertEquals(CleanupPolicy.COMPACT_DELETE, CleanupPolicy.of("compact,delete"));
        assertEquals(CleanupPolicy.COMPACT_DELETE, CleanupPolicy.of("delete, compact"));
        assertThrows(IllegalArgumentException.class, () -> CleanupPolicy.of("archive"));
        assertFalse(CleanupPolicy.DELETE.compacts());
        assertTrue(CleanupPolicy.COMPACT_DELETE.compacts());
        assertTrue(CleanupPolicy.DELETE.deletes());
        assertFalse(CleanupPolicy.COMPACT.deletes());
        assertTrue(CleanupPolicy.COMPACT_DELETE.deletes());
    }
}
