/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.ArrayDeque;
import java.util.Arrays;

import io.zilla.specs.kafka.codec.KafkaApis;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The Produce requests of one connection, each with the batches of several partitions, as kafka-clients' sender puts
 * a node's ready batches into one request. A broker handles a connection's requests one after the other (it reads the
 * next once it answered the one before, acks=all included), so a Produce per partition queued sixteen of them behind
 * each other where one would do (REST over sixteen partitions answered at a third of its rate over one).
 * <p>
 * A group is written at once when no group of the connection awaits its answer; else it gathers the batches sent
 * meanwhile and goes when the answers come (Nagle's rule for the connection, as each partition has its own), so the
 * busier the broker, the more records and partitions a request carries: a group per batch as they came, up to
 * {@code maxInFlight} of them in flight, had 3 records a request for REST at 100 concurrent requests over 16
 * partitions, the broker's CPU per request setting the rate. A group that holds an eager batch (a partition's full or
 * half-full one, or one sent again) goes while fewer than {@code maxInFlight} await (as kafka-clients'
 * {@code max.in.flight.requests.per.connection}): a partition that fills batches faster than a round trip keeps
 * several in flight, as a full batch makes kafka-clients' sender drain every partition of its node.
 * <p>
 * A group holds a partition once (a broker takes one batch per partition of a request), at most {@code maxPartitions}
 * of them and {@link #MAX_BYTES} of batches, like kafka-clients' {@code max.request.size}. Batches of another
 * {@code acks} or another request sent alone (a large record's, from its own buffer) close the group gathering, so a
 * partition's batches keep their order.
 * Nothing is allocated per request: groups are reused, their arrays and buffer grow to the largest seen.
 */
final class KafkaProduceGroups
{
    /** The most bytes of batches in one request (kafka-clients' max.request.size). */
    static final int MAX_BYTES = 1024 * 1024;

    private static final int TIMEOUT_MS = KafkaClientProduceFactory.PRODUCE_TIMEOUT_MS;

    /** A partition's batch that goes in a group, and hears the partition's answer. */
    interface Member extends KafkaProduceRequests.PartitionBatch
    {
        short acks();

        /** Whether its bytes are still there to be sent: its stream may have closed while it waited. */
        boolean live();

        /** The response's error code for its partition (0: written). */
        void onProduced(int error, long traceId);

        /** No response will tell: {@code error} as {@link KafkaClientRequest#onFailed}. */
        void onFailed(short error, long traceId);

        /** Whether it may go while other groups await their answer: full or half full, or sent again. */
        boolean eager();
    }

    private final KafkaClientConnection connection;
    private final AtomicCounter requests;
    private final int maxInFlight;
    private final int maxPartitions;
    private final ArrayDeque<Group> free = new ArrayDeque<>();
    // queued on the connection and not written yet: it takes the batches sent meanwhile
    private Group gathering;
    // written and awaiting their answer
    private int awaiting;
    // the body of a group larger than the encode buffer, written as the request's tail: one buffer, grown by doubling
    // to the largest seen, held by the group that wrote it until its tail is written (the next group waits)
    private MutableDirectBuffer tail;
    private Group tailOwner;

    KafkaProduceGroups(KafkaClientConnection connection, AtomicCounter requests, int maxInFlight, int maxPartitions)
    {
        this.maxPartitions = Math.max(1, maxPartitions);
        this.connection = connection;
        this.requests = requests;
        this.maxInFlight = Math.max(1, maxInFlight);
    }

    /** Sends the batch in the group gathering, or in a new one. */
    void send(Member member, long traceId)
    {
        if (gathering != null && gathering.takes(member))
        {
            final boolean waited = !gathering.eager;
            gathering.add(member);
            if (waited && gathering.eager)
            {
                // it may go before the answers now
                connection.flush(traceId);
            }
        }
        else
        {
            final Group group = free.isEmpty() ? new Group() : free.poll();
            group.acks = member.acks();
            group.add(member);
            gathering = group;
            connection.send(group, traceId);
        }
    }

    /** Sends a request of its own, behind the groups queued: the group gathering takes no more batches. */
    void sendAlone(KafkaClientRequest request, long traceId)
    {
        gathering = null;
        connection.send(request, traceId);
    }

    private final class Group implements KafkaClientRequest, KafkaProduceRequests.PartitionHandler
    {
        private Member[] members = new Member[16];
        private boolean[] answered = new boolean[16];
        private int count;
        private int bytes;
        private short acks;
        private boolean eager;
        private boolean written;
        private int tailLength;
        private long traceId;

        boolean takes(Member member)
        {
            boolean takes = member.acks() == acks && count < maxPartitions && bytes + member.batchLength() <= MAX_BYTES;
            for (int i = 0; i < count && takes; i++)
            {
                takes = members[i].partitionId() != member.partitionId() || !Arrays.equals(members[i].topic(), member.topic());
            }
            return takes;
        }

        // after the last of its topic, so that each topic's batches follow each other
        void add(Member member)
        {
            if (count == members.length)
            {
                members = Arrays.copyOf(members, count << 1);
                answered = new boolean[count << 1];
            }
            int at = count;
            for (int i = count - 1; i >= 0; i--)
            {
                if (Arrays.equals(members[i].topic(), member.topic()))
                {
                    at = i + 1;
                    break;
                }
            }
            System.arraycopy(members, at, members, at + 1, count - at);
            members[at] = member;
            count++;
            bytes += member.batchLength();
            eager |= member.eager();
        }

        @Override
        public short apiKey()
        {
            return KafkaApis.PRODUCE;
        }

        @Override
        public boolean ready()
        {
            // none awaits its answer, or fewer than maxInFlight for an eager group; else what comes meanwhile goes together
            return (awaiting == 0 || eager && awaiting < maxInFlight) && (tailOwner == null || tailOwner == this);
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            if (gathering == this)
            {
                gathering = null;
            }
            // a member whose stream closed while it waited has no bytes any more
            int live = 0;
            for (int i = 0; i < count; i++)
            {
                if (members[i].live())
                {
                    members[live++] = members[i];
                }
            }
            Arrays.fill(members, live, count, null);
            count = live;
            int limit = ENCODE_FAILED;
            tailLength = 0;
            if (count > 0)
            {
                final int size = KafkaProduceRequests.sizeofMany(version, members, count);
                if (maxLimit - offset >= size)
                {
                    limit = KafkaProduceRequests.encodeMany(version, buffer, offset, acks, TIMEOUT_MS, members, count);
                }
                else
                {
                    // larger than the encode buffer: the body follows from the connection's tail buffer
                    if (tail == null || tail.capacity() < size)
                    {
                        tail = new UnsafeBuffer(new byte[Math.max(Integer.highestOneBit(size - 1) << 1, 64 * 1024)]);
                    }
                    KafkaProduceRequests.encodeMany(version, tail, 0, acks, TIMEOUT_MS, members, count);
                    tailOwner = this;
                    tailLength = size;
                    limit = offset;
                }
            }
            return limit;
        }

        @Override
        public int tailLength(short version)
        {
            return tailLength;
        }

        @Override
        public DirectBuffer tail()
        {
            return tailLength > 0 ? tail : null;
        }

        @Override
        public boolean awaitsResponse()
        {
            return acks != 0;
        }

        @Override
        public void onWritten(long traceId)
        {
            releaseTail();
            requests.increment();
            if (acks == 0)
            {
                for (int i = 0; i < count; i++)
                {
                    members[i].onProduced(0, traceId);
                }
                recycle();
            }
            else
            {
                written = true;
                awaiting++;
            }
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            this.traceId = traceId;
            final boolean readable = KafkaProduceRequests.readPartitions(version, buffer, offset, limit, this)
                != KafkaProduceRequests.MALFORMED && allAnswered();
            if (readable)
            {
                // counted down after the members heard: the batches they send now gather in the next group
                written = false;
                awaiting--;
                recycle();
            }
            return readable;
        }

        @Override
        public void onPartition(DirectBuffer buffer, int topicOffset, int topicLength, int partitionId, int error)
        {
            for (int i = 0; i < count; i++)
            {
                if (!answered[i] && members[i].partitionId() == partitionId && named(members[i].topic(), buffer, topicOffset,
                    topicLength))
                {
                    answered[i] = true;
                    members[i].onProduced(error, traceId);
                    break;
                }
            }
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            releaseTail();
            if (gathering == this)
            {
                gathering = null;
            }
            if (written)
            {
                written = false;
                awaiting--;
            }
            for (int i = 0; i < count; i++)
            {
                if (!answered[i])
                {
                    answered[i] = true;
                    members[i].onFailed(error, traceId);
                }
            }
            recycle();
        }

        private void releaseTail()
        {
            if (tailOwner == this)
            {
                tailOwner = null;
            }
        }

        private boolean allAnswered()
        {
            boolean all = true;
            for (int i = 0; i < count && all; i++)
            {
                all = answered[i];
            }
            return all;
        }

        private void recycle()
        {
            Arrays.fill(members, 0, count, null);
            Arrays.fill(answered, 0, count, false);
            count = 0;
            bytes = 0;
            eager = false;
            tailLength = 0;
            free.add(this);
        }
    }

    private static boolean named(byte[] topic, DirectBuffer buffer, int offset, int length)
    {
        boolean equal = topic.length == length;
        for (int i = 0; i < length && equal; i++)
        {
            equal = topic[i] == buffer.getByte(offset + i);
        }
        return equal;
    }
}
