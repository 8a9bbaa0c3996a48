/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.config;

import io.zilla.engine.config.OptionsConfig;

/**
 * An sse binding's options.
 *
 * @param retry       the reconnection delay in milliseconds, written as {@code retry:} first on every stream
 * @param keepAlive   the milliseconds a stream may be idle before a {@code :} comment line is written; 0 never
 * @param lastIdLimit the most bytes of a last event id a request may carry; more is answered with 400
 */
public record SseOptionsConfig(int retry, int keepAlive, int lastIdLimit) implements OptionsConfig
{
    public static final int DEFAULT_RETRY = 2000;
    public static final int DEFAULT_KEEP_ALIVE = 15000;
    public static final int DEFAULT_LAST_ID_LIMIT = 1024;

    public static final SseOptionsConfig DEFAULTS = new SseOptionsConfig(DEFAULT_RETRY, DEFAULT_KEEP_ALIVE,
        DEFAULT_LAST_ID_LIMIT);
}
