/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.zilla.bindings.kafka.cache.CacheEntry;
import io.zilla.bindings.kafka.cache.CacheTopic;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.signal.Doorbell;

/**
 * The cache readers of one worker, by topic: one doorbell per topic that the topic's owner rings once per appended
 * batch, whatever the number of readers here, and the streams it then moves. Shared by the worker's cache_client
 * bindings, since a topic keeps one doorbell per worker.
 * <p>
 * A run of the doorbell writes at most {@link #RUN_BUDGET} bytes of frames, then rings itself and goes on with the
 * next reader in the next duty cycle: a thousand readers each with a 64 KiB window would otherwise put 64 MiB into
 * the worker's ring at once. The engine runs doorbells only while the ring holds less than a sixteenth of it, so
 * the readers go as fast as the ring is drained and no faster. A reader given credit or just opened asks for a run
 * too, rather than writing from within the frame that told it.
 */
final class KafkaCacheReaders
{
    /** The most bytes of frames one run of a topic's doorbell writes. */
    static final int RUN_BUDGET = 256 * 1024;

    interface Reader
    {
        /**
         * The owner appended records, published a partition or an error, or the reader was given credit: move on as
         * far as the window allows, and about {@code budget} bytes at most.
         *
         * @return the bytes of frames written
         */
        int onAppended(int budget);

        /** Where the reader is in its topic's list on this worker, kept by the list: a removal costs no search. */
        int slot();

        void slot(int slot);
    }

    private final EngineContext context;
    private final Map<CacheTopic, TopicReaders> topics = new IdentityHashMap<>();
    // the views every cursor of this worker reads its entry through, one at a time: not a set per cursor
    private final CacheEntry entry = new CacheEntry();

    KafkaCacheReaders(EngineContext context)
    {
        this.context = context;
    }

    /** The flyweight the cursors of this worker share. */
    CacheEntry entry()
    {
        return entry;
    }

    void add(CacheTopic topic, Reader reader)
    {
        TopicReaders readers = topics.get(topic);
        if (readers == null)
        {
            readers = new TopicReaders();
            topics.put(topic, readers);
            readers.doorbell = context.supplyDoorbell(readers::onRing);
            topic.readers(context.index(), readers.doorbell);
        }
        reader.slot(readers.readers.size());
        readers.readers.add(reader);
        readers.doorbell.ring();
    }

    /** A reader of the topic has something to do (credit, a begin): the topic's next run moves it. */
    void wake(CacheTopic topic)
    {
        final TopicReaders readers = topics.get(topic);
        if (readers != null)
        {
            readers.doorbell.ring();
        }
    }

    void remove(CacheTopic topic, Reader reader)
    {
        final TopicReaders readers = topics.get(topic);
        if (readers != null)
        {
            readers.remove(reader);
        }
    }

    private static final class TopicReaders
    {
        private final List<Reader> readers = new ArrayList<>();
        private Doorbell doorbell;
        private int next;

        // every reader once, from where the last run stopped, until the budget is spent; then the rest next cycle.
        // A reader that leaves during its turn swaps in the last one, which may then wait for the next run.
        private void onRing()
        {
            int budget = RUN_BUDGET;
            final int count = readers.size();
            for (int visited = 0; visited < count && budget > 0 && !readers.isEmpty(); visited++)
            {
                if (next >= readers.size())
                {
                    next = 0;
                }
                budget -= readers.get(next++).onAppended(budget);
            }
            if (budget <= 0)
            {
                doorbell.ring();
            }
        }

        private void remove(Reader reader)
        {
            final int index = reader.slot();
            if (index >= 0 && index < readers.size() && readers.get(index) == reader)
            {
                final int last = readers.size() - 1;
                final Reader moved = readers.get(last);
                readers.set(index, moved);
                moved.slot(index);
                readers.remove(last);
                reader.slot(-1);
                // the last reader moved to a place a run under way may have passed: one more run sees it
                doorbell.ring();
            }
        }
    }
}
