/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;

/**
 * What the app streams of one capability factory read their frames with (the read-only flyweights) and write them with
 * (the factory's {@link StreamFrames} and its {@link KafkaClientReset}). One per factory, shared by all its streams:
 * a binding context runs on one worker thread, and a flyweight is read only within the call that wrapped it, so the
 * streams of a factory never see one another's frame. Not shared across factories: MERGED's own app stream may still
 * be reading its frame when it writes to the FETCH or PRODUCE streams of its binding.
 */
final class KafkaClientAppFrames
{
    final BeginFW beginRO = new BeginFW();
    final DataFW dataRO = new DataFW();
    final FlushFW flushRO = new FlushFW();
    final EndFW endRO = new EndFW();
    final AbortFW abortRO = new AbortFW();
    final WindowFW windowRO = new WindowFW();
    final ResetFW resetRO = new ResetFW();
    final SignalFW signalRO = new SignalFW();

    final StreamFrames frames;
    final KafkaClientReset reset = new KafkaClientReset();

    KafkaClientAppFrames(StreamFrames frames)
    {
        this.frames = frames;
    }
}
