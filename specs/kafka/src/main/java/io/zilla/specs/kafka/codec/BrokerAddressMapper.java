/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

/** Chooses the proxy address that clients should use for a broker the brokers advertised. */
@FunctionalInterface
public interface BrokerAddressMapper
{
    BrokerAddress map(
        int nodeId,
        String host,
        int port);
}
