/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

/**
 * A worker's totals, as OMB's {@code /counters-stats}: messages acknowledged by the system (OMB's "sent" counts a
 * message when it is acknowledged), received by the consumers, and failed sends.
 */
public record CountersStats(long messagesSent, long messagesReceived, long messageSendErrors)
{
    public CountersStats plus(CountersStats other)
    {
        return new CountersStats(messagesSent + other.messagesSent, messagesReceived + other.messagesReceived,
            messageSendErrors + other.messageSendErrors);
    }
}
