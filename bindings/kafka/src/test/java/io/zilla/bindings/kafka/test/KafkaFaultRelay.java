/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.zilla.engine.test.FreePorts;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * A relay in front of a real broker (which advertises the relay's port, so that every connection of a client goes
 * through it) that injects one fault in the Produce traffic: the answer to the Produce request number {@code failAt}
 * (counted from 0 over all connections) is replaced by a partition error, after the broker wrote the batch (as the
 * broker's NOT_ENOUGH_REPLICAS_AFTER_APPEND would be). The retry of that batch (a later Produce holding its first
 * record) is held until {@link #release()}, so a test can look at what the client acknowledged meanwhile: the later
 * batches of the partition are answered by the broker, the failed one is not in the log but once.
 * <p>
 * Records are told apart by the first 8 bytes of their value: a decimal index.
 * <p>
 * Made with no fault ({@link #KafkaFaultRelay()}), it can instead lose a partition's later Produce requests
 * ({@link #loseProduceRequests(int)}) or an answer ({@link #loseProduceResponse(int)}), so that they are still in
 * flight for the client when the broker restarts or dies, whatever the host's speed. It reads no records then.
 */
public final class KafkaFaultRelay implements AutoCloseable
{
    private final ServerSocket server;
    private final int failAt;
    private final short error;
    private final AtomicInteger produces = new AtomicInteger();
    private final AtomicInteger laterSucceeded = new AtomicInteger();
    private final Map<Integer, Fault> faults = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> laterOfPartition = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> producesOfPartition = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> lostOfPartition = new ConcurrentHashMap<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final CountDownLatch retryHeld = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile List<Integer> failedRecords;
    private volatile String failedPartition;
    private volatile int brokerPort;
    private volatile int loseFrom = -1;
    private volatile boolean loseResponses;

    private record Fault(String topic, int partition, short version)
    {
    }

    // what a connection lost: its requests from one on, or the answers from one on (correlation ids to partitions)
    private record Lost(AtomicBoolean requests, Map<Integer, String> awaited, AtomicBoolean responses)
    {
        Lost()
        {
            this(new AtomicBoolean(), new ConcurrentHashMap<>(), new AtomicBoolean());
        }

        boolean any()
        {
            return requests.get() || responses.get();
        }
    }

    /** A relay that injects no error: for {@link #loseProduceRequests(int)} or {@link #loseProduceResponse(int)}. */
    public KafkaFaultRelay() throws IOException
    {
        this(-1, (short) 0);
    }

    public KafkaFaultRelay(int failAt, short error) throws IOException
    {
        this.failAt = failAt;
        this.error = error;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final Thread acceptor = new Thread(this::accept, "fault-relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port()
    {
        return server.getLocalPort();
    }

    /** The broker's own port, where the relay connects. */
    public void broker(int port)
    {
        this.brokerPort = port;
    }

    /** Starts a broker on a free port of its own that tells clients the relay's port: every connection goes through it. */
    public EmbeddedKafka startBroker() throws IOException
    {
        final int port = FreePorts.next();
        broker(port);
        return new EmbeddedKafka().port(port).property("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port())
            .start();
    }

    /**
     * From the Produce request number {@code from} of any partition on (counted from 0 for each), the requests of
     * that connection do not reach the broker (the ones before are answered), until it closes (the broker stopping):
     * the client awaits them, the broker never wrote them. Later connections are relayed whole.
     */
    public void loseProduceRequests(int from)
    {
        this.loseResponses = false;
        this.loseFrom = from;
    }

    /**
     * The answer to the first Produce request numbered {@code from} or more of any partition (counted from 0 for each)
     * does not reach the client, nor any later answer on that connection (it reads them in the order it asked), and the
     * later requests do not reach the broker, until it closes (the broker dying): the broker wrote that batch and none
     * after it, the client awaits them all. Later connections are relayed whole.
     * <p>
     * One batch written, not several: a restarted broker knows a producer's last batch only, and refuses the earlier
     * ones sent again with OUT_OF_ORDER_SEQUENCE_NUMBER.
     */
    public void loseProduceResponse(int from)
    {
        this.loseResponses = true;
        this.loseFrom = from;
    }

    /** Waits until {@code count} Produce requests of the partition, or their answers, are lost. */
    public boolean awaitLost(String topic, int partition, int count, Duration timeout) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (lost(topic, partition) < count && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        return lost(topic, partition) >= count;
    }

    /** Waits until {@code count} Produce requests of any of the topic's partitions, or their answers, are lost. */
    public boolean awaitLostOfTopic(String topic, int partitions, int count, Duration timeout) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (lostOfTopic(topic, partitions) < count && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        return lostOfTopic(topic, partitions) >= count;
    }

    private int lostOfTopic(String topic, int partitions)
    {
        int lost = 0;
        for (int p = 0; p < partitions; p++)
        {
            lost += lost(topic, p);
        }
        return lost;
    }

    /** How many Produce requests of the partition, or their answers, are lost. */
    public int lost(String topic, int partition)
    {
        final AtomicInteger lost = lostOfPartition.get(topic + "-" + partition);
        return lost != null ? lost.get() : 0;
    }

    /** Waits until the retry of the failed batch reached the relay (and is held). */
    public boolean awaitRetryHeld(Duration timeout) throws InterruptedException
    {
        return retryHeld.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The indexes of the records of the batch whose answer was replaced by the error. */
    public List<Integer> failedRecords()
    {
        return failedRecords;
    }

    /**
     * How many Produce requests of the failed batch's partition, sent after it, the broker answered (with whatever
     * error) before its retry came: the acknowledgements that could run ahead of it.
     */
    public int laterAnsweredOfFailedPartition()
    {
        return laterSucceeded.get();
    }

    public void release()
    {
        released.countDown();
    }

    @Override
    public void close() throws IOException
    {
        released.countDown();
        server.close();
        for (Socket socket : sockets)
        {
            socket.close();
        }
    }

    private void accept()
    {
        try
        {
            while (!server.isClosed())
            {
                final Socket client = server.accept();
                sockets.add(client);
                final Socket broker;
                try
                {
                    broker = new Socket(InetAddress.getLoopbackAddress(), brokerPort);
                }
                catch (IOException ex)
                {
                    // the broker is down (restarting): the client finds the connection closed, as it would the broker's
                    client.close();
                    continue;
                }
                sockets.add(broker);
                final Lost lost = new Lost();
                start(() -> requests(client, broker, lost), "fault-relay-requests");
                start(() -> responses(broker, client, lost), "fault-relay-responses");
            }
        }
        catch (IOException ex)
        {
            // closed
        }
    }

    private static void start(Runnable task, String name)
    {
        final Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    private void requests(Socket client, Socket broker, Lost lost)
    {
        try
        {
            final DataInputStream in = new DataInputStream(client.getInputStream());
            final DataOutputStream out = new DataOutputStream(broker.getOutputStream());
            while (true)
            {
                final byte[] request = new byte[in.readInt()];
                in.readFully(request);
                if (!onRequest(request, lost))
                {
                    continue;
                }
                out.writeInt(request.length);
                out.write(request);
                out.flush();
            }
        }
        catch (IOException | InterruptedException ex)
        {
            closeQuietly(client, broker);
        }
    }

    // whether the request goes on to the broker
    private boolean onRequest(byte[] request, Lost lost) throws InterruptedException
    {
        final ByteBuffer buffer = ByteBuffer.wrap(request);
        final short apiKey = buffer.getShort(0);
        if (apiKey != ApiKeys.PRODUCE.id)
        {
            return !lost.requests().get();
        }
        final RequestHeader header = RequestHeader.parse(buffer);
        final short version = header.apiVersion();
        final ProduceRequestData produce = new ProduceRequestData(new ByteBufferAccessor(buffer), version);
        final ProduceRequestData.TopicProduceData topic = produce.topicData().iterator().next();
        final ProduceRequestData.PartitionProduceData partition = topic.partitionData().get(0);
        final String name = topic.name() + "-" + partition.index();
        // one request may carry several partitions' batches: each counts as a request of its partition
        final List<String> names = new ArrayList<>();
        int ofPartition = -1;
        for (ProduceRequestData.TopicProduceData topicData : produce.topicData())
        {
            for (ProduceRequestData.PartitionProduceData partitionData : topicData.partitionData())
            {
                final String each = topicData.name() + "-" + partitionData.index();
                names.add(each);
                ofPartition = Math.max(ofPartition,
                    producesOfPartition.computeIfAbsent(each, n -> new AtomicInteger()).getAndIncrement());
            }
        }
        final int from = loseFrom;
        if (from >= 0 && ofPartition >= from && !lost.requests().getAndSet(true) && loseResponses)
        {
            // this one reaches the broker, its answer does not; the later requests do not
            lost.awaited().put(header.correlationId(), name);
            return true;
        }
        if (lost.requests().get())
        {
            // and every later request of the connection: the broker would refuse a batch after a gap
            if (!loseResponses && ofPartition >= from)
            {
                names.forEach(each -> lostOfPartition.computeIfAbsent(each, n -> new AtomicInteger()).incrementAndGet());
            }
            return false;
        }
        if (failAt < 0)
        {
            // no fault to inject: the records are not read (they need not start with an index)
            return true;
        }
        final List<Integer> records = new ArrayList<>();
        for (Record record : ((MemoryRecords) partition.records()).records())
        {
            final ByteBuffer value = record.value();
            final byte[] index = new byte[8];
            value.get(index);
            records.add(Integer.parseInt(new String(index, UTF_8)));
        }
        final int number = produces.getAndIncrement();
        final List<Integer> failed = failedRecords;
        if (number == failAt)
        {
            failedPartition = name;
            failedRecords = List.copyOf(records);
            faults.put(header.correlationId(), new Fault(topic.name(), partition.index(), version));
        }
        else if (failed != null && records.contains(failed.get(0)))
        {
            // the retry of the failed batch: held until the test has looked
            retryHeld.countDown();
            released.await(120, TimeUnit.SECONDS);
        }
        else if (failed != null && name.equals(failedPartition) && retryHeld.getCount() > 0)
        {
            laterOfPartition.put(header.correlationId(), number);
        }
        return true;
    }

    private void responses(Socket broker, Socket client, Lost lost)
    {
        try
        {
            final DataInputStream in = new DataInputStream(broker.getInputStream());
            final DataOutputStream out = new DataOutputStream(client.getOutputStream());
            while (true)
            {
                byte[] response = new byte[in.readInt()];
                in.readFully(response);
                final int correlationId = ByteBuffer.wrap(response).getInt(0);
                final String lostOf = lost.awaited().remove(correlationId);
                if (lostOf != null)
                {
                    lost.responses().set(true);
                    lostOfPartition.computeIfAbsent(lostOf, n -> new AtomicInteger()).incrementAndGet();
                }
                if (lost.responses().get())
                {
                    // and every later answer of the connection
                    continue;
                }
                final Fault fault = faults.remove(correlationId);
                if (fault != null)
                {
                    // the error once a later batch of the partition is on its way, so that it can be answered first
                    awaitLaterRequest();
                    response = errorResponse(correlationId, fault);
                }
                else if (laterOfPartition.remove(correlationId) != null)
                {
                    laterSucceeded.incrementAndGet();
                }
                out.writeInt(response.length);
                out.write(response);
                out.flush();
            }
        }
        catch (IOException ex)
        {
            if (lost.any())
            {
                // the connection that lost requests or answers closed: the connections after it are relayed whole
                loseFrom = -1;
            }
            closeQuietly(broker, client);
        }
    }

    private void awaitLaterRequest()
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (laterOfPartition.isEmpty() && System.nanoTime() < deadline)
        {
            try
            {
                Thread.sleep(1);
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private byte[] errorResponse(int correlationId, Fault fault)
    {
        final ProduceResponseData data = new ProduceResponseData().setThrottleTimeMs(0);
        final ProduceResponseData.TopicProduceResponse topic = new ProduceResponseData.TopicProduceResponse()
            .setName(fault.topic());
        topic.partitionResponses().add(new ProduceResponseData.PartitionProduceResponse()
            .setIndex(fault.partition())
            .setErrorCode(error)
            .setBaseOffset(-1L)
            .setLogAppendTimeMs(-1L)
            .setLogStartOffset(-1L));
        data.responses().add(topic);
        final ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        final short headerVersion = ApiKeys.PRODUCE.responseHeaderVersion(fault.version());
        final ObjectSerializationCache cache = new ObjectSerializationCache();
        final int size = header.size(cache, headerVersion) + data.size(cache, fault.version());
        final ByteBuffer buffer = ByteBuffer.allocate(size);
        final ByteBufferAccessor accessor = new ByteBufferAccessor(buffer);
        header.write(accessor, cache, headerVersion);
        data.write(accessor, cache, fault.version());
        return buffer.array();
    }

    private static void closeQuietly(Socket one, Socket other)
    {
        try
        {
            one.close();
            other.close();
        }
        catch (IOException ex)
        {
            // closing anyway
        }
    }
}
