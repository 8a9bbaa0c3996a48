/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PeriodStatsTest
{
    @Test
    void shouldMergeWorkersHistogramsExactlyNotTheirPercentiles() throws Exception
    {
        // one worker saw fast messages, the other slow ones: averaging their p99s would say 5 ms, the merged p99 is 9 ms
        final PeriodStats fast = new PeriodStats();
        final PeriodStats slow = new PeriodStats();
        final Histogram all = PeriodStats.newHistogram();
        final Random random = new Random(7);
        for (int i = 0; i < 90_000; i++)
        {
            final long micros = 500 + random.nextInt(500);
            fast.endToEndLatency.recordValue(micros);
            all.recordValue(micros);
        }
        for (int i = 0; i < 10_000; i++)
        {
            final long micros = 9_000 + random.nextInt(1_000);
            slow.endToEndLatency.recordValue(micros);
            all.recordValue(micros);
        }
        fast.messagesReceived = 90_000;
        slow.messagesReceived = 10_000;
        fast.totalMessagesReceived = 190_000;
        slow.totalMessagesReceived = 20_000;

        final PeriodStats merged = roundTrip(fast).plus(roundTrip(slow));

        assertEquals(100_000, merged.messagesReceived);
        assertEquals(210_000, merged.totalMessagesReceived);
        assertEquals(all.getTotalCount(), merged.endToEndLatency.getTotalCount());
        for (double percentile : new double[] {50, 90, 95, 99, 99.9, 100})
        {
            assertEquals(all.getValueAtPercentile(percentile), merged.endToEndLatency.getValueAtPercentile(percentile),
                "p" + percentile);
        }
        assertTrue(merged.endToEndLatency.getValueAtPercentile(99) >= 9_000);
    }

    @Test
    void shouldSendHistogramsAsBase64StringsUnderOmbsFieldNames() throws Exception
    {
        final PeriodStats stats = new PeriodStats();
        stats.publishLatency.recordValue(1234);
        stats.messagesSent = 1;

        final JsonNode json = WorkerJson.JSON.readTree(WorkerJson.JSON.writeValueAsBytes(stats));

        assertEquals(1, json.path("messagesSent").asLong());
        assertTrue(json.path("publishLatency").isTextual(), json::toString);
        assertTrue(json.path("publishDelayLatency").isTextual(), json::toString);
        assertTrue(json.path("endToEndLatency").isTextual(), json::toString);
        assertTrue(json.has("totalMessagesReceived"), json::toString);
    }

    private static PeriodStats roundTrip(PeriodStats stats) throws Exception
    {
        return WorkerJson.JSON.readValue(WorkerJson.JSON.writeValueAsBytes(stats), PeriodStats.class);
    }
}
