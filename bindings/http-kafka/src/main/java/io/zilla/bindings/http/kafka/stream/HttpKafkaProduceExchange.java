/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.zilla.bindings.http.kafka.config.HttpKafkaWithConfig;
import io.zilla.engine.config.PathPattern;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.flyweight.Array32FW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A request on a produce route. Its body becomes a record's value (a DELETE's a tombstone), its headers the record's
 * headers with the route's overrides over them, through the worker's {@link HttpKafkaProducer} for the topic.
 * <ul>
 * <li>Oneway (no reply-to): 204 once Kafka acknowledged the record. A body of a known length without an idempotency key
 * streams through, frame by frame, within the producer's credit; any other is gathered first (up to the body limit).</li>
 * <li>Request-reply (reply-to): the correlation id is a digest of the idempotency key (a random one without it), the
 * method, the path and the body; the reply is the record of the reply-to topic with that correlation id header, read
 * from the oldest: its {@code :status} and other headers are the response's, its value the body. With Prefer:
 * respond-async and an async location, 202 with the Location once the request is in Kafka (or the reply itself, if it
 * came first).</li>
 * <li>A GET on the route (the async location): the reply of the path's {correlationId}, or 202 when it is not there
 * (after Prefer: wait=N seconds at most).</li>
 * <li>A correlation id this engine produced already (or is producing) is not produced again: the request waits for the
 * same reply, or, oneway, is answered 204.</li>
 * </ul>
 */
final class HttpKafkaProduceExchange extends HttpKafkaExchange implements HttpKafkaProducer.Writer, HttpKafkaReader.Listener
{
    private static final int FIN = 0x01;
    private static final int INIT = 0x02;
    private static final int FRAME = 16384;
    // the least credit a streamed body's window opens for, short of its rest
    private static final int MIN_FRAGMENT = 8192;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static final DirectBuffer EMPTY = new UnsafeBuffer(new byte[0]);
    // a body gathered larger than this is not kept for the next request when the exchange is used again
    private static final int RETAINED_BODY = 65536;

    private boolean poll;
    private boolean streaming;
    private boolean replies;
    private boolean tombstone;
    // the key, resolved when the request begins, in a buffer of its own (the factory's scratch is every request's)
    private ExpandableArrayBuffer key = new ExpandableArrayBuffer(64);
    private int keyLength;
    private byte[] idempotencyKey;
    private byte[] correlationId;
    private HttpKafkaProducer producer;
    private HttpKafkaReader reader;
    private HttpKafkaReader scanner;
    private boolean scanned;
    // the producer holds the exchange: queued to write, or written and waiting for the acknowledgement
    private boolean held;
    private boolean written;
    private ExpandableArrayBuffer body = new ExpandableArrayBuffer(0);
    private int bodyLength;
    private int bodySent;
    private boolean bodyEnded;
    private boolean recordBegun;
    private boolean produced;
    private boolean queued;
    private boolean tooLarge;

    // the reply, as read
    private final ExpandableArrayBuffer reply = new ExpandableArrayBuffer(0);
    private int replyLength;
    private int replyStatus;
    private final ExpandableArrayBuffer replyHead = new ExpandableArrayBuffer(0);
    private int replyHeadLength;
    private boolean replied;
    private boolean pollTimer;
    // in the factory's recycled exchanges, or taken from there by a request
    boolean recycling;

    HttpKafkaProduceExchange(HttpKafkaProxyFactory factory)
    {
        super(factory);
    }

    @Override
    void init(long bindingId, long exitId, HttpKafkaWithConfig with, HttpKafkaRequest request)
    {
        super.init(bindingId, exitId, with, request);
        recycling = false;
        poll = !request.produces();
        replies = with.replyTo() != null;
        tombstone = "DELETE".equals(request.method);
        streaming = !poll && !replies && !request.hasIdempotencyKey() && !tombstone
            && request.contentLength >= 0 && request.contentLength <= options.bodyLimit();
        if (key.capacity() > RETAINED_BODY)
        {
            key = new ExpandableArrayBuffer(64);
        }
        keyLength = -1;
        idempotencyKey = null;
        correlationId = null;
        producer = null;
        reader = null;
        scanner = null;
        scanned = false;
        held = false;
        written = false;
        if (body.capacity() > RETAINED_BODY)
        {
            body = new ExpandableArrayBuffer(0);
        }
        bodyLength = 0;
        bodySent = 0;
        bodyEnded = false;
        recordBegun = false;
        produced = false;
        queued = false;
        tooLarge = false;
        replyLength = 0;
        replyStatus = 0;
        replyHeadLength = 0;
        replied = false;
        pollTimer = false;
    }

