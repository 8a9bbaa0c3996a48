/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import io.zilla.omb.config.DriverConfig;
import org.junit.jupiter.api.Test;

class WorkerJsonTest
{
    @Test
    void shouldSendSseFieldsToWorkers() throws Exception
    {
        // a throughZilla file's url is the coordinator's zilla by the time it goes to the workers
        final DriverConfig config = DriverConfig.read(Path.of("driver-sse/sse-zilla.yaml"))
            .withSseUrl("http://127.0.0.1:7000/{topic}");
        final DriverConfig sent = DriverConfig.parse("sent.yaml", WorkerJson.driverFile(config));
        assertEquals(config.sse(), sent.sse());
        assertEquals(config.driverClass(), sent.driverClass());
        assertEquals(config.producerConfig(), sent.producerConfig());
    }

    @Test
    void shouldSendHttpFieldsToWorkers() throws Exception
    {
        final DriverConfig config = DriverConfig.read(Path.of("driver-http/http-zilla-h1-fetch.yaml"))
            .withHttpUrls("http://127.0.0.1:7000/{topic}/{key}", "http://127.0.0.1:7000/{topic}");
        final DriverConfig sent = DriverConfig.parse("sent.yaml", WorkerJson.driverFile(config));
        assertEquals(config.http(), sent.http());
        assertEquals(config.consumerConfig(), sent.consumerConfig());
    }
}
