/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.metrics.Metrics;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.ApiVersionRanges;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.codec.ResponseHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntArrayQueue;
import org.agrona.collections.LongArrayQueue;
import org.agrona.concurrent.status.AtomicCounter;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;

/**
 * One connection to one broker (or, for {@link KafkaClientConnectionPool#BOOTSTRAP}, to the first bootstrap server
 * that answers): a tcp stream through the binding's exit. It sends ApiVersions first and then uses, per api, the
 * highest version both sides know; requests wait in order until then, and while the tcp stream has no credit for
 * them. Responses are framed by their size prefix (a partial one waits in a buffer slot, {@link HeldBytes}), matched
 * to their request by correlation id (Kafka answers a connection's requests in order), and handed to the request.
 * <p>
 * A connection that fails, or that the broker closes, fails every request on it with NETWORK_EXCEPTION and leaves
 * the pool: the next request opens a new one. A response that cannot be framed or read fails them with
 * CORRUPT_MESSAGE, with a {@code kafka.response.malformed} event and the {@code responses.malformed} counter.
 * <p>
 * With SASL options, SaslHandshake and SaslAuthenticate ({@link KafkaClientAuthenticator}) come between ApiVersions
 * and the first queued request; a refusal fails every request with SASL_AUTHENTICATION_FAILED, with a
 * {@code kafka.sasl.failed} event. When the broker limits the session (KIP-368), the connection authenticates again
 * at 85 to 95% of its lifetime, holding its queued requests meanwhile.
 * <p>
 * A request without a response within the request timeout fails the connection as a network loss would, with a
 * {@code kafka.request.timeout} event; a connection without a request for the idle timeout ends its tcp stream
 * quietly (counter {@code connections.idle.closed}) and leaves the pool: the next request opens a new one.
 */
final class KafkaClientConnection implements KafkaClientAuthenticator.Listener
{
    static final int MAX_FRAME_SIZE = KafkaProxyFactory.MAX_RESPONSE_SIZE;

    private static final int SIZE_PREFIX = Integer.BYTES;
    private static final short NO_VERSION = -1;
    private static final byte[] CLIENT_ID = "zilla".getBytes();
    private static final short SASL_HANDSHAKE_VERSION = 1;
    private static final int SIGNAL_TIMEOUT = 1;
    private static final int SIGNAL_REAUTHENTICATE = 2;

    private enum State
    {
        NEGOTIATING,
        AUTHENTICATING,
        READY,
        CLOSED
    }

    private final KafkaClientConnectionPool pool;
    private final int nodeId;
    private final KafkaClientConnectionPool.Purpose purpose;
    private final long key;
    private final ArrayDeque<KafkaClientRequest> queued = new ArrayDeque<>();
    private final ArrayDeque<KafkaClientRequest> inflight = new ArrayDeque<>();
    private final IntArrayQueue correlations = new IntArrayQueue();
    private final short[] versions = new short[KafkaApis.UNREGISTER_CONTROLLER + 1];
    private final ApiVersionsExchange apiVersions = new ApiVersionsExchange();
    private final LongArrayQueue deadlines = new LongArrayQueue();
    // kafka.request.duration: when each request in flight was written, kept only while the histogram is selected
    private final LongArrayQueue sentAt;
    private final SignalFW signalRO = new SignalFW();
    private final KafkaClientAuthenticator authenticator;

    private State state = State.NEGOTIATING;
    private BrokerAddress address;
    private int attempts;
    private int nextCorrelationId;
    private boolean apiVersionsSent;
    private KafkaClientRequest saslRequest;
    private boolean authenticated;
    private long lastUsedAt;
    private long timeoutId = Signaler.NO_CANCEL_ID;
    private long timeoutAt = Long.MAX_VALUE;
    private long reauthenticateId = Signaler.NO_CANCEL_ID;

    private MessageConsumer net;
    private long initialId;
    private long replyId;
    private HeldBytes held;
    private KafkaProduceGroups produceGroups;

    private long initialSeq;
    private long initialAck;
    private int initialMax;
    private int initialPad;

    private long replySeq;
    private long replyAck;
    private int replyMax;

    // a request whose tail (its bytes beyond the encode buffer) is being written, frame by frame, as credit comes
    private KafkaClientRequest tailRequest;
    private int tailSent;
    private int tailLength;