    @Override
    boolean recyclable()
    {
        return http.inClosed && http.outClosed && !held && !replies && !poll && reader == null && !scanned;
    }

    @Override
    boolean resolve(PathPattern path, int[] starts, int[] ends)
    {
        if (!super.resolve(path, starts, ends))
        {
            return false;
        }
        if (poll)
        {
            final int part = path != null ? path.paramPart("correlationId") : -1;
            if (part >= 0)
            {
                correlationId = new byte[ends[part] - starts[part]];
                request.head().getBytes(starts[part], correlationId);
            }
            return true;
        }
        keyLength = with.key() != null ? resolve(with.key(), key, 0, factory.scratch.capacity()) : -1;
        return with.key() == null || keyLength >= 0;
    }

    @Override
    int variable(int variable, MutableDirectBuffer target, int offset, int limit)
    {
        final byte[] value = variable == HttpKafkaWithConfig.IDEMPOTENCY_KEY ? idempotencyKey() : correlationId;
        if (value == null || offset + value.length > limit)
        {
            return -1;
        }
        target.putBytes(offset, value);
        return value.length;
    }

    @Override
    void onRequestBegin(long traceId)
    {
        if (poll)
        {
            if (!replies || correlationId == null)
            {
                answer(traceId, head(405, 0).build(), null, 0, 0);
                return;
            }
            openReader(traceId);
        }
        else if (request.contentLength > options.bodyLimit())
        {
            tooLarge(traceId);
        }
        else if (streaming)
        {
            produce(traceId);
        }
        else
        {
            http.doInWindow(traceId, http.inSeq, Math.min(options.bodyLimit() + 1, 65536), 0);
        }
    }

    @Override
    void onRequestData(DataFW data)
    {
        final long traceId = data.traceId();
        final OctetsFW payload = data.payload();
        final int length = payload != null ? payload.sizeof() : 0;
        if (answered())
        {
            http.doInWindow(traceId, http.inSeq, Math.max(http.inMax, 65536), 0);
            return;
        }
        if (streaming)
        {
            final boolean last = bodySent + length >= request.contentLength;
            final int flags = (recordBegun ? 0 : INIT) | (last ? FIN : 0);
            writeFragment(traceId, flags, payload != null ? payload.buffer() : null, payload != null ? payload.offset() : 0,
                length);
            bodySent += length;
            if (last)
            {
                written(traceId);
            }
            return;
        }
        if (bodyLength + length > options.bodyLimit())
        {
            tooLarge(traceId);
            return;
        }
        if (length > 0)
        {
            body.putBytes(bodyLength, payload.buffer(), payload.offset(), length);
            bodyLength += length;
        }
        http.doInWindow(traceId, http.inSeq, Math.min(options.bodyLimit() + 1 - bodyLength, 65536), 0);
    }

    @Override
    void onRequestEnd(long traceId)
    {
        bodyEnded = true;
        if (answered() || poll)
        {
            return;
        }
        if (streaming)
        {
            if (!recordBegun || bodySent < request.contentLength)
            {
                if (!recordBegun && request.contentLength == 0)
                {
                    onWritable(traceId);
                }
                else if (bodySent < request.contentLength)
                {
                    // the client ended before its content-length: the record cannot be whole
                    producer.cancel(this, traceId);
                    answer(traceId, head(400, 0).build(), null, 0, 0);
                }
            }
            return;
        }
        correlationId = correlationId(tombstone ? null : body, bodyLength);
        if (replies)
        {
            openReader(traceId);
        }
        if (!factory.idempotency.claim(new String(correlationId, UTF_8), System.currentTimeMillis()))
        {
            onProducedBefore(traceId);
        }
        else if (request.hasIdempotencyKey())
        {
            // not by this engine: by another replica, or before a restart? Kafka has the requests
            scan(traceId);
        }
        else
        {
            produce(traceId);
        }
    }

    // produced already, by this engine or as the topic says: the same answer, nothing produced again
    private void onProducedBefore(long traceId)
    {
        if (!replies)
        {
            answer(traceId, head(204, 0).build(), null, 0, 0);
        }
        else
        {
            produced = true;
            answerAsyncIfAsked(traceId);
        }
    }

