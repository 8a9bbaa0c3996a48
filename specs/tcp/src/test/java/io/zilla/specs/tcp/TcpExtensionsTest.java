/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.zilla.specs.core.types.stream.ExtensionFW;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import io.zilla.specs.tcp.types.stream.TcpError;
import io.zilla.specs.tcp.types.stream.TcpResetExFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class TcpExtensionsTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);

    @Test
    void shouldRoundTripABeginExtension()
    {
        final int limit = new TcpBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(0x1234)
            .sourceHost("192.0.2.1")
            .sourcePort(50000)
            .destinationHost("example.com")
            .destinationPort(9092)
            .build()
            .limit();

        final TcpBeginExFW beginEx = new TcpBeginExFW().tryWrap(buffer, 0, limit);
        assertNotNull(beginEx);
        assertEquals(0x1234, beginEx.typeId());
        assertEquals("192.0.2.1", beginEx.sourceHost().asString());
        assertEquals(50000, beginEx.sourcePort());
        assertEquals("example.com", beginEx.destinationHost().asString());
        assertEquals(9092, beginEx.destinationPort());

        // every extension starts with the type id of its binding type
        assertEquals(0x1234, new ExtensionFW().wrap(buffer, 0, limit).typeId());
    }

    @Test
    void shouldDefaultTheSourceToNone()
    {
        final int limit = new TcpBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(1)
            .destinationHost("127.0.0.1")
            .destinationPort(80)
            .build()
            .limit();

        final TcpBeginExFW beginEx = new TcpBeginExFW().wrap(buffer, 0, limit);
        assertNull(beginEx.sourceHost().asString());
        assertEquals(0, beginEx.sourcePort());
    }

    @Test
    void shouldRefuseATruncatedBeginExtension()
    {
        final int limit = new TcpBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(1)
            .destinationHost("127.0.0.1")
            .destinationPort(80)
            .build()
            .limit();

        assertNull(new TcpBeginExFW().tryWrap(buffer, 0, limit - 1));
    }

    @Test
    void shouldRoundTripAResetExtension()
    {
        final int limit = new TcpResetExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(7)
            .error(TcpError.TIMEOUT)
            .reason("connect timed out after 200 ms")
            .build()
            .limit();

        final TcpResetExFW resetEx = new TcpResetExFW().tryWrap(buffer, 0, limit);
        assertNotNull(resetEx);
        assertEquals(TcpError.TIMEOUT, resetEx.error());
        assertEquals("connect timed out after 200 ms", resetEx.reason().asString());
    }
}
