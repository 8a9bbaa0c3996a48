/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/benchmark-worker}: one worker process of a distributed run, as OMB's: it serves the worker HTTP API until
 * it is stopped (Ctrl-C, SIGTERM) and holds the producers and consumers the coordinator ({@code bin/benchmark --workers
 * ...}) asks for.
 */
@Command(name = "benchmark-worker", mixinStandardHelpOptions = true,
    description = "Serves OpenMessaging Benchmark's worker HTTP API: producers and consumers for a coordinator "
        + "(benchmark --workers http://host:port,...).")
public final class BenchmarkWorker implements Callable<Integer>
{
    @Option(names = {"-p", "--port"}, defaultValue = "8080", paramLabel = "PORT",
        description = "HTTP port to listen on, 0 for any free one (default: ${DEFAULT-VALUE}, as OMB)")
    private int port;

    @Option(names = {"-a", "--address"}, defaultValue = "0.0.0.0", paramLabel = "ADDRESS",
        description = "address to listen on (default: ${DEFAULT-VALUE}, every interface, as OMB)")
    private String address;

    public static void main(String... args)
    {
        final int exit = new CommandLine(new BenchmarkWorker()).execute(args);
        if (exit != 0)
        {
            System.exit(exit);
        }
    }

    @Override
    public Integer call() throws Exception
    {
        final WorkerServer server = new WorkerServer(new InetSocketAddress(address, port), System.out::println);
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            try
            {
                server.close();
            }
            catch (Exception ex)
            {
                System.err.println("benchmark-worker: stopping: " + ex);
            }
            stopped.countDown();
        }, "benchmark-worker-stop"));
        // the line a script (or a test) waits for, with the port when the system chose it
        System.out.println("benchmark-worker listening on " + address + ":" + server.port());
        stopped.await();
        return 0;
    }
}
