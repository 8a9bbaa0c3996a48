/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;

/**
 * Memory per idle SSE connection of examples/sse.kafka.fanout: zilla in this JVM (2 workers) in front of its own
 * broker; N event streams opened from a child JVM ({@link SseConnections}) and left idle; the JVM's heap after a full
 * GC, its direct and mapped buffers, and its resident set (VmRSS) measured before and after, per connection. Run with
 * {@code mvn -B -q -pl it/sse-kafka -am verify -DskipTests -Psse-idle-bench [-Dsse.idle.bench.connections=10000]}.
 */
public final class SseIdleMemoryBench
{
    private SseIdleMemoryBench()
    {
    }

    public static void main(String[] args) throws Exception
    {
        final int count = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            kafka.createTopic("idle", 8);
            final EngineExtension engine = new EngineExtension().workers(2)
                .property("zilla.engine.buffer.slots", 16384);
            final FanoutExample example = new FanoutExample(kafka, "idle");
            example.start(engine);
            try
            {
                // warm: the streams' classes loaded, the cache's partitions fetched, per-worker pools grown once
                open(example, 200).destroyForcibly().waitFor();
                Thread.sleep(2_000);
                final Usage before = Usage.now();
                final Process clients = open(example, count);
                Thread.sleep(3_000);
                final Usage after = Usage.now();
                System.out.printf(Locale.ROOT, "%d idle SSE connections (2 workers, topic of 8 partitions):%n", count);
                System.out.printf(Locale.ROOT, "  heap after GC   %,12d B  %,8.0f B per connection%n",
                    after.heap - before.heap, (after.heap - before.heap) / (double) count);
                System.out.printf(Locale.ROOT, "  direct buffers  %,12d B  %,8.0f B per connection%n",
                    after.direct - before.direct, (after.direct - before.direct) / (double) count);
                System.out.printf(Locale.ROOT, "  mapped buffers  %,12d B  %,8.0f B per connection%n",
                    after.mapped - before.mapped, (after.mapped - before.mapped) / (double) count);
                System.out.printf(Locale.ROOT, "  resident set    %,12d B  %,8.0f B per connection%n",
                    after.rss - before.rss, (after.rss - before.rss) / (double) count);
                clients.getOutputStream().close();
                clients.destroyForcibly().waitFor();
            }
            finally
            {
                engine.afterEach(null);
            }
        }
    }

    private static Process open(FanoutExample example, int count) throws Exception
    {
        final Process clients = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx512m", "-cp", System.getProperty("java.class.path"), SseConnections.class.getName(),
            Integer.toString(example.port), "/" + example.topic, Integer.toString(count), "-1", "300")
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final BufferedReader out = new BufferedReader(new InputStreamReader(clients.getInputStream(),
            StandardCharsets.US_ASCII));
        final String open = out.readLine();
        if (!("open " + count).equals(open))
        {
            throw new IllegalStateException("the clients did not open: " + open);
        }
        return clients;
    }

    private record Usage(long heap, long direct, long mapped, long rss)
    {
        static Usage now() throws Exception
        {
            for (int i = 0; i < 3; i++)
            {
                System.gc();
                Thread.sleep(200);
            }
            long direct = 0;
            long mapped = 0;
            for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
            {
                if (pool.getName().equals("direct"))
                {
                    direct = pool.getMemoryUsed();
                }
                else if (pool.getName().equals("mapped"))
                {
                    mapped = pool.getMemoryUsed();
                }
            }
            long rss = 0;
            for (String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("VmRSS:"))
                {
                    rss = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
            return new Usage(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), direct, mapped, rss);
        }
    }
}