    // the topic read for a record with this correlation id: found, the request is not produced again
    private void scan(long traceId)
    {
        scanned = true;
        final List<byte[]> keys = new ArrayList<>();
        keys.add(null);
        final List<byte[][]> headers = new ArrayList<>();
        headers.add(new byte[][] {options.correlationIdHeader().getBytes(UTF_8), correlationId});
        scanner = new HttpKafkaReader(factory, bindingId, exitId, new HttpKafkaReader.Listener()
        {
            private boolean found;

            @Override
            public void onRecord(boolean first, boolean last, OctetsFW key, Array32FW<KafkaHeaderFW> headers,
                OctetsFW value)
            {
                found = true;
            }

            @Override
            public void onCaughtUp(long traceId)
            {
                final HttpKafkaReader done = scanner;
                scanner = null;
                if (done != null && !answered())
                {
                    done.close(traceId);
                    if (found)
                    {
                        onProducedBefore(traceId);
                    }
                    else
                    {
                        produce(traceId);
                    }
                }
            }

            @Override
            public void onFailed(long traceId, int error)
            {
                // the produce says what is wrong with the topic, if anything
                scanner = null;
                if (!answered())
                {
                    produce(traceId);
                }
            }
        });
        scanner.open(traceId, topic(), keys, headers);
    }

    private void tooLarge(long traceId)
    {
        tooLarge = true;
        answer(traceId, head(413, 0).build(), null, 0, 0);
    }

    private void produce(long traceId)
    {
        producer = factory.producer(bindingId, exitId, topicValue, topicLength, with.acks(), traceId);
        queued = true;
        held = true;
        producer.enqueue(this, traceId);
    }

    private void openReader(long traceId)
    {
        reader = new HttpKafkaReader(factory, bindingId, exitId, this);
        final byte[][] pairs = {options.correlationIdHeader().getBytes(UTF_8), correlationId};
        final List<byte[]> keys = new ArrayList<>();
        keys.add(null);
        final List<byte[][]> headers = new ArrayList<>();
        headers.add(pairs);
        reader.open(traceId, with.replyTo().getBytes(UTF_8), keys, headers);
    }

    @Override
    public void onWritable(long traceId)
    {
        if (answered())
        {
            return;
        }
        final int credit = producer.credit();
        if (streaming)
        {
            if (request.contentLength == 0)
            {
                // only in its turn: an empty body's end may come while another request's record is under way
                if (bodyEnded && producer.writable() && !recordBegun && producer.first(this))
                {
                    writeFragment(traceId, INIT | FIN, EMPTY, 0, 0);
                    written(traceId);
                }
                return;
            }
            // the client's credit is the producer's: each of its frames becomes one fragment, with the same padding
            // a fragment per frame of the client, and each costs a frame's padding however small: the client's window
            // opens once the producer has credit for the rest of the body, or for a good part of it, not for the few
            // bytes an acknowledgement freed (a 1 KiB body went in hundreds of fragments)
            final long rest = request.contentLength - bodySent;
            if (credit < Math.min(rest, Math.min(MIN_FRAGMENT, producer.maximum() / 2)))
            {
                return;
            }
            // everything received went on at once: acknowledged, and the window is what the producer has left, at
            // most a frame: the merged stream takes frames of at most a batch, and the client may send its window in one
            http.doInWindow(traceId, http.inSeq, Math.max(0, Math.min(credit, FRAME) + producer.padding()),
                producer.padding());
            return;
        }
        while (true)
        {
            final int room = producer.credit();
            if (!producer.writable() || recordBegun && room == 0)
            {
                return;
            }
            final int length = Math.min(room, Math.min(bodyLength - bodySent, FRAME));
            final boolean last = bodySent + length == bodyLength;
            if (!last && length == 0)
            {
                return;
            }
            final int flags = (recordBegun ? 0 : INIT) | (last ? FIN : 0);
            writeFragment(traceId, flags, tombstone ? null : body, bodySent, length);
            bodySent += length;
            if (last)
            {
                written(traceId);
                return;
            }
        }
    }