    private boolean replyBegun;
    private boolean initialClosed;
    private boolean replyClosed;
    // counted in kafka.broker.connections: from the broker's reply beginning (connected) to the connection closing
    private boolean counted;

    KafkaClientConnection(KafkaClientConnectionPool pool, int nodeId, KafkaClientConnectionPool.Purpose purpose, long key)
    {
        this.pool = pool;
        this.nodeId = nodeId;
        this.purpose = purpose;
        this.key = key;
        this.authenticator = pool.sasl() != null ? new KafkaClientAuthenticator(pool.sasl(), this) : null;
        this.lastUsedAt = System.currentTimeMillis();
        this.sentAt = pool.metrics().timed ? new LongArrayQueue() : null;
        Arrays.fill(versions, NO_VERSION);
    }

    int nodeId()
    {
        return nodeId;
    }

    KafkaClientConnectionPool.Purpose purpose()
    {
        return purpose;
    }

    long key()
    {
        return key;
    }

    boolean isClosed()
    {
        return state == State.CLOSED;
    }

    /** The version of {@code apiKey} this connection uses, or -1 before ApiVersions or when there is none. */
    short version(int apiKey)
    {
        return apiKey >= 0 && apiKey < versions.length ? versions[apiKey] : NO_VERSION;
    }

    /** Opens the tcp stream to {@code address}. */
    void connect(long traceId, BrokerAddress address)
    {
        this.address = address;
        this.attempts++;
        this.initialId = pool.context().supplyInitialId(pool.exitId());
        this.replyId = pool.context().supplyReplyId(initialId);
        this.held = new HeldBytes(pool.context().bufferPool(), replyId);
        this.initialSeq = 0;
        this.initialAck = 0;
        this.initialMax = 0;
        this.initialPad = 0;
        this.replySeq = 0;
        this.replyAck = 0;
        this.replyMax = 0;
        this.replyBegun = false;
        this.initialClosed = false;
        this.replyClosed = false;
        this.net = pool.doNetBegin(initialId, traceId, address, this::onNetMessage);
        if (net == null)
        {
            initialClosed = true;
            replyClosed = true;
            onNetFailed(traceId);
        }
    }

    /** The connection's Produce requests, several partitions' batches each: made on first use. */
    KafkaProduceGroups produceGroups(AtomicCounter requests, int maxInFlight, int maxPartitions)
    {
        if (produceGroups == null)
        {
            produceGroups = new KafkaProduceGroups(this, requests, maxInFlight, maxPartitions);
        }
        return produceGroups;
    }

    /** Queues a request: it goes out once ApiVersions is done and the tcp stream has credit for it. */
    void send(KafkaClientRequest request, long traceId)
    {
        if (state == State.CLOSED)
        {
            request.onFailed(KafkaClientRequest.NETWORK_EXCEPTION, traceId);
        }
        else
        {
            lastUsedAt = System.currentTimeMillis();
            queued.add(request);
            flush(traceId);
        }
    }

    void close(long traceId)
    {
        fail(KafkaClientRequest.NETWORK_EXCEPTION, traceId);
    }

