/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Gives zilla's workers a core of their own and everything else (the broker, the clients, this JVM's other threads)
 * the rest, with Linux {@code taskset}, so that direct and zilla runs give Kafka the same CPU: as when zilla runs on
 * its own machine. Threads started later inherit their creator's cores, so the clients of later runs stay off
 * zilla's core.
 */
final class CpuPinning
{
    private CpuPinning()
    {
    }

    /** Pins this JVM's zilla workers to {@code zillaCpus}, its other threads and all of {@code broker} to {@code otherCpus}. */
    static void pin(String zillaCpus, String otherCpus, ProcessHandle broker) throws IOException, InterruptedException
    {
        taskset("-a", "-p", "-c", otherCpus, String.valueOf(broker.pid()));
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task")))
        {
            for (Path task : tasks.toList())
            {
                final String name = Files.readString(task.resolve("comm")).trim();
                final boolean worker = name.startsWith(ZillaKafkaProxy.WORKER_THREAD_PREFIX);
                taskset("-p", "-c", worker ? zillaCpus : otherCpus, task.getFileName().toString());
            }
        }
    }

    /**
     * Pins the calling thread alone to {@code cpus}: a client thread started by this JVM, moved off the cores it
     * inherited (say the consumer, onto a core apart from the broker's, as a consumer on its own host).
     */
    static void pinCurrentThread(String cpus) throws IOException, InterruptedException
    {
        // /proc/thread-self links to <pid>/task/<tid>
        final String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        taskset("-p", "-c", cpus, tid);
    }

    private static void taskset(String... args) throws IOException, InterruptedException
    {
        final List<String> command = Stream.concat(Stream.of("taskset"), Stream.of(args)).toList();
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            // a thread that ended meanwhile cannot be pinned, and needs not be
            process.destroyForcibly();
        }
    }
}
