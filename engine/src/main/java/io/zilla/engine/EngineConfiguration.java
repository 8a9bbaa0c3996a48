/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * The engine's settings, from properties ({@code zilla start -P name=value}, or system properties). Each
 * has a default that suits a small machine; docs/engine.md lists them.
 */
public final class EngineConfiguration
{
    public static final String WORKERS = "zilla.engine.workers";
    public static final String DIRECTORY = "zilla.engine.directory";
    public static final String RING_CAPACITY = "zilla.engine.ring.capacity";
    public static final String BUFFER_SLOT_CAPACITY = "zilla.engine.buffer.slot.capacity";
    public static final String BUFFER_SLOTS = "zilla.engine.buffer.slots";
    public static final String COUNTERS_CAPACITY = "zilla.engine.counters.capacity";
    public static final String HISTOGRAMS_CAPACITY = "zilla.engine.histograms.capacity";
    public static final String EVENTS_CAPACITY = "zilla.engine.events.capacity";
    public static final String IDLE_SPINS = "zilla.engine.idle.spins";
    public static final String IDLE_YIELDS = "zilla.engine.idle.yields";
    public static final String IDLE_PARK_MAX_MILLIS = "zilla.engine.idle.park.max.millis";
    public static final String EXCEPTION_TRACES = "zilla.engine.exception.traces";
    public static final String STREAMS_PER_CONNECTION = "zilla.engine.streams.per.connection";
    public static final String DOORBELLS = "zilla.engine.doorbells";
    public static final String HEALTH_PORT = "zilla.engine.health.port";
    public static final String HEALTH_HOST = "zilla.engine.health.host";
    public static final String HEALTH_STALL_MILLIS = "zilla.engine.health.stall.millis";

    private final Properties properties;

    public EngineConfiguration()
    {
        this(new Properties());
    }

    public EngineConfiguration(Properties properties)
    {
        this.properties = new Properties();
        System.getProperties().forEach((k, v) ->
        {
            if (k.toString().startsWith("zilla."))
            {
                this.properties.put(k, v);
            }
        });
        this.properties.putAll(properties);
    }

    public EngineConfiguration with(String name, Object value)
    {
        final Properties copy = new Properties();
        copy.putAll(properties);
        copy.setProperty(name, String.valueOf(value));
        return new EngineConfiguration(copy);
    }

    public EngineConfiguration with(Map<String, String> values)
    {
        final Properties copy = new Properties();
        copy.putAll(properties);
        copy.putAll(values);
        return new EngineConfiguration(copy);
    }

    /** The number of workers: single-threaded agents, one per core by default. */
    public int workers()
    {
        return intValue(WORKERS, Runtime.getRuntime().availableProcessors());
    }

    /** Where the rings, counters and events are memory-mapped; {@code zilla metrics} reads them there. */
    public Path directory()
    {
        return Path.of(properties.getProperty(DIRECTORY, ".zilla/engine"));
    }

    /** Bytes of each worker's inbound ring, a power of two (the ring's trailer is added to it). */
    public int ringCapacity()
    {
        return intValue(RING_CAPACITY, 16 * 1024 * 1024);
    }

    public int bufferSlotCapacity()
    {
        return intValue(BUFFER_SLOT_CAPACITY, 64 * 1024);
    }

    /** Slots in each worker's buffer pool. */
    public int bufferSlots()
    {
        return intValue(BUFFER_SLOTS, 1024);
    }

    /** Bytes for the values of each worker's counters (the metadata takes twice as much). */
    public int countersCapacity()
    {
        return intValue(COUNTERS_CAPACITY, 64 * 1024);
    }

    /** Histograms each worker's histograms file holds (768 bytes each); more record in memory only. */
    public int histogramsCapacity()
    {
        return intValue(HISTOGRAMS_CAPACITY, 256);
    }

    /** Bytes of the event ring, a power of two. */
    public int eventsCapacity()
    {
        return intValue(EVENTS_CAPACITY, 1024 * 1024);
    }