    private void onNetMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        final long streamId = pool.frameRO.wrap(buffer, index, index + length).streamId();
        if (streamId != initialId && streamId != replyId)
        {
            // a late frame of the tcp stream to a bootstrap server that did not answer: that stream is gone
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onNetBegin(pool.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onNetData(pool.dataRO.wrap(buffer, index, index + length));
            case EndFW.TYPE_ID -> onNetEnd(pool.endRO.wrap(buffer, index, index + length));
            case AbortFW.TYPE_ID -> onNetAbort(pool.abortRO.wrap(buffer, index, index + length));
            case WindowFW.TYPE_ID -> onNetWindow(pool.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onNetReset(pool.resetRO.wrap(buffer, index, index + length));
            case SignalFW.TYPE_ID -> onSignal(signalRO.wrap(buffer, index, index + length));
            default ->
            {
                // flushes and challenges mean nothing to a connection
            }
        }
    }

    private void onNetBegin(BeginFW begin)
    {
        replyBegun = true;
        if (!counted)
        {
            counted = true;
            Metrics.increment(pool.metrics().brokerConnections);
        }
        replySeq = begin.sequence();
        replyAck = begin.acknowledge();
        doNetReplyWindow(begin.traceId(), true);
        // the tcp client may have given credit before it began its reply
        flush(begin.traceId());
    }

    private void onNetWindow(WindowFW window)
    {
        initialAck = Math.max(initialAck, window.acknowledge());
        initialMax = window.maximum();
        initialPad = window.padding();
        flush(window.traceId());
    }

    private void onNetData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (data.sequence() != replySeq || replySeq + reserved > replyAck + replyMax)
        {
            // the tcp client broke flow control: nothing on this connection can be trusted
            onMalformed(traceId, "data beyond the offered window");
            return;
        }
        replySeq += reserved;
        final OctetsFW payload = data.payload();
        if (payload != null && payload.sizeof() > 0)
        {
            if (held.isEmpty())
            {
                // the common case: whole responses are read straight from the frame, only a partial one is held
                final int progress = onResponses(payload.buffer(), payload.offset(), payload.limit(), traceId);
                if (state != State.CLOSED && progress < payload.limit())
                {
                    hold(payload.buffer(), progress, payload.limit() - progress, traceId);
                }
            }
            else if (hold(payload.buffer(), payload.offset(), payload.sizeof(), traceId))
            {
                final int progress = onResponses(held.buffer(), held.offset(), held.limit(), traceId);
                if (state != State.CLOSED)
                {
                    held.consume(progress - held.offset());
                }
            }
        }
        if (state != State.CLOSED)
        {
            // a request that waited for an answer (a produce group) may go now
            flush(traceId);
            doNetReplyWindow(traceId, false);
        }
    }

    private void onNetEnd(EndFW end)
    {
        replyClosed = true;
        onNetFailed(end.traceId());
    }

    private void onNetAbort(AbortFW abort)
    {
        replyClosed = true;
        onNetFailed(abort.traceId());
    }

    private void onNetReset(ResetFW reset)
    {
        initialClosed = true;
        onNetFailed(reset.traceId());
    }

    // a bootstrap connection that never connected tries the next server, until each was tried once
    private void onNetFailed(long traceId)
    {
        if (state != State.CLOSED)
        {
            final boolean retry = !replyBegun && nodeId == KafkaClientConnectionPool.BOOTSTRAP
                && attempts < pool.bootstrapServers() && inflight.isEmpty() && !apiVersionsSent;
            if (retry)
            {
                pool.event(traceId, "kafka.connection.failed", "bootstrap server " + address + " did not answer");
                doNetClose(traceId);
                held.release();
                connect(traceId, pool.nextBootstrapServer());
            }
            else
            {
                pool.event(traceId, "kafka.connection.closed", purpose.yamlName() + " connection to node " + nodeId
                    + " (" + address + ") closed, " + (inflight.size() + queued.size()) + " request(s) failed");
                fail(KafkaClientRequest.NETWORK_EXCEPTION, traceId);
            }
        }
    }

    private void onMalformed(long traceId, String what)
    {
        pool.malformed().increment();
        pool.event(traceId, "kafka.response.malformed", what + " from node " + nodeId + " (" + address
            + "), connection closed");
        fail(KafkaClientRequest.CORRUPT_MESSAGE, traceId);
    }

    // appends to the held bytes, growing past a slot for a response larger than one (a large Metadata)
    private boolean hold(DirectBuffer buffer, int offset, int length, long traceId)
    {
        final boolean appended = held.append(buffer, offset, length);
        if (appended && held.size() >= SIZE_PREFIX)
        {
            final int size = held.buffer().getInt(held.offset(), BIG_ENDIAN);
            if (size >= 0 && size <= MAX_FRAME_SIZE)
            {
                held.ensureCapacity(SIZE_PREFIX + size);
            }
        }
        if (!appended)
        {
            pool.event(traceId, "kafka.connection.overflow", "no buffer slot free for a partial response");
            fail(KafkaClientRequest.NETWORK_EXCEPTION, traceId);
        }
        return appended;
    }

