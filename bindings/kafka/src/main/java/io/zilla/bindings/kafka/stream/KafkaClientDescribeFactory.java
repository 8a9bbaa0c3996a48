/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.kafka.codec.ApiVersionRanges;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaDescribeBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;

/**
 * DESCRIBE streams: an application follows a topic's configuration (all of it, or the names its Begin lists).
 * DescribeConfigs goes on the bootstrap control connection; its first answer begins the reply and comes as a reply
 * Data (empty payload, {@code KafkaDataEx describe} with the names and values), then the stream asks again every
 * poll interval (the metadata max age) and sends a new Data only when a value changed, as credit allows. A failed
 * connection is retried with a backoff; UNKNOWN_TOPIC_OR_PARTITION, like every other error, resets the stream with a
 * {@code KafkaResetEx} carrying it. The application's End ends it.
 */
final class KafkaClientDescribeFactory
{
    static final int SIGNAL_POLL = 1;

    /** DescribeConfigs' resource type of a topic. */
    private static final byte TOPIC = 2;

    private static final DirectBuffer EMPTY = new UnsafeBuffer(new byte[0]);

    private final KafkaClientAppFrames io;
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
    private final KafkaDataExFW.Builder dataExRW = new KafkaDataExFW.Builder();
    private final MutableDirectBuffer extensionBuffer;

    private final StreamFrames frames;
    private final KafkaClientConnectionPool pool;
    private final Signaler signaler;
    private final long interval;
    private final Long2ObjectHashMap<DescribeStream> streams = new Long2ObjectHashMap<>();

    KafkaClientDescribeFactory(EngineContext context, StreamFrames frames, KafkaClientConnectionPool pool, long interval)
    {
        this.frames = frames;
        this.io = new KafkaClientAppFrames(frames);
        this.pool = pool;
        this.signaler = context.signaler();
        this.interval = interval;
        this.extensionBuffer = new UnsafeBuffer(new byte[context.writeBuffer().capacity() >> 1]);
    }

    /** DescribeConfigs: v1 is the first that kafka-clients still writes; the newest versions are flexible. */
    static void supports(ApiVersionRanges ranges)
    {
        final DescribeConfigsRequestData request = new DescribeConfigsRequestData();
        ranges.supports(KafkaApis.DESCRIBE_CONFIGS, request.lowestSupportedVersion(), request.highestSupportedVersion());
    }

    MessageConsumer newStream(BeginFW begin, KafkaDescribeBeginExFW beginEx, MessageConsumer sender)
    {
        MessageConsumer receiver = null;
        final String topic = beginEx.topic().asString();
        if (pool != null && topic != null && !topic.isEmpty())
        {
            final List<String> names = new ArrayList<>();
            beginEx.configs().forEach(c -> names.add(c.name().asString()));
            final DescribeStream stream = new DescribeStream(sender, begin.originId(), begin.routedId(), begin.streamId(),
                topic, names);
            streams.put(stream.initialId, stream);
            receiver = stream::onAppMessage;
        }
        return receiver;
    }

    void close(long traceId)
    {
        KafkaClientAppStream.abortAll(streams, traceId);
    }

    private final class DescribeStream extends KafkaClientAppStream implements KafkaClientRequest
    {
        private final String topic;
        private final List<String> names;

        private Map<String, String> configs;
        private boolean changed;
        private boolean inflight;
        private long backoff = KafkaClientMetaFactory.RETRY_BACKOFF_MIN;
        private long timerId = Signaler.NO_CANCEL_ID;

        DescribeStream(MessageConsumer app, long originId, long routedId, long initialId, String topic, List<String> names)
        {
            super(io, app, originId, routedId, initialId);
            this.topic = topic;
            this.names = List.copyOf(names);
        }

        // a DESCRIBE stream carries no Data or Flush from the application: the defaults ignore them
        @Override
        void onAppBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            frames.window(app, originId, routedId, initialId, initialSeq, initialAck, 0, traceId, 0L, 0);
            doDescribe(traceId);
        }

        @Override
        void onAppWindow(WindowFW window)
        {
            super.onAppWindow(window);
            doReplyData(window.traceId());
        }

        @Override
        void onSignal(SignalFW signal)
        {
            timerId = Signaler.NO_CANCEL_ID;
            if (!replyClosed)
            {
                doDescribe(signal.traceId());
            }
        }

