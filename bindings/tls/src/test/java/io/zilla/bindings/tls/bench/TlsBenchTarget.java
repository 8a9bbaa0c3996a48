/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.zilla.bindings.tls.engine.TlsEngineProviders;
import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.test.ThreadStats;

/** A TLS server under test, and what its threads or its process have spent so far. */
abstract class TlsBenchTarget implements AutoCloseable
{
    static final String WORKER_PREFIX = "zilla-worker-";
    static final String TASK_PREFIX = "zilla-tls-task-";

    /** CPU of the server's threads (or process), bytes allocated on zilla's worker. */
    record Usage(long cpuNanos, long allocated, Map<Long, long[]> threads)
    {
        Usage minus(Usage before)
        {
            long cpu = cpuNanos - before.cpuNanos;
            long bytes = allocated - before.allocated;
            if (threads != null)
            {
                // per thread, counting from zero those born meanwhile (the task pool starts threads on demand)
                cpu = 0;
                for (Map.Entry<Long, long[]> entry : threads.entrySet())
                {
                    final long[] earlier = before.threads.getOrDefault(entry.getKey(), new long[2]);
                    cpu += entry.getValue()[0] - earlier[0];
                }
            }
            return new Usage(cpu, bytes, null);
        }
    }

    abstract Usage usage() throws IOException;

    @Override
    public abstract void close() throws Exception;

    /** zilla in-process on one worker: {@code tcp server -> tls server -> echo}, or {@code -> tcp client} to a source. */
    static TlsBenchTarget zilla(String provider, int port, TlsBenchKeys keys, int sourcePort) throws IOException
    {
        return new Zilla(provider, port, keys, sourcePort);
    }

    /** openssl s_server with the same key: plain {@code -accept}, or {@code -WWW} serving its directory's files. */
    static TlsBenchTarget openssl(int port, TlsBenchKeys keys, boolean www) throws IOException, InterruptedException
    {
        return new OpenSsl(port, keys, www);
    }

    private static final class Zilla extends TlsBenchTarget
    {
        private final Path directory;
        private final Engine engine;

        Zilla(String provider, int port, TlsBenchKeys keys, int sourcePort) throws IOException
        {
            final String exit = sourcePort != 0 ? String.join("\n",
                "  exit:",
                "    type: tcp",
                "    kind: client",
                "    options:",
                "      host: 127.0.0.1",
                "      port: " + sourcePort) : String.join("\n",
                "  exit:",
                "    type: echo",
                "    kind: server");
            final String yaml = String.join("\n",
                "---",
                "name: bench",
                "vaults:",
                "  server:",
                "    type: filesystem",
                "    options:",
                "      keys:",
                "        store: " + keys.store(),
                "        type: pkcs12",
                "        password: " + keys.password(),
                "bindings:",
                "  net:",
                "    type: tcp",
                "    kind: server",
                "    options:",
                "      host: 127.0.0.1",
                "      port: " + port,
                "    exit: tls",
                "  tls:",
                "    type: tls",
                "    kind: server",
                "    vault: server",
                "    options:",
                "      keys:",
                "        - localhost",
                "    exit: exit",
                exit,
                "");
            directory = Files.createTempDirectory("zilla-tls-bench-engine-");
            final EngineConfiguration configuration = new EngineConfiguration()
                .with(EngineConfiguration.WORKERS, 1)
                .with(EngineConfiguration.DIRECTORY, directory)
                .with(TlsEngineProviders.PROVIDER, provider);
            engine = Engine.builder().configuration(configuration).config("bench.zilla.yaml", yaml).build();
            engine.start();
        }

        @Override
        Usage usage()
        {
            final ThreadStats worker = ThreadStats.of(WORKER_PREFIX);
            final ThreadStats tasks = ThreadStats.of(TASK_PREFIX);
            final Map<Long, long[]> threads = new HashMap<>(worker.byThread());
            threads.putAll(tasks.byThread());
            return new Usage(worker.cpuNanos() + tasks.cpuNanos(), worker.allocated(), threads);
        }

        @Override
        public void close() throws IOException
        {
            engine.close();
            try (Stream<Path> files = Files.walk(directory))
            {
                files.sorted(Comparator.reverseOrder()).forEach(path ->
                {
                    try
                    {
                        Files.delete(path);
                    }
                    catch (IOException ex)
                    {
                        throw new UncheckedIOException(ex);
                    }
                });
            }
        }
    }

    private static final class OpenSsl extends TlsBenchTarget
    {
        private static final long NANOS_PER_TICK = 1_000_000_000L / 100; // CLK_TCK is 100 on Linux

        private final Process process;

        OpenSsl(int port, TlsBenchKeys keys, boolean www) throws IOException, InterruptedException
        {
            final List<String> command = new ArrayList<>(List.of("openssl", "s_server", "-accept", "127.0.0.1:" + port,
                "-cert", keys.certificate().toString(), "-key", keys.key().toString(), "-quiet"));
            if (www)
            {
                command.add("-WWW");
            }
            process = new ProcessBuilder(command).directory(keys.directory().toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
            // ready when it accepts
            for (int attempt = 0; ; attempt++)
            {
                try (Socket probe = new Socket())
                {
                    probe.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                    break;
                }
                catch (IOException ex)
                {
                    if (attempt == 100 || !process.isAlive())
                    {
                        throw new IOException("s_server did not start", ex);
                    }
                    Thread.sleep(50);
                }
            }
        }

        @Override
        Usage usage() throws IOException
        {
            // /proc/<pid>/stat: utime and stime are the 14th and 15th fields, counted after the command's ")"
            final String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            final long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return new Usage(ticks * NANOS_PER_TICK, 0, null);
        }

        @Override
        public void close() throws InterruptedException
        {
            process.destroy();
            process.waitFor();
        }
    }
}
