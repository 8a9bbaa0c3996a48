/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zilla.bindings.http.kafka.config.HttpKafkaFilterConfig;
import io.zilla.bindings.http.kafka.config.HttpKafkaMergeConfig;
import io.zilla.bindings.http.kafka.config.HttpKafkaWithConfig;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.flyweight.Array32FW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import org.agrona.ExpandableArrayBuffer;

/**
 * A GET on a fetch route: the topic read from its oldest record, through the filters, up to where it ends now. Without
 * merge the answer is the last record read (404 when there is none, or it is a tombstone), with its content-type
 * header; with merge, the latest value of each key (keys whose last record is a tombstone left out, records without a
 * key each kept) in one JSON document. The ETag is the topic's progress after the last record that went into the
 * answer; an If-None-Match that names it with Prefer: wait=N waits up to N seconds for a record, then answers 304. A
 * GET of one item that is not there (no record, or a tombstone) with Prefer: wait=N waits up to N seconds for it to
 * be produced, then answers 404, as Zilla's http.kafka.cache example shows: a client polls for an item to appear.
 */
final class HttpKafkaFetchExchange extends HttpKafkaExchange implements HttpKafkaReader.Listener
{
    private final HttpKafkaReader reader;
    private final ExpandableArrayBuffer value = new ExpandableArrayBuffer(256);
    private int valueLength;
    private boolean found;
    private byte[] contentType;
    private byte[] etag;
    private Map<String, byte[]> items;
    private int unkeyed;
    private boolean waiting;
    // waiting for an absent item to appear (404 after the wait) rather than for a change of the ETag (304)
    private boolean waitingForItem;
    private boolean changed;

    HttpKafkaFetchExchange(HttpKafkaProxyFactory factory, long bindingId, long exitId, HttpKafkaWithConfig with,
        HttpKafkaRequest request)
    {
        super(factory);
        init(bindingId, exitId, with, request);
        this.reader = new HttpKafkaReader(factory, bindingId, exitId, this);
        this.items = with.merge() != null ? new LinkedHashMap<>() : null;
    }

    @Override
    void onRequestBegin(long traceId)
    {
        final List<byte[]> keys = new ArrayList<>();
        final List<byte[][]> headers = new ArrayList<>();
        for (HttpKafkaFilterConfig filter : with.filters())
        {
            final byte[] key = filter.key() != null ? resolve(filter.key()) : null;
            final byte[][] pairs = new byte[filter.names().size() * 2][];
            for (int h = 0; h < filter.names().size(); h++)
            {
                pairs[2 * h] = filter.names().get(h).getBytes(ISO_8859_1);
                pairs[2 * h + 1] = resolve(filter.values().get(h));
            }
            keys.add(key);
            headers.add(pairs);
        }
        topicName = new String(topic(), UTF_8);
        reader.open(traceId, topic(), keys, headers);
    }

    @Override
    void onRequestData(DataFW data)
    {
        // a GET's body means nothing here
    }

    @Override
    void onRequestEnd(long traceId)
    {
    }

    @Override
    public void onRecord(boolean first, boolean last, OctetsFW key, Array32FW<KafkaHeaderFW> headers, OctetsFW payload)
    {
        caughtUp = false;
        if (first)
        {
            valueLength = 0;
            found = payload != null || !last;
            contentType = null;
            if (headers != null)
            {
                headers.forEach(this::header);
            }
        }
        if (payload != null)
        {
            value.putBytes(valueLength, payload.buffer(), payload.offset(), payload.sizeof());
            valueLength += payload.sizeof();
        }
        if (first && items != null)
        {
            // the key of the record under way, remembered until its last fragment
            pendingKey = key != null && key.sizeof() >= 0 ? key.buffer().getStringWithoutLengthAscii(key.offset(),
                key.sizeof()) : null;
        }
        if (last)
        {
            if (items != null)
            {
                // a list: the progress of every partition, once it is caught up (below)
                etag = null;
            }
            else
            {
                // one item: its own position, so that records of other keys do not change it
                factory.token.clear();
                factory.token.put(partition, offset + 1);
                etag = tag();
            }
            if (items != null)
            {
                final String name = pendingKey != null ? pendingKey : "\u0000" + unkeyed++;
                if (found)
                {
                    final byte[] bytes = new byte[valueLength];
                    value.getBytes(0, bytes);
                    items.remove(name);
                    items.put(name, bytes);
                }
                else
                {
                    items.remove(name);
                }
            }
            changed = true;
        }
    }

    private String pendingKey;
    private int partition;
    private long offset;
    private String topicName;
    private boolean settling;
    private boolean settled;
    private boolean caughtUp;