    /**
     * Passes with nothing to do that an idle worker spins through before it blocks in select. None by default: on
     * cores shared with other processes (the broker, the clients) a worker that spins or yields holds a core they
     * need and, once it has yielded, waits for a core where a blocked worker would be woken at once; spinning pays
     * off only on a core of its own.
     */
    public int idleSpins()
    {
        return intValue(IDLE_SPINS, 0);
    }

    /** Passes with nothing to do that an idle worker yields its core in, after spinning and before it blocks. */
    public int idleYields()
    {
        return intValue(IDLE_YIELDS, 0);
    }

    /** The longest an idle worker blocks in select before it looks at its ring and timers again. */
    public long idleParkMaxMillis()
    {
        return intValue(IDLE_PARK_MAX_MILLIS, 100);
    }

    /**
     * The port of the health endpoint ({@code /health/live}, {@code /health/ready}), or -1: off, the default. Port 0
     * lets the system choose one.
     */
    public int healthPort()
    {
        final int port = intValue(HEALTH_PORT, -1);
        if (port < -1 || port > 65535)
        {
            throw new IllegalArgumentException(HEALTH_PORT + ": must be a port, 0 to 65535, not " + port);
        }
        return port;
    }

    /** The address the health endpoint listens on: every interface by default, as the exporters do. */
    public String healthHost()
    {
        return properties.getProperty(HEALTH_HOST, "0.0.0.0").trim();
    }

    /**
     * How long a worker may go without a pass of its loop before {@code /health/live} calls it stalled. It must be
     * longer than {@link #idleParkMaxMillis()}, the longest an idle worker blocks between passes.
     */
    public long healthStallMillis()
    {
        final long stall = intValue(HEALTH_STALL_MILLIS, 5000);
        if (stall <= idleParkMaxMillis())
        {
            throw new IllegalArgumentException(HEALTH_STALL_MILLIS + ": must be more than " + IDLE_PARK_MAX_MILLIS + " ("
                + idleParkMaxMillis() + "), the longest an idle worker waits between passes, not " + stall);
        }
        return stall;
    }

    /**
     * The most doorbells one worker may have ({@link io.zilla.engine.binding.EngineContext#supplyDoorbell}): the room
     * of its queue of rung doorbells, in which each doorbell stands once at most, so a ring never finds it full.
     */
    public int doorbells()
    {
        final int doorbells = intValue(DOORBELLS, 65536);
        if (doorbells < 1)
        {
            throw new IllegalArgumentException(DOORBELLS + ": must be at least 1, not " + doorbells);
        }
        return doorbells;
    }

    /**
     * The most streams one inbound connection may have open at once: its own and every stream opened, binding after
     * binding, because of it. Enough for any graph that does not loop (an HTTP/2 connection's 100 concurrent requests
     * each through a few bindings, say); a graph that loops at run time reaches it and is refused there.
     */
    public int streamsPerConnection()
    {
        final int streams = intValue(STREAMS_PER_CONNECTION, 8192);
        if (streams < 1)
        {
            throw new IllegalArgumentException(STREAMS_PER_CONNECTION + ": must be at least 1, not " + streams);
        }
        return streams;
    }

    /**
     * Whether the events of faults (a binding that threw on a stream, a channel that failed) carry the exception's
     * whole stack trace, rather than its first line and where it was thrown; {@code zilla start -e} sets it.
     */
    public boolean exceptionTraces()
    {
        return Boolean.parseBoolean(properties.getProperty(EXCEPTION_TRACES, "false").trim());
    }

    public String property(String name, String defaultValue)
    {
        return properties.getProperty(name, defaultValue);
    }

    public int intValue(String name, int defaultValue)
    {
        final String value = properties.getProperty(name);
        if (value == null)
        {
            return defaultValue;
        }
        try
        {
            return Integer.parseInt(value.trim());
        }
        catch (NumberFormatException ex)
        {
            throw new IllegalArgumentException(name + ": '" + value + "' is not an integer", ex);
        }
    }
}
