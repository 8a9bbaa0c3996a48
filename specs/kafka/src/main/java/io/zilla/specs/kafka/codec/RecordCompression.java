/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

/**
 * The compression of a record batch (attributes bits 0-2). RecordsDeflater and RecordsInflater write and read each in
 * Kafka's exact framing (gzip, xerial-framed snappy, Kafka's LZ4 frame, zstd) at kafka-clients' default levels.
 */
public enum RecordCompression
{
    NONE(0),
    GZIP(1),
    SNAPPY(2),
    LZ4(3),
    ZSTD(4);

    private final int id;

    RecordCompression(
        int id)
    {
        this.id = id;
    }

    /** The id in a batch's attributes. */
    public int id()
    {
        return id;
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
