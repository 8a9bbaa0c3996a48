/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import static io.zilla.bindings.tls.engine.TestKeys.SERVER_NAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;

import io.netty.handler.ssl.OpenSsl;
import io.zilla.bindings.tls.config.TlsMutual;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An OpenSSL provider's server engine on a real socket (127.0.0.1), driven by a small blocking loop as the binding
 * would drive it, against {@code openssl s_client}: the handshake, ALPN, SNI, the certificate chain verified by
 * OpenSSL 3 itself, and a line echoed back.
 */
class OpenSslSocketTest
{
    @TempDir
    static Path directory;

    static TestKeys keys;
    static Path caFile;

    @BeforeAll
    static void makeKeys() throws Exception
    {
        assumeTrue(OpenSsl.isAvailable(), () -> "OpenSSL did not load: " + OpenSsl.unavailabilityCause());
        keys = new TestKeys(directory);
        caFile = directory.resolve("trusted-ca.pem");
        Files.writeString(caFile, "-----BEGIN CERTIFICATE-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.ca.getEncoded())
            + "\n-----END CERTIFICATE-----\n");
    }

    @ParameterizedTest
    @CsvSource({"-tls1_3, TLSv1.3", "-tls1_2, TLSv1.2"})
    void shouldServeOpenSslClient(String version, String protocol) throws Exception
    {
        final TlsEngineProvider openssl = new OpenSslTlsEngineProvider();
        final TlsServerContext context = openssl.newServerContext(new TlsServerSettings(TestKeys.keys(keys.server),
            null, TlsMutual.NONE, List.of(), List.of()));

        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1")))
        {
            final CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> serveOne(server,
                context.newEngine("h2"), openssl));

            final Process client = new ProcessBuilder("openssl", "s_client", version, "-connect",
                "127.0.0.1:" + server.getLocalPort(), "-servername", SERVER_NAME, "-alpn", "http/1.1,h2",
                "-CAfile", caFile.toString(), "-verify_return_error", "-verify_hostname", SERVER_NAME, "-ign_eof")
                .redirectErrorStream(true)
                .start();
            try (OutputStream stdin = client.getOutputStream())
            {
                stdin.write("hello zilla\n".getBytes(StandardCharsets.US_ASCII));
            }
            final String output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(client.waitFor(30, TimeUnit.SECONDS), output);

            assertEquals("sni=" + SERVER_NAME + " alpn=h2 protocol=" + protocol + " echoed=hello zilla\n",
                served.get(30, TimeUnit.SECONDS), output);
            assertTrue(output.contains("ALPN protocol: h2"), output);
            assertTrue(output.contains("Verify return code: 0 (ok)"), output);
            assertTrue(output.contains(protocol), output);
            assertTrue(output.contains("\nhello zilla\n"), output);
        }
    }

    /**
     * Serves one connection: handshake, echo what it reads until a line is whole, then close_notify. Tells what the
     * engine saw: the server name, the protocol, the version and the line.
     */
    private static String serveOne(ServerSocket server, SSLEngine engine, TlsEngineProvider provider)
    {
        try (Socket socket = server.accept())
        {
            socket.setSoTimeout(20_000);
            final InputStream in = socket.getInputStream();
            final OutputStream out = socket.getOutputStream();
            final ByteBuffer netIn = ByteBuffer.allocate(64 * 1024);
            final ByteBuffer netOut = ByteBuffer.allocate(64 * 1024);
            final ByteBuffer app = ByteBuffer.allocate(64 * 1024);
            final StringBuilder echoed = new StringBuilder();
            final byte[] read = new byte[16 * 1024];
            engine.beginHandshake();
            while (!engine.isOutboundDone())
            {
                // say what the engine has to say: handshake messages, tickets, the echo, close_notify
                app.flip();
                for (SSLEngineResult result = engine.wrap(app, netOut); result.bytesProduced() > 0;
                     result = engine.wrap(app, netOut))
                {
                    runTasks(engine);
                }
                app.compact();
                out.write(netOut.array(), 0, netOut.position());
                out.flush();
                netOut.clear();
                if (echoed.indexOf("\n") != -1)
                {
                    engine.closeOutbound();
                    continue;
                }

                netIn.flip();
                final int before = app.position();
                final SSLEngineResult result = engine.unwrap(netIn, app);
                netIn.compact();
                runTasks(engine);
                echoed.append(new String(app.array(), before, app.position() - before, StandardCharsets.US_ASCII));
                if (result.getStatus() == Status.CLOSED)
                {
                    engine.closeOutbound();
                }
                else if (result.bytesConsumed() == 0 && result.getHandshakeStatus() != HandshakeStatus.NEED_WRAP)
                {
                    final int length = in.read(read);
                    if (length == -1)
                    {
                        return "closed before a line: " + echoed;
                    }
                    netIn.put(read, 0, length);
                }
            }
            final List<?> names = ((ExtendedSSLSession) engine.getSession()).getRequestedServerNames();
            final String sni = names.isEmpty() ? "-" : ((SNIHostName) names.get(0)).getAsciiName();
            return "sni=" + sni + " alpn=" + engine.getApplicationProtocol() + " protocol="
                + engine.getSession().getProtocol() + " echoed=" + echoed;
        }
        catch (IOException ex)
        {
            return "failed: " + ex;
        }
        finally
        {
            provider.release(engine);
        }
    }

    private static void runTasks(SSLEngine engine)
    {
        for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask())
        {
            task.run();
        }
    }
}
