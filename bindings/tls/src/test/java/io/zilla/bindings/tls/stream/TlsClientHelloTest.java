/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TlsClientHello} over ClientHellos that the JDK writes, whole, cut short, split into records and damaged. */
class TlsClientHelloTest
{
    @TempDir
    static Path keys;

    private static TlsPeers.TlsKeys tls;

    private final TlsClientHello hello = new TlsClientHello();

    @BeforeAll
    static void makeKey() throws Exception
    {
        tls = TlsPeers.selfSigned(keys);
    }

    @Test
    void shouldReadServerNameAndProtocols() throws Exception
    {
        final byte[] bytes = clientHello(tls, "www.example.com", "h2", "http/1.1");
        assertEquals(TlsClientHello.COMPLETE, scan(bytes));
        assertEquals("www.example.com", hello.serverName());
        assertEquals(List.of("h2", "http/1.1"), hello.protocols());
    }

    @Test
    void shouldReadAClientHelloWithoutExtensionsOfInterest() throws Exception
    {
        assertEquals(TlsClientHello.COMPLETE, scan(clientHello(tls, null)));
        assertNull(hello.serverName());
        assertEquals(List.of(), hello.protocols());
    }

    @Test
    void shouldWaitForEveryByte() throws Exception
    {
        final byte[] bytes = clientHello(tls, "www.example.com", "h2");
        for (int length = 0; length < bytes.length; length++)
        {
            assertEquals(TlsClientHello.INCOMPLETE, scan(Arrays.copyOf(bytes, length)), "after " + length + " bytes");
            // what a proxy waits for before it scans again: more than it has, never more than the hello
            assertTrue(hello.needed() > length && hello.needed() <= bytes.length, length + ": " + hello.needed());
        }
    }

    @Test
    void shouldGatherAClientHelloSplitIntoRecords() throws Exception
    {
        final byte[] split = splitIntoRecords(clientHello(tls, "split.example.com", "h2"), 1, 3, 100);
        assertEquals(TlsClientHello.COMPLETE, scan(split));
        assertEquals("split.example.com", hello.serverName());
        assertEquals(List.of("h2"), hello.protocols());
        for (int length = 0; length < split.length; length++)
        {
            assertEquals(TlsClientHello.INCOMPLETE, scan(Arrays.copyOf(split, length)), "after " + length + " bytes");
            assertTrue(hello.needed() > length && hello.needed() <= split.length, length + ": " + hello.needed());
        }
    }

    @Test
    void shouldRefuseDamage() throws Exception
    {
        final byte[] bytes = clientHello(tls, "www.example.com", "h2");

        final byte[] alert = bytes.clone();
        alert[0] = 21;
        assertEquals(TlsClientHello.NOT_HANDSHAKE, scan(alert));

        final byte[] version = bytes.clone();
        version[1] = 2;
        assertEquals(TlsClientHello.MALFORMED, scan(version));

        final byte[] serverHello = bytes.clone();
        serverHello[5] = 2;
        assertEquals(TlsClientHello.MALFORMED, scan(serverHello));

        // the session id length (after the record and handshake headers, version and random) beyond 32
        final byte[] sessionId = bytes.clone();
        sessionId[5 + 4 + 2 + 32] = 33;
        assertEquals(TlsClientHello.MALFORMED, scan(sessionId));

        // one byte fewer in the handshake and the record: the extensions no longer fit
        final byte[] shorter = Arrays.copyOf(bytes, bytes.length - 1);
        shorter[4]--;
        shorter[8]--;
        assertEquals(TlsClientHello.MALFORMED, scan(shorter));
    }

    private int scan(byte[] bytes)
    {
        return hello.scan(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    /** The first flight of a JDK client: one record holding its ClientHello. */
    static byte[] clientHello(TlsPeers.TlsKeys tls, String serverName, String... protocols) throws Exception
    {
        final SSLEngine engine = tls.freshContext().createSSLEngine("127.0.0.1", 443);
        engine.setUseClientMode(true);
        final SSLParameters parameters = engine.getSSLParameters();
        if (serverName != null)
        {
            parameters.setServerNames(List.of(new SNIHostName(serverName)));
        }
        parameters.setApplicationProtocols(protocols);
        engine.setSSLParameters(parameters);
        final ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        final byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }

    /** The handshake of one record re-cut into records of the given sizes, and one for the rest. */
    static byte[] splitIntoRecords(byte[] record, int... sizes)
    {
        final ByteArrayOutputStream split = new ByteArrayOutputStream();
        int offset = TlsClientHello.RECORD_HEADER;
        for (int i = 0; i <= sizes.length; i++)
        {
            final int size = i < sizes.length ? sizes[i] : record.length - offset;
            split.write(22);
            split.write(3);
            split.write(1);
            split.write(size >> 8);
            split.write(size & 0xff);
            split.write(record, offset, size);
            offset += size;
        }
        return split.toByteArray();
    }
}
