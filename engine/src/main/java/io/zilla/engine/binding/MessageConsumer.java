/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding;

import org.agrona.DirectBuffer;

/** Receives one frame: its type id (a frame's TYPE_ID in core.idl) and where its bytes are. */
@FunctionalInterface
public interface MessageConsumer
{
    MessageConsumer NOOP = (msgTypeId, buffer, index, length) ->
    {
    };

    void accept(int msgTypeId, DirectBuffer buffer, int index, int length);
}
