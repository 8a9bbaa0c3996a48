/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.stream;

/**
 * The streams open now that one inbound connection caused: the stream a binding opened from no other (a tcp server's
 * accepted connection), every stream a binding opened while it handled a frame of one of these, and so on. A graph
 * of bindings that loops at run time (the config's checks catch the loops they can see) makes one connection open
 * streams without end; counting them per tree lets the engine refuse the rest, and only that connection's.
 */
final class StreamTree
{
    /** The streams of the tree not yet forgotten by the dispatcher, the first one included. */
    int streams;

    /** Whether the cap was reported already: one event per tree, however many streams it then refuses. */
    boolean capped;

    StreamTree init()
    {
        streams = 0;
        capped = false;
        return this;
    }
}