    /** Handles the whole responses in {@code [offset, limit)}; returns how far it got. */
    private int onResponses(DirectBuffer buffer, int offset, int limit, long traceId)
    {
        int progress = offset;
        while (state != State.CLOSED && limit - progress >= SIZE_PREFIX)
        {
            final int size = buffer.getInt(progress, BIG_ENDIAN);
            if (size < Integer.BYTES || size > MAX_FRAME_SIZE)
            {
                onMalformed(traceId, "response of length " + size);
            }
            else if (limit - progress >= SIZE_PREFIX + size)
            {
                onResponse(buffer, progress + SIZE_PREFIX, progress + SIZE_PREFIX + size, traceId);
                progress += SIZE_PREFIX + size;
            }
            else
            {
                break;
            }
        }
        return progress;
    }

    private void onResponse(DirectBuffer buffer, int offset, int limit, long traceId)
    {
        final int correlationId = buffer.getInt(offset, BIG_ENDIAN);
        if (inflight.isEmpty() || correlations.peekInt() != correlationId)
        {
            onMalformed(traceId, "response to no request (correlation id " + correlationId + ")");
        }
        else
        {
            correlations.pollInt();
            deadlines.pollLong();
            lastUsedAt = System.currentTimeMillis();
            final KafkaClientRequest request = inflight.poll();
            final short apiKey = request.apiKey();
            if (sentAt != null)
            {
                Metrics.record(pool.metrics().requestDuration(apiKey), System.nanoTime() - sentAt.pollLong());
            }
            final short version = request == apiVersions ? KafkaClientVersions.API_VERSIONS_VERSION : versions[apiKey];
            final int body = pool.responseHeader().wrap(buffer, offset, limit, apiKey, version);
            if (body == ResponseHeaderDecoder.MALFORMED || !request.onResponse(version, buffer, body, limit, traceId))
            {
                onMalformed(traceId, "unreadable response to api " + apiKey + " v" + version);
                request.onFailed(KafkaClientRequest.CORRUPT_MESSAGE, traceId);
            }
            else if (inflight.isEmpty())
            {
                // the timer may wait for a request deadline later than the idle close now due
                scheduleTimeout(traceId);
            }
        }
    }

    /** Writes the queued requests that may go now, in order, as far as the tcp stream's credit goes. */
    void flush(long traceId)
    {
        if (state == State.NEGOTIATING && !apiVersionsSent && replyBegun)
        {
            apiVersionsSent = doRequest(apiVersions, KafkaClientVersions.API_VERSIONS_VERSION, traceId);
        }
        if (state == State.AUTHENTICATING && saslRequest != null)
        {
            flushSasl(traceId);
        }
        if (tailRequest != null && !doTail(traceId))
        {
            return;
        }
        while (state == State.READY && !queued.isEmpty() && queued.peek().ready())
        {
            final KafkaClientRequest request = queued.poll();
            final short version = version(request.apiKey());
            if (version == NO_VERSION)
            {
                request.onFailed(KafkaClientRequest.UNSUPPORTED_VERSION, traceId);
            }
            else if (!doRequest(request, version, traceId))
            {
                queued.addFirst(request);
                break;
            }
        }
    }

