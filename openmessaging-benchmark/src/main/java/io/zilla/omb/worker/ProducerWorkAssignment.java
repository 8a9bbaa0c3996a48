/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.util.List;

import io.zilla.omb.config.KeyDistributorType;

/**
 * The load a worker's producers put on, as OMB's {@code /start-load}: the payloads to pick from (each message takes the
 * next, with its send time written into its first 8 bytes), the worker's whole rate in messages per second, and how
 * keys are chosen.
 */
public record ProducerWorkAssignment(List<byte[]> payloadData, double publishRate, KeyDistributorType keyDistributorType)
{
    public ProducerWorkAssignment withPublishRate(double rate)
    {
        return new ProducerWorkAssignment(payloadData, rate, keyDistributorType);
    }
}
