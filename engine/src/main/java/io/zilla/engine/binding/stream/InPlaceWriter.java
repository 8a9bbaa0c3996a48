/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.stream;

import io.zilla.engine.binding.MessageConsumer;
import org.agrona.MutableDirectBuffer;

/**
 * A receiver whose frames can be built where they will be read, in the worker's ring, instead of in a scratch
 * buffer that {@link #accept} then copies. {@link StreamFrames} builds Data frames this way, so that a payload
 * is copied once per hop; a binding that sends through StreamFrames needs not know.
 */
public interface InPlaceWriter extends MessageConsumer
{
    /**
     * Reserves room for one frame; {@link #commit} or {@link #abort} must follow before anything else is written.
     *
     * @return where to build the frame in {@link #buffer()}, or a negative value when there is no room now (then
     *         {@link #accept} a copy, which reports the full ring as it reports any other)
     */
    int claim(int msgTypeId, int length);

    /** The buffer that {@link #claim} indexes into. */
    MutableDirectBuffer buffer();

    /** Makes the claimed frame readable. */
    void commit(int index);

    /**
     * Makes the first {@code length} bytes of the claimed frame readable, as a frame of that length, and gives the
     * rest of the claim back: for a frame whose size is known only once it is built, such as a socket read into it.
     */
    void commit(int index, int length);

    /** Gives the claimed room back, unread. */
    void abort(int index);
}
