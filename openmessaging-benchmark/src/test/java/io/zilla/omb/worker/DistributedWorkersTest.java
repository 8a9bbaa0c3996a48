/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class DistributedWorkersTest
{
    @Test
    void shouldSplitWorkersAsOmbDoes()
    {
        // OMB: the first P workers produce (P = N / 2, or (N + 2) / 3 with -x), the last N - P consume, in reverse order
        assertSplit(2, false, List.of(0), List.of(1));
        assertSplit(3, false, List.of(0), List.of(2, 1));
        assertSplit(4, false, List.of(1, 0), List.of(3, 2));
        assertSplit(6, false, List.of(2, 1, 0), List.of(5, 4, 3));
        assertSplit(6, true, List.of(1, 0), List.of(5, 4, 3, 2));
        assertSplit(7, true, List.of(2, 1, 0), List.of(6, 5, 4, 3));
    }

    @Test
    void shouldRefuseASingleWorker()
    {
        final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
            () -> new DistributedWorkers(List.of(new HttpWorkerClient("http://127.0.0.1:1")), false));
        assertEquals("a distributed run needs at least 2 workers (one produces, one consumes), was 1", thrown.getMessage());
    }

    @Test
    void shouldDealItemsInTurn()
    {
        assertEquals(List.of(List.of(0, 3, 6), List.of(1, 4), List.of(2, 5)),
            DistributedWorkers.deal(List.of(0, 1, 2, 3, 4, 5, 6), 3));
        assertEquals(List.of(List.of("a"), List.of(), List.of()), DistributedWorkers.deal(List.of("a"), 3));
    }

    private static void assertSplit(int workers, boolean extra, List<Integer> producers, List<Integer> consumers)
    {
        final List<HttpWorkerClient> clients = IntStream.range(0, workers)
            .mapToObj(i -> new HttpWorkerClient("http://127.0.0.1:" + (9000 + i))).toList();
        final DistributedWorkers distributed = new DistributedWorkers(clients, extra);
        assertEquals(producers.stream().map(clients::get).toList(), distributed.producerWorkers(), "producers of " + workers);
        assertEquals(consumers.stream().map(clients::get).toList(), distributed.consumerWorkers(), "consumers of " + workers);
    }
}