    // a fragment of the record: its first carries the extension (key, headers)
    private void writeFragment(long traceId, int flags, DirectBuffer payload, int offset, int length)
    {
        int extensionLength = 0;
        if ((flags & INIT) != 0)
        {
            recordBegun = true;
            final int deferred = streaming ? (int) Math.max(0, request.contentLength - length)
                : Math.max(0, bodyLength - length);
            final HttpKafkaProduceExtension extension = factory.produceExtension;
            final HttpKafkaNames names = factory.names;
            extension.reset(deferred);
            if (keyLength >= 0)
            {
                extension.key(key, 0, keyLength);
            }
            final HttpKafkaNames.Overrides overrides = names.overrides(with);
            final byte[] correlationName = names.bytes(options.correlationIdHeader());
            final byte[] replyToName = names.bytes(options.replyToHeader());
            final DirectBuffer head = request.head();
            final HttpKafkaHeaderTable headers = request.headers();
            for (int i = 0; i < headers.count(); i++)
            {
                final int nameOffset = headers.nameOffset(i);
                final int nameLength = headers.nameLength(i);
                if (!contains(overrides.names(), head, nameOffset, nameLength)
                    && !HttpKafkaRequest.is(head, nameOffset, nameLength, correlationName)
                    && !HttpKafkaRequest.is(head, nameOffset, nameLength, replyToName))
                {
                    extension.header(head, nameOffset, nameLength, headers.valueOffset(i), headers.valueLength(i));
                }
            }
            for (int o = 0; o < overrides.names().length; o++)
            {
                final int valueLength = resolve(overrides.values()[o], factory.scratch, 0, factory.scratch.capacity());
                if (valueLength >= 0)
                {
                    extension.header(overrides.names()[o], factory.scratch, 0, valueLength);
                }
            }
            if (replies)
            {
                extension.header(replyToName, names.bytes(with.replyTo()));
            }
            if (correlationId != null)
            {
                extension.header(correlationName, correlationId);
            }
            extensionLength = extension.build(factory.extensionBuffer, HttpKafkaProxyFactory.KAFKA_TYPE_ID);
        }
        producer.write(traceId, flags, payload, offset, length, factory.extensionBuffer, extensionLength);
    }

    private static boolean contains(byte[][] names, DirectBuffer buffer, int offset, int length)
    {
        boolean found = false;
        for (int i = 0; i < names.length && !found; i++)
        {
            found = HttpKafkaRequest.is(buffer, offset, length, names[i]);
        }
        return found;
    }

    // the record's last fragment went: the producer keeps the exchange until Kafka acknowledged it
    private void written(long traceId)
    {
        written = true;
        producer.written(this, traceId);
    }

    @Override
    public void onProduced(long traceId)
    {
        produced = true;
        held = false;
        if (answered())
        {
            return;
        }
        if (!replies)
        {
            answer(traceId, head(204, 0).build(), null, 0, 0);
        }
        else
        {
            answerAsyncIfAsked(traceId);
        }
    }

    private void answerAsyncIfAsked(long traceId)
    {
        if (replied)
        {
            answerReply(traceId);
        }
        else if (request.respondAsync && with.location() != null)
        {
            if (request.preferWait > 0)
            {
                timer(traceId, Math.min(request.preferWait * 1000L, options.waitLimit()), SIGNAL_WAIT);
            }
            else
            {
                accepted(traceId);
            }
        }
    }

    private void accepted(long traceId)
    {
        final HttpKafkaResponse head = head(202, 0);
        final byte[] location = with.location() != null ? resolve(with.location()) : null;
        if (location != null)
        {
            head.header("location", location);
        }
        answer(traceId, head.build(), null, 0, 0);
    }

    @Override
    public void onProduceFailed(long traceId, int error)
    {
        if (correlationId != null && !poll)
        {
            factory.idempotency.release(new String(correlationId, UTF_8));
        }
        queued = false;
        held = false;
        if (answered())
        {
            return;
        }
        if (error == 10)
        {
            answer(traceId, head(413, 0).build(), null, 0, 0);
        }
        else
        {
            failKafka(traceId, error, new String(topic(), UTF_8));
        }
    }

    @Override
    public void onRecord(boolean first, boolean last, OctetsFW key, Array32FW<KafkaHeaderFW> headers, OctetsFW value)
    {
        if (replied)
        {
            return;
        }
        if (first)
        {
            replyLength = 0;
            replyStatus = 200;
            replyHeadLength = 0;
            headers.forEach(this::replyHeader);
        }
        if (value != null)
        {
            reply.putBytes(replyLength, value.buffer(), value.offset(), value.sizeof());
            replyLength += value.sizeof();
        }
        if (last)
        {
            replied = true;
            if (!answered() && (produced || poll || !queued))
            {
                answerReply(0L);
            }
        }
    }

