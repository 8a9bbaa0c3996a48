/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.bench;

import java.util.Arrays;

import io.netty.handler.codec.http2.Http2Exception;

/**
 * HpackBenchmark's operations interleaved in one JVM, for a host shared with other work: each round runs every
 * operation for a batch in turn, and the best batch of each is reported (ns/op). Where JMH's averages of
 * separate forks swing with the other tenants' load, the best batches of interleaved rounds see the same host.
 * Arguments: rounds (default 400), batch (default 2000).
 */
public final class HpackInterleaved
{
    private static final String[] OPERATIONS =
    {
        "zillaDecode", "nettyDecode", "zillaEncode", "zillaEncodeRaw", "nettyEncode",
    };

    private HpackInterleaved()
    {
    }

    public static void main(
        String[] args) throws Http2Exception
    {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        final int batch = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        long sink = 0;
        for (String list : new String[] {"request", "response"})
        {
            final HpackBenchmark benchmark = new HpackBenchmark();
            benchmark.list = list;
            benchmark.setup();
            final long[] best = new long[OPERATIONS.length];
            Arrays.fill(best, Long.MAX_VALUE);
            for (int round = 0; round < rounds; round++)
            {
                for (int operation = 0; operation < OPERATIONS.length; operation++)
                {
                    final long start = System.nanoTime();
                    for (int i = 0; i < batch; i++)
                    {
                        sink += run(benchmark, operation);
                    }
                    best[operation] = Math.min(best[operation], (System.nanoTime() - start) / batch);
                }
            }
            final StringBuilder line = new StringBuilder(list).append(':');
            for (int operation = 0; operation < OPERATIONS.length; operation++)
            {
                line.append(' ').append(OPERATIONS[operation]).append(' ').append(best[operation]);
            }
            System.out.println(line);
        }
        System.out.println("(checksum " + sink + ")");
    }

    private static int run(
        HpackBenchmark benchmark,
        int operation) throws Http2Exception
    {
        return switch (operation)
        {
            case 0 -> benchmark.zillaDecode();
            case 1 -> benchmark.nettyDecode();
            case 2 -> benchmark.zillaEncode();
            case 3 -> benchmark.zillaEncodeRaw();
            default -> benchmark.nettyEncode();
        };
    }
}
