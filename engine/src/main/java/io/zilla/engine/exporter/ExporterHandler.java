/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.exporter;

import java.io.IOException;

import io.zilla.engine.internal.event.EngineEvent;

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

    /**
     * One event (such as {@code tcp.connection.refused}), in the order the workers wrote them, from the start until
     * the close (every event the workers wrote before they stopped is handed over before {@link #close()}). It is
     * called on the engine's events thread ({@code zilla-events}), never on a worker, and that thread also prints
     * the {@code stdout} exporters' lines: it must not block. What it throws is ignored. By default it does nothing.
     */
    default void onEvent(EngineEvent event)
    {
    }

    /** Stops exporting; called once, after the workers stopped. */
    @Override
    void close();
}
