/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;

import io.zilla.engine.binding.signal.Doorbell;

/**
 * The topics of one cache (one {@code cache_server} binding), shared by every worker: a topic is looked up, or made,
 * by name from any worker, and always comes back the same. Its owner is the worker its name hashes to, so that the
 * topics spread over the workers while each topic is fetched once, by one worker, through that worker's own exit
 * (streams never cross workers here; docs/bindings/kafka-cache.md).
 */
public final class CacheRegistry
{
    private final Path directory;
    private final CacheConfig config;
    private final int workers;
    private final Map<String, CacheTopic> topics = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<Doorbell> servers;
    private final List<Queue<CacheTopic>> requests;

    /** @param directory where the topics' partitions keep their segments */
    public CacheRegistry(Path directory, CacheConfig config, int workers)
    {
        if (workers < 1)
        {
            throw new IllegalArgumentException("workers: at least 1, not " + workers);
        }
        this.directory = directory;
        this.config = config;
        this.workers = workers;
        this.servers = new AtomicReferenceArray<>(workers);
        final List<Queue<CacheTopic>> queues = new ArrayList<>(workers);
        for (int worker = 0; worker < workers; worker++)
        {
            queues.add(new ConcurrentLinkedQueue<>());
        }
        this.requests = List.copyOf(queues);
        clear(directory);
    }

    /**
     * The doorbell of worker {@code worker}'s cache_server: rung when a topic it owns is asked for. Topics asked for
     * before it was given wait in the worker's queue, so the worker polls once after giving it.
     */
    public void server(int worker, Doorbell doorbell)
    {
        servers.set(worker, doorbell);
    }

    /**
     * Asks for a topic to be fetched, from any worker: the first ask queues it for its owner and rings the owner's
     * doorbell; later asks only return it. Allocates on the first ask of a topic only.
     */
    public CacheTopic request(String name)
    {
        final CacheTopic topic = topic(name);
        if (topic.request())
        {
            requests.get(topic.owner()).offer(topic);
            final Doorbell server = servers.get(topic.owner());
            if (server != null)
            {
                server.ring();
            }
        }
        return topic;
    }

    /** The next topic asked of worker {@code worker}, or null; called by that worker's cache_server. */
    public CacheTopic pollRequest(int worker)
    {
        return requests.get(worker).poll();
    }

    public Path directory()
    {
        return directory;
    }

    public CacheConfig config()
    {
        return config;
    }

    /** The topic of this name, made on first use. From any thread. */
    public CacheTopic topic(String name)
    {
        return topics.computeIfAbsent(name, n -> new CacheTopic(n, owner(n), workers));
    }

    // the cache is rebuilt from Kafka: whatever an earlier run left is removed before this one writes
    private static void clear(Path directory)
    {
        if (Files.exists(directory))
        {
            try (Stream<Path> paths = Files.walk(directory))
            {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    if (!path.equals(directory))
                    {
                        Files.delete(path);
                    }
                }
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException("cannot empty the cache directory " + directory, ex);
            }
        }
    }

    /** The worker that owns a topic of this name: the same for the same name, whoever asks. */
    public int owner(String topic)
    {
        return Math.floorMod(topic.hashCode(), workers);
    }
}
