/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding;

import org.agrona.DirectBuffer;

/** Accepts the streams opened toward one binding. */
@FunctionalInterface
public interface BindingHandler
{
    /**
     * A Begin arrived for a new stream whose routedId is this binding.
     *
     * @param sender where this binding writes the frames it sends on the stream: the Window and Reset of
     *        the initial direction, and the whole reply direction
     * @return the consumer that receives this stream's frames (starting with this Begin), or null to refuse
     *         the stream (the engine answers with a Reset)
     */
    MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender);
}
