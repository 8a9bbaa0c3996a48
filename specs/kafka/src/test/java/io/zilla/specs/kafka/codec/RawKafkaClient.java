/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;

import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;

/**
 * Sends one request at a time to a broker in flexible versions (request header v2, response header v1), the bodies
 * written and read with kafka-clients' message classes: the broker sees the record batches exactly as given.
 */
final class RawKafkaClient implements AutoCloseable
{
    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private int correlationId;

    RawKafkaClient(
        String host,
        int port) throws IOException
    {
        socket = new Socket(host, port);
        socket.setSoTimeout(30_000);
        out = new DataOutputStream(socket.getOutputStream());
        in = new DataInputStream(socket.getInputStream());
    }

    /** Sends {@code body} at {@code version} and returns the response body, after its header. */
    ByteBufferAccessor send(
        ApiMessage body,
        short version) throws IOException
    {
        final RequestHeaderData header = new RequestHeaderData()
            .setRequestApiKey(body.apiKey())
            .setRequestApiVersion(version)
            .setCorrelationId(++correlationId)
            .setClientId("record-batch-test");
        final byte[] headerBytes = Messages.bytes(header, (short) 2);
        final byte[] bodyBytes = Messages.bytes(body, version);
        out.writeInt(headerBytes.length + bodyBytes.length);
        out.write(headerBytes);
        out.write(bodyBytes);
        out.flush();

        final byte[] response = new byte[in.readInt()];
        in.readFully(response);
        final ByteBufferAccessor reader = new ByteBufferAccessor(ByteBuffer.wrap(response));
        final ResponseHeaderData responseHeader = new ResponseHeaderData(reader, (short) 1);
        if (responseHeader.correlationId() != correlationId)
        {
            throw new IOException("correlation id " + responseHeader.correlationId() + ", not " + correlationId);
        }
        return reader;
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
