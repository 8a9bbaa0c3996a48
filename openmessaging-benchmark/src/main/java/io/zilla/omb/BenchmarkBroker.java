/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.zilla.kafka.embedded.EmbeddedKafka;

/**
 * The embedded broker the benchmark runs on when it is given no brokers: a child JVM with a 512 MB G1 heap, its data
 * in memory ({@code /dev/shm}) when there is a memory file system, and its log bounded in size.
 */
public final class BenchmarkBroker
{
    /** The most a partition keeps, give or take a segment, before its oldest segments are deleted. */
    public static final long RETENTION_BYTES = 256L << 20;
    public static final long SEGMENT_BYTES = 64L << 20;
    public static final long RETENTION_CHECK_INTERVAL_MS = 10_000;

    private BenchmarkBroker()
    {
    }

    /** The broker, configured and not started. */
    public static EmbeddedKafka create()
    {
        // the log segments in memory when there is a memory file system: 10 MB/s of them written back to a VM's
        // disk stalled the broker's produce path for seconds once the kernel's dirty pages passed their threshold
        final Path memory = Path.of("/dev/shm");
        final Path dataParent = Files.isDirectory(memory) && Files.isWritable(memory) ? memory : null;
        // and bounded, as memory is: OMB's backlog workloads hold 100 to 512 GB and some run for 240 minutes, which
        // would fill it (the embedded broker deletes nothing by default, neither by age nor by size). A partition
        // keeps 256 MiB, deleted a 64 MiB segment at a time, checked every 10 s. Consumers that keep up read within
        // milliseconds and never notice; a backlog larger than partitions x 256 MiB loses its oldest records before
        // they are consumed, and its consumers skip them (auto.offset.reset)
        return new EmbeddedKafka().jvmOptions(List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC"))
            .dataParent(dataParent)
            .property("log.retention.bytes", RETENTION_BYTES)
            .property("log.segment.bytes", SEGMENT_BYTES)
            .property("log.retention.check.interval.ms", RETENTION_CHECK_INTERVAL_MS);
    }
}
