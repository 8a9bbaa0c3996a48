/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import static io.zilla.bindings.tls.stream.TlsPeers.LOOPBACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import io.zilla.bindings.tls.TlsBinding;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * server.yaml on four workers: the contexts are shared, so sessions resume whichever worker a connection lands on;
 * and a handshake that stalls is closed after the timeout.
 */
class TlsServerWorkersTest
{
    private static final long TIMEOUT = 3_000L;

    @TempDir
    static Path directory;

    private static TlsCertificates certificates;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(4);

    private int port;

    @BeforeAll
    static void makeKeys() throws Exception
    {
        certificates = TlsCertificates.make(directory);
    }

    @BeforeEach
    void startEngine() throws IOException
    {
        port = freePort();
        engine.anchor(TlsServerWorkersTest.class)
            .property(TlsBinding.HELLO_TIMEOUT, TIMEOUT)
            .env("KEYS", certificates.serverKeys.toString())
            .env("SIGNERS", certificates.caCertificate.toString())
            .env("PORT", String.valueOf(port))
            .env("STRICT_PORT", String.valueOf(freePort()))
            .env("MUTUAL_PORT", String.valueOf(freePort()))
            .env("REQUESTED_PORT", String.valueOf(freePort()))
            .env("OTHER_PORT", String.valueOf(freePort()))
            .start("server.yaml");
    }

    @Test
    void shouldResumeSessionsOnAnyWorker() throws Exception
    {
        for (String version : List.of("TLSv1.3", "TLSv1.2"))
        {
            final SSLContext context = certificates.context(null);
            final long first;
            try (SSLSocket socket = connect(context, version))
            {
                first = socket.getSession().getCreationTime();
            }
            for (int i = 0; i < 12; i++)
            {
                try (SSLSocket socket = connect(context, version))
                {
                    assertEquals(first, socket.getSession().getCreationTime(), version + " connection " + i);
                }
            }
        }
        final Map<String, Long> counters = EngineCounters.read(engine.directory()).get("tls");
        assertEquals(26L, counters.get("handshakes"));
        assertEquals(24L, counters.get("handshakes.resumed"));
    }

    @Test
    void shouldCloseAHandshakeThatStalls() throws Exception
    {
        // a real ClientHello, then nothing: the server answers and waits for the rest of the handshake
        final SSLEngine client = certificates.context(null).createSSLEngine("localhost", port);
        client.setUseClientMode(true);
        final ByteBuffer hello = ByteBuffer.allocate(client.getSession().getPacketBufferSize());
        client.wrap(ByteBuffer.allocate(0), hello);
        try (Socket socket = new Socket(LOOPBACK, port))
        {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(hello.array(), 0, hello.position());
            final long start = System.nanoTime();
            final InputStream in = socket.getInputStream();
            int read = 0;
            try
            {
                while (in.read() != -1)
                {
                    read++;
                }
            }
            catch (IOException ex)
            {
                // reset: closed too
            }
            assertTrue(read > 0, "the server's flight");
            assertTrue(System.nanoTime() - start >= Duration.ofMillis(TIMEOUT / 2).toNanos(), "closed before the timeout");
        }
        final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (engine.events().stream().noneMatch(event -> event.event().equals("tls.handshake.timeout")))
        {
            assertTrue(System.nanoTime() < deadline, engine.events().toString());
            Thread.sleep(10);
        }
        assertEquals(1L, EngineCounters.read(engine.directory()).get("tls").get("handshakes.timedout"));
    }

    private SSLSocket connect(SSLContext context, String version) throws IOException
    {
        final SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(LOOPBACK, port);
        socket.setSoTimeout(20_000);
        final SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName("localhost")));
        parameters.setProtocols(new String[] {version});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        final OutputStream out = socket.getOutputStream();
        out.write("x\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        assertEquals("x", TlsPeers.readLine(socket.getInputStream()));
        return socket;
    }

    private static int freePort() throws IOException
    {
        return FreePorts.next();
    }
}
