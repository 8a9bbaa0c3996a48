/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import static io.zilla.bindings.tls.stream.TlsPeers.LOOPBACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

import io.zilla.bindings.tls.TlsBinding;
import io.zilla.bindings.tls.engine.TlsEngineProviders;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import io.zilla.specs.tls.types.stream.TlsBeginExFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * test client -> tls client -> tcp client, against a JDK SSLServerSocket (that reports the server name, protocol
 * and client certificate it saw, then echoes) and openssl s_server, from client.yaml.
 */
class TlsClientTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    static Path directory;

    private static TlsCertificates certificates;
    private static SSLServerSocket jdk;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private int opensslPort;

    @BeforeAll
    static void startServer() throws Exception
    {
        certificates = TlsCertificates.make(directory);
        jdk = (SSLServerSocket) certificates.context(certificates.file("localhost.single.p12")).getServerSocketFactory()
            .createServerSocket(0, 50, InetAddress.getByName(LOOPBACK));
        jdk.setWantClientAuth(true);
        final var parameters = jdk.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"h2", "http/1.1"});
        jdk.setSSLParameters(parameters);
        final Thread acceptor = new Thread(TlsClientTest::serve, "jdk-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void stopServer() throws IOException
    {
        jdk.close();
    }

    /** The provider of the binding's engines: {@code TlsClientOpenSslTest} runs every test again with {@code openssl}. */
    String provider()
    {
        return TlsEngineProviders.JDK;
    }

    @BeforeEach
    void startEngine() throws IOException
    {
        opensslPort = freePort();
        engine.anchor(TlsClientTest.class)
            .property(TlsBinding.HELLO_TIMEOUT, 10_000L)
            .property(TlsEngineProviders.PROVIDER, provider())
            .env("CLIENT_KEYS", certificates.clientKeys.toString())
            .env("CA", certificates.caCertificate.toString())
            .env("JDK_PORT", String.valueOf(jdk.getLocalPort()))
            .env("OPENSSL_PORT", String.valueOf(opensslPort))
            .start("client.yaml");
    }

    @Test
    void shouldSendTheServerNameAndNegotiateTheProtocol()
    {
        final TestClient client = TestBinding.client("app");
        final TestStream stream = client.open();
        client.write(stream, "ping\n".getBytes(StandardCharsets.US_ASCII));
        final String expected = "sni=localhost alpn=h2 client=-\nping\n";
        stream.await(TIMEOUT, () -> stream.received().length >= expected.length());
        assertEquals(expected, new String(stream.received(), StandardCharsets.US_ASCII));

        // the reply Begin tells the app what the handshake settled
        final TlsBeginExFW beginEx = beginEx(stream);
        assertEquals(TlsBinding.TYPE_ID, beginEx.typeId());
        assertEquals("h2", beginEx.alpn().asString());
        assertEquals("localhost", beginEx.authority().asString());

        client.end(stream);
        stream.await(TIMEOUT, stream::ended);
    }

    @Test
    void shouldSendTheHostOfTheAppsBeginAsServerNameWithoutSni()
    {
        final TestClient client = TestBinding.client("app_by_host");
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final TcpBeginExFW tcpBeginEx = new TcpBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId("tcp".hashCode())
            .sourceHost((String) null)
            .sourcePort(0)
            .destinationHost("localhost")
            .destinationPort(jdk.getLocalPort())
            .build();
        final byte[] extension = new byte[tcpBeginEx.sizeof()];
        buffer.getBytes(0, extension);
        final TestStream stream = client.open(extension);
        client.write(stream, "ping\n".getBytes(StandardCharsets.US_ASCII));
        final String expected = "sni=localhost alpn=- client=-\nping\n";
        stream.await(TIMEOUT, () -> stream.received().length >= expected.length());
        assertEquals(expected, new String(stream.received(), StandardCharsets.US_ASCII));
    }

    @Test
    void shouldPresentItsKeyToAServerThatAsks()
    {
        final TestClient client = TestBinding.client("app_mutual");
        final TestStream stream = client.open();
        client.write(stream, "ping\n".getBytes(StandardCharsets.US_ASCII));
        final String expected = "sni=localhost alpn=- client=CN=client\nping\n";
        stream.await(TIMEOUT, () -> stream.received().length >= expected.length());
        assertEquals(expected, new String(stream.received(), StandardCharsets.US_ASCII));
    }

    @Test
    void shouldResetTheAppStreamWhenTheServerIsNotTrusted() throws IOException
    {
        final TestClient client = TestBinding.client("app_untrusted");
        final TestStream stream = client.open();
        stream.await(TIMEOUT, stream::reset);
        assertFalse(stream.frames().stream().anyMatch(frame -> frame.startsWith("BEGIN")), stream.frames().toString());
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (engine.events().stream().noneMatch(event -> event.event().equals("tls.handshake.failed")
            && event.binding().equals("tls_untrusted")) && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        assertTrue(engine.events().stream().anyMatch(event -> event.event().equals("tls.handshake.failed")
            && event.detail().contains("PKIX")), engine.events().toString());
        assertEquals(1L, EngineCounters.read(engine.directory()).get("tls_untrusted").get("handshakes.failed.certificate"));
    }

    @Test
    void shouldEchoSixteenMebibytes()
    {
        final TestClient client = TestBinding.client("app");
        final TestStream stream = client.open();
        final String greeting = "sni=localhost alpn=h2 client=-\n";
        final byte[] payload = new byte[16 << 20];
        new Random(16).nextBytes(payload);
        final Random chunks = new Random(7);
        for (int offset = 0; offset < payload.length; )
        {
            final int length = Math.min(payload.length - offset, 1 + chunks.nextInt(30_000));
            final byte[] chunk = new byte[length];
            System.arraycopy(payload, offset, chunk, 0, length);
            client.write(stream, chunk);
            offset += length;
        }
        stream.await(Duration.ofSeconds(120), () -> stream.received().length >= greeting.length() + payload.length);
        final byte[] received = stream.received();
        final CRC32 sent = new CRC32();
        sent.update(payload);
        final CRC32 echoed = new CRC32();
        echoed.update(received, greeting.length(), received.length - greeting.length());
        assertEquals(greeting.length() + payload.length, received.length);
        assertEquals(sent.getValue(), echoed.getValue());
    }

    @Test
    void shouldTalkToOpensslServer() throws Exception
    {
        final Process server = new ProcessBuilder("openssl", "s_server", "-accept", LOOPBACK + ":" + opensslPort,
            "-cert", certificates.file("localhost.crt").toString(), "-key", certificates.file("localhost.key").toString(),
            "-alpn", "http/1.1", "-naccept", "1")
            .redirectErrorStream(true).start();
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8));
            final CompletableFuture<String> accepting = CompletableFuture.supplyAsync(() -> lineContaining(out, "ACCEPT"));
            accepting.get(20, TimeUnit.SECONDS);

            final TestClient client = TestBinding.client("app_openssl");
            final TestStream stream = client.open();
            final CompletableFuture<String> ping = CompletableFuture.supplyAsync(() -> lineContaining(out, "ping"));
            client.write(stream, "ping\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals("ping", ping.get(20, TimeUnit.SECONDS).trim());

            final OutputStream in = server.getOutputStream();
            in.write("pong\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
            stream.await(TIMEOUT, () -> new String(stream.received(), StandardCharsets.US_ASCII).contains("pong\n"));
            assertEquals("http/1.1", beginEx(stream).alpn().asString());
        }
        finally
        {
            server.destroyForcibly();
        }
    }

    private static TlsBeginExFW beginEx(TestStream stream)
    {
        final List<String> frames = stream.frames();
        for (int i = 0; i < frames.size(); i++)
        {
            if (frames.get(i).startsWith("BEGIN"))
            {
                final byte[] extension = stream.extensions().get(i);
                return new TlsBeginExFW().wrap(new UnsafeBuffer(extension), 0, extension.length);
            }
        }
        throw new AssertionError("no reply Begin in " + frames);
    }

    private static String lineContaining(BufferedReader reader, String text)
    {
        try
        {
            for (String line = reader.readLine(); line != null; line = reader.readLine())
            {
                if (line.contains(text))
                {
                    return line;
                }
            }
            return "";
        }
        catch (IOException ex)
        {
            return ex.toString();
        }
    }

    // greets each connection with what its handshake said, then echoes
    private static void serve()
    {
        try
        {
            while (true)
            {
                final SSLSocket socket = (SSLSocket) jdk.accept();
                final Thread serve = new Thread(() ->
                {
                    try (socket)
                    {
                        socket.startHandshake();
                        final var names = ((ExtendedSSLSession) socket.getSession()).getRequestedServerNames();
                        final String sni = names.isEmpty() ? "-" : ((SNIHostName) names.get(0)).getAsciiName();
                        final String alpn = socket.getApplicationProtocol() == null
                            || socket.getApplicationProtocol().isEmpty() ? "-" : socket.getApplicationProtocol();
                        String subject = "-";
                        try
                        {
                            subject = ((X509Certificate) socket.getSession().getPeerCertificates()[0])
                                .getSubjectX500Principal().getName();
                        }
                        catch (SSLPeerUnverifiedException ex)
                        {
                            // no client certificate
                        }
                        final OutputStream out = socket.getOutputStream();
                        out.write(("sni=" + sni + " alpn=" + alpn + " client=" + subject + "\n")
                            .getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        final InputStream in = socket.getInputStream();
                        final byte[] buffer = new byte[65536];
                        for (int read = in.read(buffer); read != -1; read = in.read(buffer))
                        {
                            out.write(buffer, 0, read);
                            out.flush();
                        }
                    }
                    catch (IOException ex)
                    {
                        // the client went away, or its handshake failed
                    }
                }, "jdk-server-connection");
                serve.setDaemon(true);
                serve.start();
            }
        }
        catch (IOException ex)
        {
            // closed
        }
    }

    private static int freePort() throws IOException
    {
        return FreePorts.next();
    }
}
