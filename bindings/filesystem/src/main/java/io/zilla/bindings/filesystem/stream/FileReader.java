/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.filesystem.stream;

import java.util.concurrent.locks.LockSupport;

import io.zilla.engine.binding.signal.Doorbell;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

/**
 * One worker's file reader: a thread of its own that performs the blocking part of every file stream of that worker
 * (ARCHITECTURE.md 4: no blocking call on a worker). The worker offers a {@link FileRead} and unparks the thread;
 * the thread performs it, offers it back and rings the worker's doorbell, on which the worker takes back what is
 * done. Both queues are single-producer, single-consumer and allocate nothing; a stream has at most one request out,
 * so the way back has room for every request that went out. An idle reader is parked and costs no CPU.
 */
final class FileReader implements Runnable
{
    private final OneToOneConcurrentArrayQueue<FileRead> requests;
    private final OneToOneConcurrentArrayQueue<FileRead> results;
    private final Thread thread;
    private Doorbell doorbell;
    private volatile boolean running = true;

    FileReader(String name, int capacity)
    {
        this.requests = new OneToOneConcurrentArrayQueue<>(capacity);
        this.results = new OneToOneConcurrentArrayQueue<>(requests.capacity());
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
    }

    /** Starts the thread, which rings {@code doorbell} when it has results. */
    void start(Doorbell doorbell)
    {
        this.doorbell = doorbell;
        thread.start();
    }

    /** On the worker: hands {@code read} to the reader; false when as many requests as it holds are waiting. */
    boolean submit(FileRead read)
    {
        final boolean offered = requests.offer(read);
        if (offered)
        {
            LockSupport.unpark(thread);
        }
        return offered;
    }

    /** On the worker: the next request done, or null. */
    FileRead poll()
    {
        return results.poll();
    }

    /** On the worker, as it stops: the thread ends after the request it is performing. */
    void close()
    {
        running = false;
        LockSupport.unpark(thread);
    }

    @Override
    public void run()
    {
        while (running)
        {
            final FileRead read = requests.poll();
            if (read == null)
            {
                // an unpark since the poll leaves a permit, so a request offered meanwhile is not missed
                LockSupport.park(this);
                continue;
            }
            read.perform();
            while (!results.offer(read))
            {
                // cannot happen (one request per stream, the way back as large as the way out): but never drop one
                Thread.onSpinWait();
            }
            doorbell.ring();
        }
    }
}
