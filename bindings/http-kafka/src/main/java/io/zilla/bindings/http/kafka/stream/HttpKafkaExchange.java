/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.zilla.bindings.http.kafka.config.HttpKafkaOptionsConfig;
import io.zilla.bindings.http.kafka.config.HttpKafkaWithConfig;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.config.PathPattern;
import io.zilla.engine.config.ValueTemplate;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One http request and its response (the http stream it accepted: it receives the request on the initial id and
 * answers on the reply), and what every capability does with it: resolve the route's values from the path, answer
 * with a status, headers and a body within the response's credit, a deadline for Kafka, and an answer, exactly one,
 * whatever happens (Kafka's error, the deadline, the binding going away).
 */
abstract class HttpKafkaExchange implements MessageConsumer
{
    static final int SIGNAL_DEADLINE = 1;
    static final int SIGNAL_WAIT = 2;
    static final int SIGNAL_SETTLE = 3;
    static final int RETRY_AFTER_SECONDS = 1;

    final HttpKafkaProxyFactory factory;
    final StreamSide http;
    long bindingId;
    long exitId;
    HttpKafkaWithConfig with;
    HttpKafkaRequest request;
    HttpKafkaOptionsConfig options;

    // the topic, resolved into a buffer the exchange keeps (a topic from the path, /{topic}, is bytes of the request),
    // as bytes only when asked for (topic())
    final ExpandableArrayBuffer topicValue = new ExpandableArrayBuffer(64);
    int topicLength;
    private byte[] topic;
    PathPattern path;
    int[] starts = new int[16];
    int[] ends = new int[16];

    // the response's body, sent as the response's credit allows once its head went
    private DirectBuffer body;
    private int bodyOffset;
    private int bodyLimit;
    private boolean answered;
    private long deadlineId = Signaler.NO_CANCEL_ID;
    private final ValueTemplate.Variables variables = this::variable;

    HttpKafkaExchange(HttpKafkaProxyFactory factory)
    {
        this.factory = factory;
        this.http = new StreamSide(factory.frames);
    }

    /** Takes the request {@code request} on the route of {@code with}: an exchange may be used again, once closed. */
    void init(long bindingId, long exitId, HttpKafkaWithConfig with, HttpKafkaRequest request)
    {
        this.bindingId = bindingId;
        this.exitId = exitId;
        this.with = with;
        this.request = request;
        this.options = factory.options(bindingId);
        http.reset();
        topic = null;
        topicLength = -1;
        path = null;
        body = null;
        bodyOffset = 0;
        bodyLimit = 0;
        answered = false;
        deadlineId = Signaler.NO_CANCEL_ID;
    }

    /** The route's values with the path's parameters in them: false when one is too long. */
    boolean resolve(PathPattern path, int[] starts, int[] ends)
    {
        this.path = path;
        if (this.starts.length < starts.length)
        {
            this.starts = new int[starts.length];
            this.ends = new int[ends.length];
        }
        System.arraycopy(starts, 0, this.starts, 0, starts.length);
        System.arraycopy(ends, 0, this.ends, 0, ends.length);
        final byte[] constant = with.topic().constant();
        topic = constant;
        if (constant != null)
        {
            topicValue.putBytes(0, constant);
            topicLength = constant.length;
        }
        else
        {
            topicLength = resolve(with.topic(), topicValue, 0, factory.scratch.capacity());
        }
        return topicLength >= 0;
    }

    /** The topic as bytes (a copy, made once, unless the route names it as a constant). */
    byte[] topic()
    {
        if (topic == null)
        {
            topic = new byte[topicLength];
            topicValue.getBytes(0, topic);
        }
        return topic;
    }

    /**
     * A value of the route as bytes (null: too long), its named values written by {@link #variable}: a constant's own
     * bytes, not to be written to.
     */
    byte[] resolve(ValueTemplate template)
    {
        final byte[] constant = template.constant();
        if (constant != null)
        {
            return constant;
        }
        final int length = resolve(template, factory.scratch, 0, factory.scratch.capacity());
        if (length < 0)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        factory.scratch.getBytes(0, bytes);
        return bytes;
    }

    /** Writes a value of the route at {@code offset} of {@code target}: its length, or -1 when it is too long. */
    int resolve(ValueTemplate template, MutableDirectBuffer target, int offset, int limit)
    {
        return template.resolve(path, request.head(), starts, ends, variables, target, offset, limit);
    }

    /** Writes the named value {@code variable} of {@link HttpKafkaWithConfig#VARIABLES}: -1 when it has none. */
    int variable(int variable, MutableDirectBuffer target, int offset, int limit)
    {
        return -1;
    }

    @Override
    public void accept(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!http.owns(buffer, index))
        {
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID ->
            {
                final BeginFW begin = factory.beginRO.wrap(buffer, index, index + length);
                http.onInBegin(begin);
                deadlineId = factory.context.signaler().signalAt(System.currentTimeMillis() + options.waitLimit(),
                    http.originId, http.routedId, http.outboundId, begin.traceId(), SIGNAL_DEADLINE, 0);
                onRequestBegin(begin.traceId());
            }
            case DataFW.TYPE_ID ->
            {
                final DataFW data = factory.dataRO.wrap(buffer, index, index + length);
                if (!http.onInData(data.sequence(), data.reserved()))
                {
                    abort(data.traceId());
                    return;
                }
                onRequestData(data);
            }
            case EndFW.TYPE_ID ->
            {
                http.inClosed = true;
                final long traceId = factory.endRO.wrap(buffer, index, index + length).traceId();
                onRequestEnd(traceId);
                closeIfDone(traceId);
            }
            case AbortFW.TYPE_ID ->
            {
                http.inClosed = true;
                final long traceId = factory.abortRO.wrap(buffer, index, index + length).traceId();
                if (answered && http.outClosed)
                {
                    closeIfDone(traceId);
                }
                else
                {
                    abort(traceId);
                }
            }
            case WindowFW.TYPE_ID ->
            {
                final WindowFW window = factory.windowRO.wrap(buffer, index, index + length);
                http.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
                flushBody(window.traceId());
            }
            case ResetFW.TYPE_ID ->
            {
                http.outClosed = true;
                abort(factory.resetRO.wrap(buffer, index, index + length).traceId());
            }
            case SignalFW.TYPE_ID ->
            {
                final SignalFW signal = factory.signalRO.wrap(buffer, index, index + length);
                if (signal.signalId() == SIGNAL_DEADLINE)
                {
                    deadlineId = Signaler.NO_CANCEL_ID;
                }
                if (!answered)
                {
                    onSignal(signal.traceId(), signal.signalId());
                }
            }
            default ->
            {
                // nothing else means anything here
            }
        }
    }

    abstract void onRequestBegin(long traceId);

    abstract void onRequestData(DataFW data);

    abstract void onRequestEnd(long traceId);

    /** The deadline passed (or another timer of the exchange fired) before an answer. */
    abstract void onSignal(long traceId, int signalId);

    /** The exchange is over: what it opened on the Kafka side closes. */
    abstract void onClosing(long traceId);

    boolean answered()
    {
        return answered;
    }

    /** Answers with {@code status} and no body (503 with Retry-After), and closes everything. */
    void fail(long traceId, int status)
    {
        if (!answered)
        {
            final HttpKafkaResponse response = factory.response.begin(factory.extensionBuffer, status)
                .header("content-length", 0L);
            if (status == 503)
            {
                response.header("retry-after", RETRY_AFTER_SECONDS);
            }
            answer(traceId, response.build(), null, 0, 0);
        }
    }

    /** Kafka failed the exchange with {@code error}: an unknown topic (3) is the gateway's fault, the rest unavailability. */
    void failKafka(long traceId, int error, String topic)
    {
        if (answered())
        {
            return;
        }
        if (error == 3)
        {
            factory.context.event(bindingId, traceId, "http-kafka.topic.unknown", request.method + " "
                + request.path() + ": the topic " + topic + " is not in Kafka");
            fail(traceId, 502);
        }
        else
        {
            fail(traceId, 503);
        }
    }

    /** Answers with a head built in the factory's extension buffer and {@code body} (null: none) of its length. */
    void answer(long traceId, int headLength, DirectBuffer body, int offset, int length)
    {
        if (answered)
        {
            return;
        }
        answered = true;
        if (deadlineId != Signaler.NO_CANCEL_ID)
        {
            factory.context.signaler().cancel(deadlineId);
            deadlineId = Signaler.NO_CANCEL_ID;
        }
        http.doOutBegin(traceId, factory.extensionBuffer, 0, headLength);
        this.body = body;
        this.bodyOffset = offset;
        this.bodyLimit = offset + length;
        onClosing(traceId);
        if (!http.inClosed)
        {
            // the rest of the request means nothing now: it is read and dropped
            http.doInWindow(traceId, http.inSeq, Math.max(http.inMax, 65536), 0);
        }
        flushBody(traceId);
    }

    /** A response head of {@code status} with a body of {@code length} bytes, headers still to add. */
    HttpKafkaResponse head(int status, long length)
    {
        return factory.response.begin(factory.extensionBuffer, status).header("content-length", length);
    }

    private void flushBody(long traceId)
    {
        if (!answered || http.outClosed)
        {
            return;
        }
        while (body != null && bodyOffset < bodyLimit)
        {
            final int credit = http.outCredit();
            if (credit <= 0)
            {
                return;
            }
            final int length = Math.min(credit, Math.min(bodyLimit - bodyOffset, 16384));
            http.doOutData(traceId, body, bodyOffset, length);
            bodyOffset += length;
        }
        http.doOutEnd(traceId);
        closeIfDone(traceId);
    }

    void closeIfDone(long traceId)
    {
        if (answered && http.outClosed)
        {
            factory.onClosed(this);
        }
    }

    /**
     * Whether nothing refers to the exchange any more once it is closed, so that the factory may use it again: both
     * directions of its http stream closed, and nothing of the Kafka side that will call it back. None by default.
     */
    boolean recyclable()
    {
        return false;
    }

    /** The request is over without an answer to send (the client went away, or broke flow control). */
    void abort(long traceId)
    {
        final boolean before = answered;
        answered = true;
        if (!before)
        {
            if (deadlineId != Signaler.NO_CANCEL_ID)
            {
                factory.context.signaler().cancel(deadlineId);
            }
            onClosing(traceId);
        }
        http.doInReset(traceId);
        http.doOutAbort(traceId);
        factory.onClosed(this);
    }

    /** A timer of this exchange at {@code millis} from now. */
    long timer(long traceId, long millis, int signalId)
    {
        return factory.context.signaler().signalAt(System.currentTimeMillis() + millis, http.originId, http.routedId,
            http.outboundId, traceId, signalId, 0);
    }

    static byte[] quoted(byte[] tag)
    {
        final byte[] quoted = new byte[tag.length + 2];
        quoted[0] = '"';
        System.arraycopy(tag, 0, quoted, 1, tag.length);
        quoted[quoted.length - 1] = '"';
        return quoted;
    }

    /** Whether an If-None-Match names {@code tag} (quoted, weak or not, or *). */
    static boolean matches(String ifNoneMatch, byte[] tag)
    {
        if (ifNoneMatch == null || tag == null)
        {
            return false;
        }
        final String value = new String(tag, UTF_8);
        for (String candidate : ifNoneMatch.split(","))
        {
            String trimmed = candidate.trim();
            if (trimmed.startsWith("W/"))
            {
                trimmed = trimmed.substring(2);
            }
            if (trimmed.equals("*") || trimmed.equals("\"" + value + "\""))
            {
                return true;
            }
        }
        return false;
    }

    static UnsafeBuffer wrap(byte[] bytes)
    {
        return new UnsafeBuffer(bytes);
    }
}