    @Override
    public void onPosition(int partitionId, long offset)
    {
        this.partition = partitionId;
        this.offset = offset;
    }

    private void header(KafkaHeaderFW header)
    {
        final OctetsFW name = header.name().value();
        final OctetsFW value = header.value().value();
        if (name != null && value != null && name.sizeof() == 12
            && "content-type".equals(name.buffer().getStringWithoutLengthAscii(name.offset(), 12)))
        {
            contentType = new byte[value.sizeof()];
            value.buffer().getBytes(value.offset(), contentType);
        }
    }

    private byte[] tag()
    {
        final byte[] tag = new byte[factory.token.encodedLength()];
        factory.token.encode(factory.scratch, 0, factory.scratch.capacity());
        factory.scratch.getBytes(0, tag);
        return tag;
    }

    @Override
    public void onCaughtUp(long traceId)
    {
        caughtUp = true;
        if (answered() || settling)
        {
            return;
        }
        // once: what was acknowledged before the request is in the cache by then; waiting again for what is
        // acknowledged since never ended while the topic was produced to (a GET of it answered 503 at its deadline)
        final long settle = settled ? 0L : factory.freshness.settleUntil(topicName, System.currentTimeMillis());
        if (settle != 0L)
        {
            settled = true;
            // a record of this topic was acknowledged a moment ago: the cache may not have it yet
            settling = true;
            timer(traceId, settle - System.currentTimeMillis(), SIGNAL_SETTLE);
            return;
        }
        if (waiting && !changed)
        {
            return;
        }
        if (items != null)
        {
            reader.progress();
            etag = tag();
        }
        if (!waiting && items == null && (!found || etag == null) && request.ifNoneMatch == null
            && request.preferWait > 0)
        {
            waiting = true;
            waitingForItem = true;
            changed = false;
            timer(traceId, Math.min(request.preferWait * 1000L, options.waitLimit()), SIGNAL_WAIT);
            return;
        }
        if (waitingForItem && !found)
        {
            // a tombstone of the item waited for: still absent
            changed = false;
            return;
        }
        if (!waiting && etag != null && matches(request.ifNoneMatch, etag))
        {
            if (request.preferWait > 0)
            {
                waiting = true;
                changed = false;
                timer(traceId, Math.min(request.preferWait * 1000L, options.waitLimit()), SIGNAL_WAIT);
                return;
            }
            answer(traceId, head(304, 0).header("etag", quoted(etag)).build(), null, 0, 0);
            return;
        }
        respond(traceId);
    }

    private void respond(long traceId)
    {
        final HttpKafkaMergeConfig merge = with.merge();
        if (merge != null)
        {
            final ExpandableArrayBuffer document = new ExpandableArrayBuffer(256);
            int at = 0;
            document.putBytes(at, merge.prefix());
            at += merge.prefix().length;
            boolean comma = false;
            for (byte[] item : items.values())
            {
                if (comma)
                {
                    document.putByte(at++, (byte) ',');
                }
                document.putBytes(at, item);
                at += item.length;
                comma = true;
            }
            document.putBytes(at, merge.suffix());
            at += merge.suffix().length;
            final HttpKafkaResponse head = head(200, at).header("content-type", merge.contentType().getBytes(ISO_8859_1));
            if (etag != null)
            {
                head.header("etag", quoted(etag));
            }
            answer(traceId, head.build(), document, 0, at);
        }
        else if (!found || etag == null)
        {
            answer(traceId, head(404, 0).build(), null, 0, 0);
        }
        else
        {
            final HttpKafkaResponse head = head(200, valueLength).header("etag", quoted(etag));
            if (contentType != null)
            {
                head.header("content-type", contentType);
            }
            answer(traceId, head.build(), value, 0, valueLength);
        }
    }

    @Override
    public void onFailed(long traceId, int error)
    {
        failKafka(traceId, error, topicName);
    }

    @Override
    void onSignal(long traceId, int signalId)
    {
        if (signalId == SIGNAL_SETTLE)
        {
            settling = false;
            if (caughtUp)
            {
                onCaughtUp(traceId);
            }
        }
        else if (signalId == SIGNAL_WAIT && waitingForItem)
        {
            answer(traceId, head(404, 0).build(), null, 0, 0);
        }
        else if (signalId == SIGNAL_WAIT && etag != null)
        {
            answer(traceId, head(304, 0).header("etag", quoted(etag)).build(), null, 0, 0);
        }
        else if (signalId == SIGNAL_DEADLINE)
        {
            fail(traceId, 503);
        }
    }

    @Override
    void onClosing(long traceId)
    {
        reader.close(traceId);
    }
}
