/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import io.zilla.omb.config.KeyDistributorType;

/**
 * One producer's message keys, as OMB's key distributors: none ({@code NO_KEY}), a fixed set of 10,000 keys in turn
 * ({@code KEY_ROUND_ROBIN}), or one of them picked by the clock ({@code RANDOM_NANO}). Used by one thread.
 */
final class KeyDistributor
{
    private static final int KEYS = 10_000;

    private final KeyDistributorType type;
    private final List<Optional<String>> keys = new ArrayList<>();
    private int next;

    KeyDistributor(KeyDistributorType type, long seed)
    {
        this.type = type;
        if (type != KeyDistributorType.NO_KEY)
        {
            final Random random = new Random(seed);
            for (int i = 0; i < KEYS; i++)
            {
                keys.add(Optional.of(Long.toString(random.nextLong() & Long.MAX_VALUE, Character.MAX_RADIX)));
            }
        }
    }

    Optional<String> next()
    {
        switch (type)
        {
            case KEY_ROUND_ROBIN:
                next = next + 1 == KEYS ? 0 : next + 1;
                return keys.get(next);
            case RANDOM_NANO:
                return keys.get((int) ((System.nanoTime() & Long.MAX_VALUE) % KEYS));
            default:
                return Optional.empty();
        }
    }
}
