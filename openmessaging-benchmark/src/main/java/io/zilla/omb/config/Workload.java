/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One OMB workload file: what to create (topics, partitions, subscriptions) and the load to put on it.
 * <p>
 * The fields and their defaults are OMB's. Durations are {@code testDurationMinutes} and {@code warmupDurationMinutes}
 * as in OMB, or, our extension for short runs, {@code testDurationSeconds} and {@code warmupDurationSeconds}; one
 * phase given both ways is rejected. A test duration of 0 runs until the benchmark is stopped, as in OMB
 * ({@link #runsUntilStopped()}). {@code producerRate: 0} asks for the maximum sustainable rate. The counts (topics,
 * partitions, subscriptions, consumers, producers) have no cap of ours: OMB ships a workload of a million topics.
 * {@code randomizedPayloadPoolSize: 0}, OMB's default, means ours (1000 variants). A relative {@code payloadFile} is
 * looked up in the working directory, as OMB does, then in each directory above the workload file (so that OMB's
 * {@code payload/payload-1Kb.data} resolves from the module and from the repository root); its size must equal
 * {@code messageSize}.
 *
 * @param payloadFile the resolved payload file, or null to generate random bytes
 */
public record Workload(
    String name,
    int topics,
    int partitionsPerTopic,
    KeyDistributorType keyDistributor,
    int messageSize,
    Path payloadFile,
    boolean useRandomizedPayloads,
    double randomBytesRatio,
    int randomizedPayloadPoolSize,
    int subscriptionsPerTopic,
    int consumerPerSubscription,
    int producersPerTopic,
    double producerRate,
    double consumerBacklogSizeGB,
    double backlogDrainRatio,
    Duration testDuration,
    Duration warmupDuration)
{
    /** The first bytes of every payload hold the send time ({@link System#nanoTime()}) for the end-to-end latency. */
    public static final int MIN_MESSAGE_SIZE = Long.BYTES;
    public static final int MAX_MESSAGE_SIZE = 64 << 20;

    private static final int DEFAULT_POOL_SIZE = 1_000;
    private static final long MAX_MINUTES = 7 * 24 * 60;

    public Workload
    {
        if (testDuration.isNegative())
        {
            throw new InvalidConfigException(name + ": the test duration must not be negative, was " + testDuration);
        }
    }

    /** Whether the test phase runs until the benchmark is stopped: a test duration of 0, as OMB reads it. */
    public boolean runsUntilStopped()
    {
        return testDuration.isZero();
    }

    /** The same workload with other durations (tests and quick looks). */
    public Workload withDurations(Duration warmup, Duration test)
    {
        return new Workload(name, topics, partitionsPerTopic, keyDistributor, messageSize, payloadFile, useRandomizedPayloads,
            randomBytesRatio, randomizedPayloadPoolSize, subscriptionsPerTopic, consumerPerSubscription, producersPerTopic,
            producerRate, consumerBacklogSizeGB, backlogDrainRatio, test, warmup);
    }

    /** The same workload at another producer rate, 0 for the maximum rate search. */
    public Workload withProducerRate(double rate)
    {
        return new Workload(name, topics, partitionsPerTopic, keyDistributor, messageSize, payloadFile, useRandomizedPayloads,
            randomBytesRatio, randomizedPayloadPoolSize, subscriptionsPerTopic, consumerPerSubscription, producersPerTopic,
            rate, consumerBacklogSizeGB, backlogDrainRatio, testDuration, warmupDuration);
    }

    public static Workload read(Path file)
    {
        final Path directory = file.toAbsolutePath().getParent();
        return read(YamlFields.read(file), directory);
    }

    /** Parses workload YAML; a relative payload file is resolved against the working directory and {@code directory}. */
    public static Workload parse(String source, String yaml, Path directory)
    {
        return read(YamlFields.parse(source, yaml), directory);
    }

    private static Workload read(YamlFields fields, Path directory)
    {
        final String name = fields.requiredString("name");
        final int topics = fields.intValue("topics", 1, 1, Integer.MAX_VALUE);
        final int partitions = fields.intValue("partitionsPerTopic", 1, 1, Integer.MAX_VALUE);
        final KeyDistributorType keys = keyDistributor(fields);
        final int messageSize = fields.intValue("messageSize", 1024, MIN_MESSAGE_SIZE, MAX_MESSAGE_SIZE);
        final boolean randomized = fields.booleanValue("useRandomizedPayloads", false);
        final double randomBytesRatio = fields.doubleValue("randomBytesRatio", 0.0, 0.0, 1.0);
        // 0, the value OMB has when the field is absent, means our default
        final int givenPoolSize = fields.intValue("randomizedPayloadPoolSize", 0, 0, 1_000_000);
        final int poolSize = givenPoolSize > 0 ? givenPoolSize : randomized ? DEFAULT_POOL_SIZE : 1;
        final int subscriptions = fields.intValue("subscriptionsPerTopic", 1, 0, Integer.MAX_VALUE);
        final int consumers = fields.intValue("consumerPerSubscription", 1, 0, Integer.MAX_VALUE);
        final int producers = fields.intValue("producersPerTopic", 1, 1, Integer.MAX_VALUE);
        final double rate = fields.doubleValue("producerRate", 10_000, 0, 1e9);
        // OMB's field is whole GB; a fraction is accepted too, for short runs
        final double backlog = fields.doubleValue("consumerBacklogSizeGB", 0, 0, 1 << 20);
        // the share of the backlog drained before the test may end: 1.0 drains it all
        final double drain = fields.doubleValue("backlogDrainRatio", 1.0, Double.MIN_VALUE, 1.0);
        // 0 runs until stopped, as in OMB
        final Duration test = duration(fields, "test", 15);
        final Duration warmup = duration(fields, "warmup", 1);
        if (subscriptions > 0 && consumers == 0)
        {
            throw fields.invalid("consumerPerSubscription", "must be at least 1 when subscriptionsPerTopic is "
                + subscriptions);
        }
        final Path payload = payloadFile(fields, directory, messageSize, randomized);
        return new Workload(name, topics, partitions, keys, messageSize, payload, randomized, randomBytesRatio, poolSize,
            subscriptions, consumers, producers, rate, backlog, drain, test, warmup);
    }

    private static KeyDistributorType keyDistributor(YamlFields fields)
    {
        final String value = fields.string("keyDistributor", KeyDistributorType.NO_KEY.name());
        try
        {
            return KeyDistributorType.valueOf(value.toUpperCase(Locale.ROOT));
        }
        catch (IllegalArgumentException ex)
        {
            throw fields.invalid("keyDistributor", "expected one of " + List.of(KeyDistributorType.values()) + ", was " + value);
        }
    }

    private static Duration duration(YamlFields fields, String phase, long defaultMinutes)
    {
        final String minutes = phase + "DurationMinutes";
        final String seconds = phase + "DurationSeconds";
        if (fields.has(minutes) && fields.has(seconds))
        {
            throw fields.invalid(seconds, "give " + minutes + " or " + seconds + ", not both");
        }
        if (fields.has(seconds))
        {
            return Duration.ofSeconds(fields.longValue(seconds, 0, 0, MAX_MINUTES * 60));
        }
        return Duration.ofMinutes(fields.longValue(minutes, defaultMinutes, 0, MAX_MINUTES));
    }

    private static Path payloadFile(YamlFields fields, Path directory, int messageSize, boolean randomized)
    {
        final String value = fields.string("payloadFile", null);
        if (value == null || value.isBlank())
        {
            return null;
        }
        final Path given = Path.of(value);
        final List<Path> candidates = new ArrayList<>();
        candidates.add(given.toAbsolutePath());
        if (!given.isAbsolute())
        {
            for (Path dir = directory; dir != null; dir = dir.getParent())
            {
                candidates.add(dir.resolve(given));
            }
        }
        final Path found = candidates.stream().filter(Files::isRegularFile).findFirst().orElse(null);
        if (found == null)
        {
            if (randomized)
            {
                return null;
            }
            throw fields.invalid("payloadFile", "no such file: " + value + " (looked in " + candidates + ")");
        }
        final long size;
        try
        {
            size = Files.size(found);
        }
        catch (IOException ex)
        {
            throw fields.invalid("payloadFile", "cannot read " + found + ": " + ex.getMessage());
        }
        if (size != messageSize)
        {
            throw fields.invalid("payloadFile", found + " has " + size + " bytes but messageSize is " + messageSize);
        }
        return found;
    }
}