        private void doDescribe(long traceId)
        {
            if (!inflight)
            {
                inflight = true;
                final KafkaClientConnection connection = pool.supply(KafkaClientConnectionPool.BOOTSTRAP,
                    KafkaClientConnectionPool.Purpose.CONTROL, traceId);
                if (connection != null)
                {
                    connection.send(this, traceId);
                }
                else
                {
                    onFailed(NETWORK_EXCEPTION, traceId);
                }
            }
        }

        @Override
        public short apiKey()
        {
            return KafkaApis.DESCRIBE_CONFIGS;
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            final DescribeConfigsRequestData.DescribeConfigsResource resource =
                new DescribeConfigsRequestData.DescribeConfigsResource()
                    .setResourceType(TOPIC)
                    .setResourceName(topic)
                    // null asks for every entry
                    .setConfigurationKeys(names.isEmpty() ? null : names);
            final DescribeConfigsRequestData request = new DescribeConfigsRequestData()
                .setResources(List.of(resource))
                .setIncludeSynonyms(false)
                .setIncludeDocumentation(false);
            return KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            DescribeConfigsResponseData response;
            try
            {
                response = new DescribeConfigsResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
            }
            catch (RuntimeException ex)
            {
                // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
                response = null;
            }
            final boolean readable = response != null && response.results().size() == 1;
            if (readable)
            {
                inflight = false;
                onDescribed(response.results().get(0), traceId);
            }
            return readable;
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            inflight = false;
            if (replyClosed)
            {
                cleanup();
            }
            else if (KafkaClientMetaFactory.isRetriable(error))
            {
                schedule(traceId, backoff);
                backoff = Math.min(backoff << 1, KafkaClientMetaFactory.RETRY_BACKOFF_MAX);
            }
            else
            {
                doAbortAll(traceId, error);
            }
        }

        private void onDescribed(DescribeConfigsResponseData.DescribeConfigsResult result, long traceId)
        {
            if (replyClosed)
            {
                cleanup();
            }
            else if (result.errorCode() != KafkaClientTopic.NONE)
            {
                onFailed(result.errorCode(), traceId);
            }
            else
            {
                backoff = KafkaClientMetaFactory.RETRY_BACKOFF_MIN;
                final Map<String, String> described = new LinkedHashMap<>();
                for (DescribeConfigsResponseData.DescribeConfigsResourceResult config : result.configs())
                {
                    described.put(config.name(), config.value());
                }
                if (!Objects.equals(described, configs))
                {
                    configs = described;
                    changed = true;
                }
                doReplyBegin(traceId);
                doReplyData(traceId);
                schedule(traceId, interval);
            }
        }

        private void schedule(long traceId, long delay)
        {
            cancelTimer();
            timerId = signaler.signalAt(System.currentTimeMillis() + delay, originId, routedId, replyId, traceId,
                SIGNAL_POLL, 0);
        }

        private void cancelTimer()
        {
            if (timerId != Signaler.NO_CANCEL_ID)
            {
                signaler.cancel(timerId);
                timerId = Signaler.NO_CANCEL_ID;
            }
        }

        @Override
        void doReplyBegin(long traceId)
        {
            if (!replyBegun)
            {
                final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .describe(d -> d.topic(topic))
                    .build();
                doReplyBegin(traceId, beginEx);
            }
        }

        // the configuration, when it changed since the last Data and the application gave credit
        private void doReplyData(long traceId)
        {
            final int reserved = replyPad;
            if (replyBegun && !replyClosed && changed && replyMax > 0 && replyMax - (int) (replySeq - replyAck) >= reserved)
            {
                final Map<String, String> entries = configs;
                final KafkaDataExFW dataEx = dataExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .describe(d -> entries.forEach((name, value) -> d.configsItem(c -> c.name(name).value(value))))
                    .build();
                frames.data(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, 0x03, 0L, reserved,
                    EMPTY, 0, 0, dataEx.buffer(), dataEx.offset(), dataEx.sizeof());
                replySeq += reserved;
                changed = false;
            }
        }

        @Override
        void onCleanup()
        {
            cancelTimer();
            streams.remove(initialId);
        }
    }
}
