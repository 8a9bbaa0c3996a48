/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

/** One event as an EventSource dispatches it: its last event id, its type ("message" when none) and its data. */
record SseEvent(String id, String type, String data)
{
}