    /**
     * Writes the request into the tcp stream if its credit allows.
     *
     * @return false when it must wait for a Window; true when it was sent, or failed alone (it cannot be encoded)
     */
    private boolean doRequest(KafkaClientRequest request, short version, long traceId)
    {
        final MutableDirectBuffer buffer = pool.encodeBuffer();
        final short apiKey = request.apiKey();
        final int correlationId = nextCorrelationId;
        int offset = SIZE_PREFIX;
        buffer.putShort(offset, apiKey, BIG_ENDIAN);
        offset += Short.BYTES;
        buffer.putShort(offset, version, BIG_ENDIAN);
        offset += Short.BYTES;
        buffer.putInt(offset, correlationId, BIG_ENDIAN);
        offset += Integer.BYTES;
        buffer.putShort(offset, (short) CLIENT_ID.length, BIG_ENDIAN);
        offset += Short.BYTES;
        buffer.putBytes(offset, CLIENT_ID);
        offset += CLIENT_ID.length;
        if (KafkaApis.requestHeaderVersion(apiKey, version) == 2)
        {
            // no tagged fields
            buffer.putByte(offset, (byte) 0);
            offset++;
        }
        final int limit = request.encode(version, buffer, offset, buffer.capacity());
        boolean sent = false;
        if (limit == KafkaClientRequest.ENCODE_FAILED)
        {
            // cannot be sent at all: fail it alone, the connection is fine
            request.onFailed(KafkaClientRequest.UNSUPPORTED_VERSION, traceId);
            sent = true;
        }
        else
        {
            final int tail = request.tailLength(version);
            buffer.putInt(0, limit - SIZE_PREFIX + tail, BIG_ENDIAN);
            final int reserved = limit + initialPad;
            if (!initialClosed && initialMax - (int) (initialSeq - initialAck) >= reserved)
            {
                pool.frames().data(net, pool.routedId(), pool.exitId(), initialId, initialSeq, initialAck, initialMax,
                    traceId, 0x03, 0L, reserved, buffer, 0, limit, null, 0, 0);
                initialSeq += reserved;
                nextCorrelationId++;
                sent = true;
                if (request.awaitsResponse())
                {
                    inflight.add(request);
                    correlations.addInt(correlationId);
                    deadlines.addLong(System.currentTimeMillis() + pool.timeouts().request());
                    if (sentAt != null)
                    {
                        sentAt.addLong(System.nanoTime());
                    }
                }
                if (tail > 0)
                {
                    // the rest goes as credit comes, before any other request
                    tailRequest = request;
                    tailSent = 0;
                    tailLength = tail;
                    doTail(traceId);
                }
                else
                {
                    request.onWritten(traceId);
                }
                scheduleTimeout(traceId);
            }
        }
        return sent;
    }

    /**
     * Writes what the tail request has left within the tcp stream's credit, in frames of at most a quarter of the
     * write buffer.
     *
     * @return whether it is all written
     */
    private boolean doTail(long traceId)
    {
        final KafkaClientRequest request = tailRequest;
        final int most = pool.context().writeBuffer().capacity() >> 2;
        while (tailSent < tailLength && !initialClosed)
        {
            final int credit = initialMax - (int) (initialSeq - initialAck) - initialPad;
            if (credit <= 0)
            {
                return false;
            }
            final int length = Math.min(Math.min(credit, most), tailLength - tailSent);
            final int reserved = length + initialPad;
            pool.frames().data(net, pool.routedId(), pool.exitId(), initialId, initialSeq, initialAck, initialMax,
                traceId, 0x03, 0L, reserved, request.tail(), request.tailOffset() + tailSent, length, null, 0, 0);
            initialSeq += reserved;
            tailSent += length;
        }
        tailRequest = null;
        if (!initialClosed)
        {
            request.onWritten(traceId);
        }
        return !initialClosed;
    }

    // the version negotiation is done: authenticate if the binding has SASL, then let the queued requests go
    private void onNegotiated(long traceId)
    {
        if (authenticator != null)
        {
            state = State.AUTHENTICATING;
            authenticator.start(traceId);
        }
        else
        {
            state = State.READY;
            flush(traceId);
        }
    }

    @Override
    public void sendSasl(KafkaClientRequest request, long traceId)
    {
        saslRequest = request;
        flush(traceId);
    }

    @Override
    public void onAuthenticated(long sessionLifetimeMs, long traceId)
    {
        if (state == State.AUTHENTICATING)
        {
            if (authenticated)
            {
                pool.context().supplyCounter(pool.routedId(), "sasl.reauthentications").increment();
            }
            authenticated = true;
            state = State.READY;
            if (sessionLifetimeMs > 0L)
            {
                // as kafka-clients does: early enough for the exchange, spread so that connections do not go at once
                final double early = 0.85 + ThreadLocalRandom.current().nextDouble(0.1);
                reauthenticateId = pool.context().signaler().signalAt(System.currentTimeMillis()
                    + (long) (sessionLifetimeMs * early), pool.routedId(), pool.exitId(), initialId, traceId,
                    SIGNAL_REAUTHENTICATE, 0);
            }
            flush(traceId);
        }
    }

    @Override
    public void onAuthenticationFailed(String reason, long traceId)
    {
        pool.event(traceId, "kafka.sasl.failed", authenticator.mechanism() + " authentication of user "
            + authenticator.username() + " to node " + nodeId + " (" + address + ") failed: " + reason
            + "; connection closed, " + (inflight.size() + queued.size()) + " request(s) failed");
        fail(KafkaClientAuthenticator.SASL_AUTHENTICATION_FAILED, traceId);
    }

