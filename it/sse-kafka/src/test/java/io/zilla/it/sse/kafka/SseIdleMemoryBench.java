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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.ObjectName;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;

/**
 * Memory per idle SSE connection of examples/sse.kafka.fanout: zilla in this JVM (2 workers) in front of its own
 * broker; N event streams opened from a child JVM ({@link SseConnections}) and left idle; the JVM's heap after a full
 * GC, its direct and mapped buffers, and its resident set (VmRSS) measured before and 3 s and 13 s after (past the
 * http server's header timeout), per connection. zilla's JVM runs with {@code -XX:AutoBoxCacheMax=65536} as bin/zilla
 * does (else JDK 17's selector keeps an Integer box per descriptor above 127). Run with
 * {@code mvn -B -q -pl it/sse-kafka -am verify -DskipTests -Psse-idle-bench [-Dsse.idle.bench.connections=10000]}.
 * With {@code -Dsse.idle.bench.histogram=N} it also prints the N classes whose live heap grew most (the JVM's class
 * histogram after a full GC, with the connections open less the one before them), for the breakdown by owner.
 */
public final class SseIdleMemoryBench
{
    private SseIdleMemoryBench()
    {
    }

    public static void main(String[] args) throws Exception
    {
        final int count = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        final int histogram = args.length > 1 ? Integer.parseInt(args[1]) : 0;
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
                final Map<String, long[]> classesBefore = histogram > 0 ? classes() : Map.of();
                final Process clients = open(example, count);
                Thread.sleep(3_000);
                final Usage opened = Usage.now();
                // past the http server's header timeout (10 s), when each connection's timer for its request head
                // fires and is not set again: what an idle connection holds for as long as it stays idle
                Thread.sleep(10_000);
                final Usage idle = Usage.now();
                if (histogram > 0)
                {
                    printGrowth(classesBefore, classes(), count, histogram);
                }
                System.out.printf(Locale.ROOT, "%d idle SSE connections (2 workers, topic of 8 partitions):%n", count);
                print("3 s after open", before, opened, count);
                print("13 s after open", before, idle, count);
                clients.getOutputStream().close();
                clients.destroyForcibly().waitFor();
            }
            finally
            {
                engine.afterEach(null);
            }
        }
    }

    private static void print(String when, Usage before, Usage after, int count)
    {
        System.out.printf(Locale.ROOT, " %s:%n", when);
        System.out.printf(Locale.ROOT, "  heap after GC   %,12d B  %,8.0f B per connection%n",
            after.heap - before.heap, (after.heap - before.heap) / (double) count);
        System.out.printf(Locale.ROOT, "  direct buffers  %,12d B  %,8.0f B per connection%n",
            after.direct - before.direct, (after.direct - before.direct) / (double) count);
        System.out.printf(Locale.ROOT, "  mapped buffers  %,12d B  %,8.0f B per connection%n",
            after.mapped - before.mapped, (after.mapped - before.mapped) / (double) count);
        System.out.printf(Locale.ROOT, "  resident set    %,12d B  %,8.0f B per connection%n",
            after.rss - before.rss, (after.rss - before.rss) / (double) count);
    }

    // class name to {instances, bytes} of the live heap (the histogram's command runs a full GC first)
    private static Map<String, long[]> classes() throws Exception
    {
        final String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
            new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
            new Object[] {new String[0]}, new String[] {String[].class.getName()});
        final Map<String, long[]> classes = new HashMap<>();
        for (String line : text.split("\n"))
        {
            final String[] columns = line.trim().split("\\s+");
            if (columns.length >= 4 && columns[0].endsWith(":"))
            {
                classes.put(columns[3], new long[] {Long.parseLong(columns[1]), Long.parseLong(columns[2])});
            }
        }
        return classes;
    }

    private static void printGrowth(Map<String, long[]> before, Map<String, long[]> after, int count, int top)
    {
        final List<Map.Entry<String, long[]>> growth = new ArrayList<>();
        long total = 0;
        for (Map.Entry<String, long[]> entry : after.entrySet())
        {
            final long[] was = before.getOrDefault(entry.getKey(), new long[2]);
            final long[] grew = {entry.getValue()[0] - was[0], entry.getValue()[1] - was[1]};
            total += grew[1];
            growth.add(Map.entry(entry.getKey(), grew));
        }
        growth.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
        System.out.printf(Locale.ROOT, "live heap growth by class (%,d B, %,.0f B per connection):%n",
            total, total / (double) count);
        System.out.printf(Locale.ROOT, "  %10s %12s %10s  %s%n", "instances", "bytes", "B/conn", "class");
        for (int i = 0; i < Math.min(top, growth.size()); i++)
        {
            final long[] grew = growth.get(i).getValue();
            System.out.printf(Locale.ROOT, "  %,10d %,12d %,10.1f  %s%n",
                grew[0], grew[1], grew[1] / (double) count, growth.get(i).getKey());
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
