/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.List;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.ReadyCondition;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.KafkaApis;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;

/**
 * The kafka client binding's part in the engine's readiness: whenever the health endpoint asks, a Metadata request for
 * no topics on the bootstrap control connection, so that {@code /health/ready} holds only while the cluster answers.
 * The pool's own connect and request timeouts bound how long an answer can take; a failed connection moves on to the
 * next bootstrap server, so the next probe tries that one.
 */
final class KafkaClientReachability implements KafkaClientRequest
{
    private final KafkaClientConnectionPool pool;
    private final String servers;
    private final ReadyCondition condition;
    private final EngineContext context;
    private boolean inflight;

    KafkaClientReachability(EngineContext context, KafkaClientConnectionPool pool, long bindingId, String bindingName,
        List<BrokerAddress> servers)
    {
        this.context = context;
        this.pool = pool;
        this.servers = String.join(",", servers.stream().map(s -> s.host() + ":" + s.port()).toList());
        this.condition = context.supplyReadyCondition(bindingId, "kafka " + bindingName, this::check);
    }

    private void check()
    {
        if (!inflight)
        {
            inflight = true;
            final long traceId = context.supplyTraceId();
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
        return KafkaApis.METADATA;
    }

    @Override
    public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
    {
        // an empty topics array asks about no topic (null would be every topic): the answer names the brokers only
        final MetadataRequestData request = new MetadataRequestData().setAllowAutoTopicCreation(false);
        return KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
    }

    @Override
    public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
    {
        boolean readable;
        try
        {
            final MetadataResponseData response =
                new MetadataResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
            readable = true;
            inflight = false;
            if (response.brokers().isEmpty())
            {
                condition.unmet(servers + ": a Metadata answer that names no broker");
            }
            else
            {
                condition.met();
            }
        }
        catch (RuntimeException ex)
        {
            // the connection closes on a response it cannot read, and onFailed follows
            readable = false;
        }
        return readable;
    }

    @Override
    public void onFailed(short error, long traceId)
    {
        inflight = false;
        condition.unmet(servers + ": " + switch (error)
        {
            case NETWORK_EXCEPTION -> "no answer (the connection failed, closed or timed out)";
            case CORRUPT_MESSAGE -> "an answer that could not be read";
            case UNSUPPORTED_VERSION -> "no Metadata version in common";
            case KafkaClientAuthenticator.SASL_AUTHENTICATION_FAILED -> "SASL authentication failed";
            default -> "Metadata failed with error " + error;
        });
    }

    void close()
    {
        condition.close();
    }
}