    // SaslHandshake and SaslAuthenticate go ahead of the queue; a broker without them cannot authenticate us (v0 of
    // SaslHandshake would mean raw SASL tokens without SaslAuthenticate, which no broker since Kafka 1.0 needs)
    private void flushSasl(long traceId)
    {
        final KafkaClientRequest request = saslRequest;
        final short version = version(request.apiKey());
        if (version(KafkaApis.SASL_HANDSHAKE) < SASL_HANDSHAKE_VERSION || version(KafkaApis.SASL_AUTHENTICATE) == NO_VERSION)
        {
            saslRequest = null;
            onAuthenticationFailed("the broker offers no SaslHandshake v1 and SaslAuthenticate", traceId);
        }
        else if (doRequest(request, version, traceId))
        {
            saslRequest = null;
        }
    }

    private void onSignal(SignalFW signal)
    {
        final long traceId = signal.traceId();
        if (signal.signalId() == SIGNAL_TIMEOUT)
        {
            timeoutId = Signaler.NO_CANCEL_ID;
            timeoutAt = Long.MAX_VALUE;
            onTimeout(traceId);
        }
        else if (signal.signalId() == SIGNAL_REAUTHENTICATE)
        {
            reauthenticateId = Signaler.NO_CANCEL_ID;
            if (state == State.READY)
            {
                // the requests already written are answered first: Kafka answers a connection in order
                state = State.AUTHENTICATING;
                authenticator.start(traceId);
            }
        }
    }

    private void onTimeout(long traceId)
    {
        final long now = System.currentTimeMillis();
        if (state == State.CLOSED)
        {
            return;
        }
        if (!deadlines.isEmpty() && deadlines.peekLong() <= now)
        {
            final KafkaClientRequest request = inflight.peek();
            pool.event(traceId, "kafka.request.timeout", "api " + request.apiKey() + " to node " + nodeId + " (" + address
                + ") had no response in " + pool.timeouts().request() + " ms; connection closed, "
                + (inflight.size() + queued.size()) + " request(s) failed");
            fail(KafkaClientRequest.NETWORK_EXCEPTION, traceId);
        }
        else if (isIdle() && lastUsedAt + pool.timeouts().idle() <= now)
        {
            closeIdle(traceId);
        }
        else
        {
            scheduleTimeout(traceId);
        }
    }

    private boolean isIdle()
    {
        return state == State.READY && inflight.isEmpty() && queued.isEmpty();
    }

    // the one timer of the connection: the oldest request's deadline, or the idle close when nothing is in flight
    private void scheduleTimeout(long traceId)
    {
        final long due = !deadlines.isEmpty() ? deadlines.peekLong()
            : isIdle() ? lastUsedAt + pool.timeouts().idle()
            : Long.MAX_VALUE;
        if (due < timeoutAt && state != State.CLOSED)
        {
            cancelTimeout();
            timeoutAt = due;
            timeoutId = pool.context().signaler().signalAt(due, pool.routedId(), pool.exitId(), initialId, traceId,
                SIGNAL_TIMEOUT, 0);
        }
    }

    private void cancelTimeout()
    {
        if (timeoutId != Signaler.NO_CANCEL_ID)
        {
            pool.context().signaler().cancel(timeoutId);
            timeoutId = Signaler.NO_CANCEL_ID;
        }
        timeoutAt = Long.MAX_VALUE;
    }

    // nobody used the connection for the idle timeout: end it gracefully, as the broker would after connections.max.idle
    private void closeIdle(long traceId)
    {
        state = State.CLOSED;
        pool.remove(this);
        uncount();
        pool.context().supplyCounter(pool.routedId(), "connections.idle.closed").increment();
        cancelReauthenticate();
        if (net != null && !initialClosed)
        {
            pool.frames().end(net, pool.routedId(), pool.exitId(), initialId, initialSeq, initialAck, initialMax, traceId);
        }
        initialClosed = true;
        // the broker's End of the reply comes back and finds the connection closed; nothing is held any more
        held.release();
    }

    private void cancelReauthenticate()
    {
        if (reauthenticateId != Signaler.NO_CANCEL_ID)
        {
            pool.context().signaler().cancel(reauthenticateId);
            reauthenticateId = Signaler.NO_CANCEL_ID;
        }
    }

