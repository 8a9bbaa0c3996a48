/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

/** A host and port advertised to clients. */
public record BrokerAddress(
    String host,
    int port)
{
}