    // the reply's headers: :status is the response's status, the correlation headers stay in Kafka
    private void replyHeader(KafkaHeaderFW header)
    {
        final OctetsFW name = header.name().value();
        final OctetsFW value = header.value().value();
        if (name == null || value == null)
        {
            return;
        }
        final String text = name.buffer().getStringWithoutLengthUtf8(name.offset(), name.sizeof());
        if (":status".equals(text))
        {
            try
            {
                replyStatus = Integer.parseInt(value.buffer().getStringWithoutLengthAscii(value.offset(), value.sizeof()));
            }
            catch (NumberFormatException ex)
            {
                replyStatus = 200;
            }
        }
        else if (!text.startsWith(":") && !text.equals(options.correlationIdHeader()) && !text.equals(options.replyToHeader())
            && !text.equals("content-length"))
        {
            replyHead.putShort(replyHeadLength, (short) name.sizeof());
            replyHead.putBytes(replyHeadLength + 2, name.buffer(), name.offset(), name.sizeof());
            replyHeadLength += 2 + name.sizeof();
            replyHead.putShort(replyHeadLength, (short) value.sizeof());
            replyHead.putBytes(replyHeadLength + 2, value.buffer(), value.offset(), value.sizeof());
            replyHeadLength += 2 + value.sizeof();
        }
    }

    private void answerReply(long traceId)
    {
        final HttpKafkaResponse head = head(replyStatus, replyLength);
        for (int at = 0; at < replyHeadLength;)
        {
            final int nameLength = replyHead.getShort(at);
            final int nameOffset = at + 2;
            at += 2 + nameLength;
            final int valueLength = replyHead.getShort(at);
            head.header(replyHead, nameOffset, nameLength, replyHead, at + 2, valueLength);
            at += 2 + valueLength;
        }
        answer(traceId, head.build(), reply, 0, replyLength);
    }

    @Override
    public void onCaughtUp(long traceId)
    {
        if (poll && !replied && !answered() && request.preferWait <= 0)
        {
            accepted(traceId);
        }
        else if (poll && !replied && !answered() && !pollTimer)
        {
            pollTimer = true;
            timer(traceId, Math.min(request.preferWait * 1000L, options.waitLimit()), SIGNAL_WAIT);
        }
    }

    @Override
    public void onFailed(long traceId, int error)
    {
        failKafka(traceId, error, with.replyTo());
    }

    @Override
    void onSignal(long traceId, int signalId)
    {
        if (signalId == SIGNAL_WAIT)
        {
            accepted(traceId);
        }
        else if (signalId == SIGNAL_DEADLINE)
        {
            if (replies && produced && with.location() != null)
            {
                accepted(traceId);
            }
            else if (replies && produced)
            {
                fail(traceId, 504);
            }
            else
            {
                fail(traceId, 503);
            }
        }
    }

    @Override
    void onClosing(long traceId)
    {
        if (producer != null && queued && !produced)
        {
            producer.cancel(this, traceId);
            // out of the queue, unless its record went: then it stays for the acknowledgement it will ignore
            held &= written;
        }
        if (reader != null)
        {
            reader.close(traceId);
        }
        if (scanner != null)
        {
            scanner.close(traceId);
            scanner = null;
        }
        if (tooLarge && !http.inClosed)
        {
            http.doInReset(traceId);
        }
    }

    // the request's, or a random one made when first asked for: a SecureRandom UUID costs a microsecond and a few
    // objects, which a request that names no idempotency key and uses none (a oneway produce) should not pay
    private byte[] idempotencyKey()
    {
        if (idempotencyKey == null)
        {
            idempotencyKey = request.hasIdempotencyKey() ? request.idempotencyKey()
                : UUID.randomUUID().toString().getBytes(UTF_8);
        }
        return idempotencyKey;
    }

    // the digest of what makes a request the same request again: its idempotency key, method, path and body
    private byte[] correlationId(DirectBuffer content, int length)
    {
        try
        {
            final MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(idempotencyKey());
            digest.update((byte) 0);
            digest.update(request.method.getBytes(UTF_8));
            digest.update((byte) 0);
            digest.update(request.head().byteArray(), 0, request.pathLength());
            digest.update((byte) 0);
            if (content != null)
            {
                digest.update(content.byteArray(), 0, length);
            }
            final byte[] hash = digest.digest();
            final char[] hex = new char[32];
            for (int i = 0; i < 16; i++)
            {
                hex[2 * i] = HEX[hash[i] >> 4 & 0xf];
                hex[2 * i + 1] = HEX[hash[i] & 0xf];
            }
            return new String(hex).getBytes(UTF_8);
        }
        catch (NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
