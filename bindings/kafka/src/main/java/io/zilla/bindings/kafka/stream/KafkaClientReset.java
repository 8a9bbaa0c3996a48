/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.kafka.types.stream.KafkaResetExFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The Reset that ends an app's initial stream on every capability of the kafka client: with a KafkaResetEx carrying
 * Kafka's own error code, so that a mapping can answer in its protocol's terms, or without an extension when the stream
 * ends with no error. One per factory, reused stream after stream.
 */
final class KafkaClientReset
{
    // a KafkaResetEx without a reason: type id, error code and a null string16
    private static final int EXTENSION_CAPACITY = 64;

    private final KafkaResetExFW.Builder resetExRW = new KafkaResetExFW.Builder();
    private final MutableDirectBuffer extensionBuffer = new UnsafeBuffer(new byte[EXTENSION_CAPACITY]);

    void reset(StreamFrames frames, MessageConsumer app, long originId, long routedId, long initialId, long sequence,
        long acknowledge, int maximum, long traceId, short error)
    {
        if (error == KafkaClientTopic.NONE)
        {
            frames.reset(app, originId, routedId, initialId, sequence, acknowledge, maximum, traceId, null, 0, 0);
        }
        else
        {
            final KafkaResetExFW resetEx = resetExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .typeId(KafkaBinding.TYPE_ID)
                .error(error)
                .build();
            frames.reset(app, originId, routedId, initialId, sequence, acknowledge, maximum, traceId,
                resetEx.buffer(), resetEx.offset(), resetEx.sizeof());
        }
    }
}
