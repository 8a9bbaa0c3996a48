/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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

    /** The worker that owns a topic of this name: the same for the same name, whoever asks. */
    public int owner(String topic)
    {
        return Math.floorMod(topic.hashCode(), workers);
    }
}
