/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

/**
 * The engine properties of the kafka client binding, read once by {@code KafkaBinding} and handed to every worker's
 * client factories: {@code metadataMaxAge} (ms, META's refresh and DESCRIBE's poll), the connections' {@code timeouts},
 * {@code fetchMaxBatchBytes} (FETCH: the largest batch held for one partition), {@code produceMaxInFlight} (PRODUCE:
 * the Produce requests a stream, and a connection, may have in flight) and {@code produceRequestPartitions} (the most
 * partitions' batches one Produce request carries).
 */
public record KafkaClientSettings(int metadataMaxAge, KafkaClientTimeouts timeouts, int fetchMaxBatchBytes,
    int produceMaxInFlight, int produceRequestPartitions)
{
}
