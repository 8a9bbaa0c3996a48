/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;


import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaInitProducerIdBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;

/**
 * INIT_PRODUCER_ID streams: an application asks for a producer id and epoch (or bumps its own) for idempotent
 * produce. One InitProducerId request goes on the bootstrap control connection; the reply Begin carries the id and
 * epoch the broker gave, then the application ends the stream. Coordinator errors (loading, not available, not the
 * coordinator, concurrent transactions) and a failed connection are retried with a backoff a few times; any other
 * error resets the stream with a {@code KafkaResetEx} carrying it. Transactional ids need the transaction
 * coordinator (FindCoordinator), not built: such a stream is refused.
 */
final class KafkaClientInitProducerIdFactory
{
    static final int SIGNAL_RETRY = 1;
    static final long RETRY_BACKOFF_MIN = 100L;
    static final long RETRY_BACKOFF_MAX = 2_000L;
    static final int MAX_RETRIES = 20;

    private final KafkaClientAppFrames io;
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
    private final MutableDirectBuffer extensionBuffer = new UnsafeBuffer(new byte[256]);

    private final StreamFrames frames;
    private final KafkaClientConnectionPool pool;
    private final Signaler signaler;
    private final Long2ObjectHashMap<InitProducerIdStream> streams = new Long2ObjectHashMap<>();

    KafkaClientInitProducerIdFactory(EngineContext context, StreamFrames frames, KafkaClientConnectionPool pool)
    {
        this.frames = frames;
        this.io = new KafkaClientAppFrames(frames);
        this.pool = pool;
        this.signaler = context.signaler();
    }

    MessageConsumer newStream(BeginFW begin, KafkaInitProducerIdBeginExFW beginEx, MessageConsumer sender)
    {
        MessageConsumer receiver = null;
        if (pool != null && beginEx.transaction().asString() == null)
        {
            final InitProducerIdStream stream = new InitProducerIdStream(sender, begin.originId(), begin.routedId(),
                begin.streamId(), beginEx.transactionTimeout(), beginEx.producerId(), beginEx.producerEpoch());
            streams.put(stream.initialId, stream);
            receiver = stream::onAppMessage;
        }
        else if (pool != null)
        {
            pool.event(begin.traceId(), "kafka.init.producer.id.refused", "a transactional id needs the transaction "
                + "coordinator, not built yet: stream refused");
        }
        return receiver;
    }

    void close(long traceId)
    {
        KafkaClientAppStream.abortAll(streams, traceId);
    }

    static boolean isRetriable(short error)
    {
        return switch (error)
        {
            // REQUEST_TIMED_OUT, NETWORK_EXCEPTION, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE,
            // NOT_COORDINATOR, CONCURRENT_TRANSACTIONS
            case 7, 13, 14, 15, 16, 51 -> true;
            default -> false;
        };
    }

    private final class InitProducerIdStream extends KafkaClientAppStream implements KafkaClientRequest
    {
        private final int transactionTimeout;
        private final long producerId;
        private final short producerEpoch;

        private int retries;
        private long backoff = RETRY_BACKOFF_MIN;
        private long timerId = Signaler.NO_CANCEL_ID;

        private boolean closed;

        InitProducerIdStream(MessageConsumer app, long originId, long routedId, long initialId, int transactionTimeout,
            long producerId, short producerEpoch)
        {
            super(io, app, originId, routedId, initialId);
            this.transactionTimeout = transactionTimeout;
            this.producerId = producerId;
            this.producerEpoch = producerEpoch;
        }

        @Override
        void onAppBegin(BeginFW begin)
        {
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            frames.window(app, originId, routedId, initialId, initialSeq, initialAck, 0, begin.traceId(), 0L, 0);
            doRequest(begin.traceId());
        }

        // no Data is expected, and the reply carries none: the default ignores a Data, and its Window means nothing here
        @Override
        void onAppWindow(WindowFW window)
        {
        }

        @Override
        void onSignal(SignalFW signal)
        {
            timerId = Signaler.NO_CANCEL_ID;
            if (!closed && signal.signalId() == SIGNAL_RETRY)
            {
                doRequest(signal.traceId());
            }
        }

        private void doRequest(long traceId)
        {
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

        @Override
        public short apiKey()
        {
            return KafkaApis.INIT_PRODUCER_ID;
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            final InitProducerIdRequestData request = new InitProducerIdRequestData()
                .setTransactionalId(null)
                .setTransactionTimeoutMs(transactionTimeout)
                .setProducerId(producerId)
                .setProducerEpoch(producerEpoch);
            return closed ? ENCODE_FAILED : KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            InitProducerIdResponseData response;
            try
            {
                response = new InitProducerIdResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
            }
            catch (RuntimeException ex)
            {
                // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
                response = null;
            }
            if (response != null && !closed)
            {
                if (response.errorCode() == KafkaClientTopic.NONE)
                {
                    doReplyBegin(traceId, response.producerId(), response.producerEpoch());
                }
                else
                {
                    onFailed(response.errorCode(), traceId);
                }
            }
            return response != null;
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            if (!closed)
            {
                if (isRetriable(error) && retries < MAX_RETRIES)
                {
                    retries++;
                    timerId = signaler.signalAt(System.currentTimeMillis() + backoff, originId, routedId, replyId, traceId,
                        SIGNAL_RETRY, 0);
                    backoff = Math.min(backoff << 1, RETRY_BACKOFF_MAX);
                }
                else
                {
                    pool.event(traceId, "kafka.init.producer.id.failed", "InitProducerId failed with error " + error);
                    doAbortAll(traceId, error);
                }
            }
        }

        // an End before the answer: the request's answer is not wanted any more
        @Override
        void doReplyBegin(long traceId)
        {
            doReplyBegin(traceId, -1L, (short) -1);
        }

        private void doReplyBegin(long traceId, long producerId, short producerEpoch)
        {
            if (!replyBegun)
            {
                final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .initProducerId(i -> i
                        .transaction((String) null)
                        .transactionTimeout(transactionTimeout)
                        .producerId(producerId)
                        .producerEpoch(producerEpoch))
                    .build();
                doReplyBegin(traceId, beginEx);
            }
        }

        @Override
        void onCleanup()
        {
            if (!closed)
            {
                closed = true;
                if (timerId != Signaler.NO_CANCEL_ID)
                {
                    signaler.cancel(timerId);
                    timerId = Signaler.NO_CANCEL_ID;
                }
                streams.remove(initialId);
            }
        }
    }
}
