/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BiFunction;

import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Readable;

/** Runs a response body through a rewriter and checks the result with kafka-clients. */
final class RewriterAssertions
{
    static final BrokerAddressMapper PROXY = (nodeId, host, port) ->
        new BrokerAddress("broker-" + nodeId + ".proxy.zilla.example", 30000 + nodeId);

    static final BrokerAddressMapper IDENTITY = (nodeId, host, port) -> new BrokerAddress(host, port);

    private static final int OFFSET = 5;
    private static final int DESTINATION_OFFSET = 11;
    private static final byte[] CORRUPTIONS = {0x00, 0x01, 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};

    private RewriterAssertions()
    {
    }

    /**
     * Asserts that {@code source}, written at {@code version}, is rewritten to {@code expected}: parsed back equal,
     * and byte for byte what kafka-clients writes for it; that the identity mapping gives back the very same bytes;
     * and that every truncation, an unsupported version and a destination too small fail without an exception.
     */
    static <T extends ApiMessage> void assertRewrites(
        ResponseRewriter<T> rewriter,
        T source,
        T expected,
        short version,
        BiFunction<Readable, Short, T> parser)
    {
        final String what = source.getClass().getSimpleName() + " v" + version;
        final byte[] bytes = Messages.bytes(source, version);
        final byte[] expectedBytes = Messages.bytes(expected, version);
        final UnsafeBuffer buffer = Messages.withJunkAfter(OFFSET, bytes);
        final UnsafeBuffer destination = new UnsafeBuffer(new byte[DESTINATION_OFFSET + 2 * bytes.length + 4096]);

        final int identity = rewriter.rewrite(buffer, OFFSET, bytes.length, version, IDENTITY,
            destination, DESTINATION_OFFSET, destination.capacity());
        assertEquals(bytes.length, identity, what);
        assertArrayEquals(bytes, copy(destination, DESTINATION_OFFSET, identity), what);

        final int rewritten = rewriter.rewrite(buffer, OFFSET, bytes.length, version, PROXY,
            destination, DESTINATION_OFFSET, destination.capacity());
        assertEquals(expectedBytes.length, rewritten, what);
        assertEquals(expected, parser.apply(Messages.reader(destination, DESTINATION_OFFSET, rewritten), version), what);
        assertArrayEquals(expectedBytes, copy(destination, DESTINATION_OFFSET, rewritten), what);

        assertEquals(ResponseRewriter.FAILED, rewriter.rewrite(buffer, OFFSET, bytes.length, version, PROXY,
            destination, DESTINATION_OFFSET, DESTINATION_OFFSET + rewritten - 1), what);
        assertEquals(ResponseRewriter.FAILED, rewriter.rewrite(buffer, OFFSET, bytes.length,
            (short) (rewriter.highestVersion() + 1), PROXY, destination, DESTINATION_OFFSET, destination.capacity()), what);
        for (int length = 0; length < bytes.length; length++)
        {
            assertEquals(ResponseRewriter.FAILED, rewriter.rewrite(buffer, OFFSET, length, version, PROXY,
                destination, DESTINATION_OFFSET, destination.capacity()), what + " truncated to " + length);
        }

        // corrupt each byte in turn (lengths, counts, varints): the rewriter fails or rewrites, never throws
        for (int index = 0; index < bytes.length; index++)
        {
            for (byte corrupt : CORRUPTIONS)
            {
                final UnsafeBuffer corrupted = Messages.withJunkAfter(OFFSET, bytes);
                corrupted.putByte(OFFSET + index, corrupt);
                final int result = rewriter.rewrite(corrupted, OFFSET, bytes.length, version, PROXY,
                    destination, DESTINATION_OFFSET, destination.capacity());
                assertTrue(result == ResponseRewriter.FAILED || result > 0, what + " corrupted at " + index);
            }
        }
    }

    private static byte[] copy(
        UnsafeBuffer buffer,
        int offset,
        int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }
}
