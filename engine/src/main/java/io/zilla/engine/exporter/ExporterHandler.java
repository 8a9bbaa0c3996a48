/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.exporter;

import java.io.IOException;

/** One configured exporter: it runs on threads of its own, never on a worker. */
public interface ExporterHandler extends AutoCloseable
{
    /**
     * Starts exporting, before the workers start.
     *
     * @throws IOException when it cannot (a port in use): the engine then does not start
     */
    void start() throws IOException;

    /** One line for the start log, such as {@code prometheus_metric_exporter http://0.0.0.0:7190/metrics}. */
    String describe();

    /** Stops exporting; called once, after the workers stopped. */
    @Override
    void close();
}
