/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import org.apache.kafka.common.compress.Compression;

/**
 * The compression of a record batch (attributes bits 0-2), with kafka-clients' codec for it: Kafka's exact framings
 * (gzip, xerial-framed snappy, Kafka's LZ4 frame, zstd) at their default levels.
 */
public enum RecordCompression
{
    NONE(0, Compression.NONE),
    GZIP(1, Compression.gzip().build()),
    SNAPPY(2, Compression.snappy().build()),
    LZ4(3, Compression.lz4().build()),
    ZSTD(4, Compression.zstd().build());

    private final int id;
    private final Compression codec;

    RecordCompression(
        int id,
        Compression codec)
    {
        this.id = id;
        this.codec = codec;
    }

    /** The id in a batch's attributes. */
    public int id()
    {
        return id;
    }

    Compression codec()
    {
        return codec;
    }

    /** The compression of attributes bits 0-2, or {@code null} for an id Kafka does not define. */
    public static RecordCompression of(
        int id)
    {
        // a switch rather than values()[id]: values() copies its array on every call
        return switch (id)
        {
            case 0 -> NONE;
            case 1 -> GZIP;
            case 2 -> SNAPPY;
            case 3 -> LZ4;
            case 4 -> ZSTD;
            default -> null;
        };
    }
}
