/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A reference hop: {@code socat} relaying bytes from a loopback port to the broker's RELAY listener, which
 * advertises the relay's port, so every connection of a client bootstrapped there goes through socat. It costs
 * what any userspace TCP hop costs (two more socket reads and writes per byte) without any Kafka awareness.
 */
final class SocatRelay implements AutoCloseable
{
    private final Process process;
    private final int port;

    /** Relays {@code port} to {@code targetPort}, on {@code cpus} when not null (taskset). */
    SocatRelay(int port, int targetPort, String cpus) throws IOException
    {
        this.port = port;
        final List<String> command = new ArrayList<>();
        if (cpus != null)
        {
            command.addAll(List.of("taskset", "-c", cpus));
        }
        command.add("socat");
        // an experiment's switch: socat's transfer buffer (-b, 8192 by default), the most one read or write moves
        final String buffer = System.getProperty("kafka.bench.socat.buffer");
        if (buffer != null)
        {
            command.addAll(List.of("-b", buffer));
        }
        // nodelay on both sides, as Kafka's clients, the broker and zilla set it: without it Nagle holds back a
        // produce request's tail until the peer's delayed ACK, tens of milliseconds at 10,000 msg/s
        command.addAll(List.of("TCP-LISTEN:" + port + ",bind=127.0.0.1,fork,reuseaddr,nodelay",
            "TCP:127.0.0.1:" + targetPort + ",nodelay"));
        this.process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    String bootstrapServers()
    {
        return "127.0.0.1:" + port;
    }

    /** CPU time of socat and its forked children so far, in nanoseconds. */
    long cpuNanos()
    {
        return process.toHandle().descendants()
            .mapToLong(p -> p.info().totalCpuDuration().map(d -> d.toNanos()).orElse(0L))
            .sum() + process.toHandle().info().totalCpuDuration().map(d -> d.toNanos()).orElse(0L);
    }

    @Override
    public void close() throws InterruptedException
    {
        process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