    private void fail(short error, long traceId)
    {
        if (state != State.CLOSED)
        {
            state = State.CLOSED;
            pool.remove(this);
            cancelTimeout();
            cancelReauthenticate();
            saslRequest = null;
            tailRequest = null;
            deadlines.clear();
            if (sentAt != null)
            {
                // requests that will have no response: no duration to record
                sentAt.clear();
            }
            uncount();
            doNetClose(traceId);
            if (held != null)
            {
                held.release();
            }
            correlations.clear();
            while (!inflight.isEmpty())
            {
                final KafkaClientRequest request = inflight.poll();
                if (request != apiVersions)
                {
                    request.onFailed(error, traceId);
                }
            }
            while (!queued.isEmpty())
            {
                queued.poll().onFailed(error, traceId);
            }
        }
    }

    private void uncount()
    {
        if (counted)
        {
            counted = false;
            Metrics.decrement(pool.metrics().brokerConnections);
        }
    }

    private void doNetClose(long traceId)
    {
        if (net != null && !initialClosed)
        {
            pool.frames().abort(net, pool.routedId(), pool.exitId(), initialId, initialSeq, initialAck, initialMax, traceId);
        }
        if (net != null && !replyClosed && replyBegun)
        {
            pool.frames().reset(net, pool.routedId(), pool.exitId(), replyId, replySeq, replyAck, replyMax, traceId,
                null, 0, 0);
        }
        initialClosed = true;
        replyClosed = true;
    }

    private void doNetReplyWindow(long traceId, boolean always)
    {
        if (!replyClosed)
        {
            final long ack = replySeq - held.size();
            final int max = held.capacity();
            // credit goes back per half window, as tcp does, so that small responses cost few Window frames; but at
            // once while a partial response is held, whose rest may need more than the credit left
            if (always || ack - replyAck >= max >> 1 || max != replyMax || !held.isEmpty() && ack > replyAck)
            {
                replyAck = ack;
                replyMax = max;
                pool.frames().window(net, pool.routedId(), pool.exitId(), replyId, replySeq, replyAck, replyMax, traceId,
                    0L, 0);
            }
        }
    }

    /** The first request on every connection: ApiVersions, whose answer sets {@link #versions}. */
    private final class ApiVersionsExchange implements KafkaClientRequest
    {
        private static final short VERSION_0 = 0;

        @Override
        public short apiKey()
        {
            return KafkaApis.API_VERSIONS;
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            final ApiVersionsRequestData request = new ApiVersionsRequestData()
                .setClientSoftwareName("zilla")
                .setClientSoftwareVersion("0.1.0");
            return KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            ApiVersionsResponseData response = read(version, buffer, offset, limit);
            if ((response == null || response.errorCode() == UNSUPPORTED_VERSION) && version != VERSION_0)
            {
                // a broker that does not know our version answers in v0 with its own ranges (KIP-511)
                final ApiVersionsResponseData v0 = read(VERSION_0, buffer, offset, limit);
                response = v0 != null && v0.errorCode() == UNSUPPORTED_VERSION ? v0 : response;
            }
            final boolean readable = response != null;
            if (readable)
            {
                intersect(response);
                onNegotiated(traceId);
            }
            return readable;
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            // the connection fails its requests itself
        }

        private void intersect(ApiVersionsResponseData response)
        {
            final ApiVersionRanges supported = KafkaClientVersions.SUPPORTED;
            for (ApiVersionsResponseData.ApiVersion broker : response.apiKeys())
            {
                final short apiKey = broker.apiKey();
                if (apiKey >= 0 && apiKey < versions.length && supported.supports(apiKey))
                {
                    final int min = Math.max(broker.minVersion(), supported.minVersion(apiKey));
                    final int max = Math.min(broker.maxVersion(), supported.maxVersion(apiKey));
                    versions[apiKey] = min <= max ? (short) max : NO_VERSION;
                }
            }
        }

        private static ApiVersionsResponseData read(short version, DirectBuffer buffer, int offset, int limit)
        {
            ApiVersionsResponseData response;
            try
            {
                response = new ApiVersionsResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
            }
            catch (RuntimeException ex)
            {
                // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
                response = null;
            }
            return response;
        }
    }
}
