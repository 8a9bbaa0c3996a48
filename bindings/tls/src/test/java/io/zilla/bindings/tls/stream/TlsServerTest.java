/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import static io.zilla.bindings.tls.stream.TlsPeers.LOOPBACK;
import static io.zilla.bindings.tls.stream.TlsPeers.readLine;
import static io.zilla.bindings.tls.stream.TlsPeers.readOrEnd;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import io.zilla.bindings.tls.TlsBinding;
import io.zilla.bindings.tls.engine.TlsEngineProviders;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.EngineHistograms;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestStream;
import io.zilla.engine.test.ThreadStats;
import io.zilla.specs.tls.types.stream.TlsBeginExFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * tcp server -> tls server -> echo (and a tcp client, and the test binding), from server.yaml with a filesystem
 * vault made by openssl when the class starts, against JDK and openssl clients.
 */
class TlsServerTest
{
    private static final long TIMEOUT = 5_000L;

    @TempDir
    static Path directory;

    private static TlsCertificates certificates;
    private static ServerSocket other;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private int port;
    private int strictPort;
    private int mutualPort;
    private int requestedPort;

    @BeforeAll
    static void makeKeys() throws Exception
    {
        certificates = TlsCertificates.make(directory);
        other = new ServerSocket(0, 50, InetAddress.getByName(LOOPBACK));
        final Thread acceptor = new Thread(TlsServerTest::serveOther, "other");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void stopOther() throws IOException
    {
        other.close();
    }

    /** The provider of the binding's engines: {@code TlsServerOpenSslTest} runs every test again with {@code openssl}. */
    String provider()
    {
        return TlsEngineProviders.JDK;
    }

    @BeforeEach
    void startEngine() throws IOException
    {
        port = freePort();
        strictPort = freePort();
        mutualPort = freePort();
        requestedPort = freePort();
        engine.anchor(TlsServerTest.class)
            .property(TlsBinding.HELLO_TIMEOUT, TIMEOUT)
            .property(TlsEngineProviders.PROVIDER, provider())
            .env("KEYS", certificates.serverKeys.toString())
            .env("SIGNERS", certificates.caCertificate.toString())
            .env("PORT", String.valueOf(port))
            .env("STRICT_PORT", String.valueOf(strictPort))
            .env("MUTUAL_PORT", String.valueOf(mutualPort))
            .env("REQUESTED_PORT", String.valueOf(requestedPort))
            .env("OTHER_PORT", String.valueOf(other.getLocalPort()))
            .start("server.yaml");
    }

    @Test
    void shouldHandshakeTls13AndTls12AndEcho() throws Exception
    {
        for (String version : List.of("TLSv1.3", "TLSv1.2"))
        {
            try (SSLSocket socket = connect(certificates.context(null), port, "localhost", version))
            {
                assertEquals(version, socket.getSession().getProtocol());
                assertEquals("hello " + version, echo(socket, "hello " + version));
            }
        }
        awaitCounter("tls", "handshakes", 2L);
        // the tls.* metrics its telemetry selects: the same handshakes, each timed
        assertEquals(2L, counter("tls", "tls.handshakes"));
        final EngineHistograms.Values duration = EngineHistograms.read(engine.directory()).get("tls")
            .get("tls.handshake.duration");
        assertEquals(2L, duration.count());
        assertTrue(duration.sum() > 0L, duration::toString);
        // the handshakes' delegated tasks ran on the binding's threads, not on the worker
        assertTrue(Thread.getAllStackTraces().keySet().stream()
            .anyMatch(thread -> thread.getName().startsWith("zilla-tls-task-")), "no zilla-tls-task thread");
    }

    @Test
    void shouldEchoWithOpenssl() throws Exception
    {
        for (String version : List.of("-tls1_3", "-tls1_2"))
        {
            final Process process = new ProcessBuilder("openssl", "s_client", "-connect", LOOPBACK + ":" + port,
                "-servername", "localhost", "-CAfile", certificates.caCertificate.toString(), "-verify_return_error",
                "-quiet", "-no_ign_eof", version).start();
            try
            {
                final OutputStream stdin = process.getOutputStream();
                stdin.write("through openssl\n".getBytes(StandardCharsets.US_ASCII));
                stdin.flush();
                final CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> readLineQuietly(process
                    .getInputStream()));
                assertEquals("through openssl", line.get(20, TimeUnit.SECONDS));
                stdin.close();
                assertTrue(process.waitFor(20, TimeUnit.SECONDS));
            }
            finally
            {
                process.destroyForcibly();
            }
        }
    }

    @Test
    void shouldSelectTheFirstOfItsProtocolsThatTheClientOffers() throws Exception
    {
        final SSLContext context = certificates.context(null);
        try (SSLSocket socket = connect(context, port, "localhost", null, "http/1.1", "h2"))
        {
            assertEquals("h2", socket.getApplicationProtocol());
        }
        try (SSLSocket socket = connect(context, port, "localhost", null, "http/1.1"))
        {
            assertEquals("http/1.1", socket.getApplicationProtocol());
        }
        try (SSLSocket socket = connect(context, port, "localhost", null, "spdy/3"))
        {
            // none in common: answered without ALPN (the route takes any)
            assertEquals("", socket.getApplicationProtocol());
            assertEquals("still served", echo(socket, "still served"));
        }
    }

    @Test
    void shouldChooseTheKeyAndTheRouteByServerName() throws Exception
    {
        // a client context per connection: the JDK keeps sessions by address and port, not by server name, and
        // would offer the first name's session to the next
        try (SSLSocket socket = connect(certificates.context(null), port, "localhost", null))
        {
            assertEquals("CN=localhost", subject(socket));
            assertEquals("to echo", echo(socket, "to echo"));
        }
        try (SSLSocket socket = connect(certificates.context(null), port, "a.example.com", null))
        {
            assertEquals("CN=a.example.com", subject(socket));
        }
        try (SSLSocket socket = connect(certificates.context(null), port, "x.b.example.com", null))
        {
            // a wildcard certificate, and a route to a tcp backend that answers differently
            assertEquals("CN=*.b.example.com", subject(socket));
            assertEquals("OTHER", readLine(socket.getInputStream()));
            assertEquals("to other", echo(socket, "to other"));
        }
    }

    @Test
    void shouldTellTheExitWhatTheHandshakeSettled() throws Exception
    {
        try (SSLSocket socket = connect(certificates.context(null), port, "app.b.example.com", null, "h2"))
        {
            socket.getOutputStream().write("to app".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            await(() -> !TestBinding.server("app").streams().isEmpty(), "a stream at app");
            final TestStream stream = TestBinding.server("app").streams().get(0);
            stream.await(Duration.ofSeconds(10), () -> stream.received().length == 6);
            assertEquals("to app", new String(stream.received(), StandardCharsets.US_ASCII));

            final byte[] extension = stream.extensions().get(0);
            final TlsBeginExFW beginEx = new TlsBeginExFW().wrap(new UnsafeBuffer(extension), 0, extension.length);
            assertEquals(TlsBinding.TYPE_ID, beginEx.typeId());
            assertEquals("app.b.example.com", beginEx.authority().asString());
            assertEquals("h2", beginEx.alpn().asString());
            assertEquals(port, beginEx.destinationPort());
            assertEquals(socket.getLocalPort(), beginEx.sourcePort());
            assertEquals(LOOPBACK, beginEx.sourceHost().asString());
        }
    }

    @Test
    void shouldRefuseAClientWithoutAServerNameWhenItAnswersOnlySomeNames() throws Exception
    {
        // options.sni restricts the names it answers for: a ClientHello naming none is not among them
        final String[] refused = openssl(strictPort, null);
        assertTrue(refused[1].contains("alert number 40") || refused[1].contains("handshake failure"), refused[1]);
        awaitEvent("tls.route.missing");
        assertEquals(1L, counter("strict", "connections.unrouted"));
        assertTrue(engine.events().stream().anyMatch(event -> event.detail().contains("no server name, and it answers only")),
            engine.events().toString());

        // the binding without sni still serves a client that names nothing
        final String[] served = openssl(port, null);
        assertTrue(served[0].contains("CN=localhost") || served[0].contains("CN = localhost"), served[0]);
    }

    @Test
    void shouldRefuseAnUnknownServerNameWithUnrecognizedName() throws Exception
    {
        final String[] refused = openssl(strictPort, "other.example.com");
        assertTrue(refused[1].contains("alert number 112") || refused[1].contains("unrecognized name"), refused[1]);
        awaitEvent("tls.route.missing");
        assertEquals(1L, counter("strict", "connections.unrouted"));

        try (SSLSocket socket = connect(certificates.context(null), strictPort, "localhost", null))
        {
            assertEquals("known", echo(socket, "known"));
        }
    }

    @Test
    void shouldRequireAClientCertificateSignedByItsSigners() throws Exception
    {
        assertThrows(IOException.class, () ->
        {
            try (SSLSocket socket = connect(certificates.context(null), mutualPort, "localhost", null))
            {
                // TLS 1.3: the server's verdict on the (missing) certificate comes after the client's Finished
                echo(socket, "no certificate");
            }
        });
        assertThrows(IOException.class, () ->
        {
            try (SSLSocket socket = connect(certificates.context(certificates.strangerKeys), mutualPort, "localhost", null))
            {
                echo(socket, "a stranger's certificate");
            }
        });
        try (SSLSocket socket = connect(certificates.context(certificates.clientKeys), mutualPort, "localhost", null))
        {
            assertEquals("a good certificate", echo(socket, "a good certificate"));
        }
        awaitCounter("mutual", "handshakes.failed", 2L);
        assertEquals(2L, counter("mutual", "handshakes.failed.certificate"));
        // the metric by reason, the only tls.* metric the binding selects
        assertEquals(2L, counter("mutual", "tls.handshake.failures{reason=certificate}"));
        assertEquals(0L, counter("mutual", "tls.handshake.failures{reason=peer}"));
        assertEquals(-1L, counter("mutual", "tls.handshakes", -1L));
        awaitEvent("tls.handshake.failed");
    }

    @Test
    void shouldServeWithoutAClientCertificateWhenRequested() throws Exception
    {
        try (SSLSocket socket = connect(certificates.context(null), requestedPort, "localhost", null))
        {
            assertEquals("no certificate", echo(socket, "no certificate"));
        }
        try (SSLSocket socket = connect(certificates.context(certificates.clientKeys), requestedPort, "localhost", null))
        {
            assertEquals("CN=client", ((X509Certificate) socket.getSession().getLocalCertificates()[0])
                .getSubjectX500Principal().getName());
            assertEquals("a certificate", echo(socket, "a certificate"));
        }
    }

    @Test
    void shouldEchoSixteenMebibytesInRandomChunks() throws Exception
    {
        final int size = 16 << 20;
        for (String version : List.of("TLSv1.3", "TLSv1.2"))
        {
            try (SSLSocket socket = connect(certificates.context(null), port, "localhost", version))
            {
                final long seed = version.hashCode();
                final CompletableFuture<Long> received = CompletableFuture.supplyAsync(() -> checksum(socket, size));
                final CRC32 sent = new CRC32();
                final SplittableRandom random = new SplittableRandom(seed);
                final OutputStream out = socket.getOutputStream();
                for (int written = 0; written < size; )
                {
                    final byte[] chunk = new byte[Math.min(size - written, 1 + random.nextInt(40_000))];
                    random.nextBytes(chunk);
                    out.write(chunk);
                    sent.update(chunk);
                    written += chunk.length;
                }
                out.flush();
                assertEquals(sent.getValue(), received.get(60, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void shouldAllocateLittleOnTheWorkerPerRecord() throws Exception
    {
        ThreadStats.enable();
        try (SSLSocket socket = connect(certificates.context(null), port, "localhost", "TLSv1.3"))
        {
            echoInRecords(socket, 1 << 20);
            final ThreadStats before = ThreadStats.of("zilla-worker-");
            final int size = 16 << 20;
            echoInRecords(socket, size);
            final long allocated = ThreadStats.of("zilla-worker-").minus(before).allocated();
            // each way a record per 16 KiB; what is allocated is the JDK SSLEngine's own (about 3 KB a record: its
            // results, its AES-GCM's buffers): the binding's buffers, slots and frames are reused, and nothing the
            // size of a record is allocated per record
            final long records = 2L * size / 16384;
            System.out.println("tls server: " + allocated + " bytes allocated on the worker for " + records + " records");
            assertTrue(allocated < records * 8192, allocated + " bytes allocated for " + records + " records");
        }
    }

    private static void echoInRecords(SSLSocket socket, int size) throws Exception
    {
        final byte[] chunk = new byte[16384];
        new SplittableRandom(size).nextBytes(chunk);
        final CompletableFuture<Long> received = CompletableFuture.supplyAsync(() -> checksum(socket, size));
        final OutputStream out = socket.getOutputStream();
        final CRC32 sent = new CRC32();
        for (int written = 0; written < size; written += chunk.length)
        {
            out.write(chunk);
            sent.update(chunk);
        }
        out.flush();
        assertEquals(sent.getValue(), received.get(60, TimeUnit.SECONDS));
    }

    @Test
    void shouldResumeASession() throws Exception
    {
        final SSLContext context = certificates.context(null);
        final long first;
        try (SSLSocket socket = connect(context, port, "localhost", null))
        {
            assertEquals("first", echo(socket, "first"));
            first = socket.getSession().getCreationTime();
        }
        try (SSLSocket socket = connect(context, port, "localhost", null))
        {
            assertEquals("second", echo(socket, "second"));
            assertEquals(first, socket.getSession().getCreationTime());
        }
        awaitCounter("tls", "handshakes.resumed", 1L);

        final Path session = directory.resolve("session.pem");
        final String[] initial = opensslSession(port, "-sess_out", session);
        assertTrue(initial[0].contains("New,"), initial[0]);
        final String[] resumed = opensslSession(port, "-sess_in", session);
        assertTrue(resumed[0].contains("Reused,"), resumed[0]);
    }

    @Test
    void shouldRefuseRenegotiation() throws Exception
    {
        try (SSLSocket socket = connect(certificates.context(null), port, "localhost", "TLSv1.2"))
        {
            assertEquals("before", echo(socket, "before"));
            final IOException refused = assertThrows(IOException.class, () ->
            {
                socket.startHandshake();
                echo(socket, "after");
            });
            assertNotEquals(null, refused);
        }
        awaitEvent("tls.renegotiation.refused");
        assertEquals(1L, counter("tls", "renegotiations.refused"));
    }

    @Test
    void shouldCloseOnlyTheConnectionWhoseRecordFailed() throws Exception
    {
        try (SSLSocket good = connect(certificates.context(null), port, "localhost", null);
            TamperRelay relay = new TamperRelay(port);
            SSLSocket tampered = connect(certificates.context(null), relay.port(), "localhost", "TLSv1.2"))
        {
            assertEquals("good", echo(good, "good"));
            relay.tamper = true;
            assertThrows(IOException.class, () -> echo(tampered, "flipped"));
            assertTrue(relay.alerts.get(20, TimeUnit.SECONDS).contains(20), "bad_record_mac alert");
            assertEquals("still good", echo(good, "still good"));
        }
        awaitEvent("tls.record.failed");
        assertEquals(1L, counter("tls", "records.failed"));
    }

    @Test
    void shouldRefuseWhatIsNotAClientHello() throws Exception
    {
        try (SSLSocket good = connect(certificates.context(null), port, "localhost", null))
        {
            assertRefused("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 10, false);
            // a record header announcing a ClientHello, then the end of the stream
            assertRefused(new byte[] {22, 3, 1, 0, 100, 1, 0, 0}, -1, true);
            assertEquals("good", echo(good, "good"));
        }
        awaitEvent("tls.hello.rejected");
    }

    private void assertRefused(byte[] bytes, int description, boolean halfClose) throws Exception
    {
        try (Socket socket = new Socket(LOOPBACK, port))
        {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(bytes);
            if (halfClose)
            {
                socket.shutdownOutput();
            }
            final InputStream in = socket.getInputStream();
            if (description >= 0)
            {
                assertArrayEquals(new byte[] {21, 3, 3, 0, 2, 2, (byte) description}, in.readNBytes(7));
            }
            assertEquals(-1, readOrEnd(in));
        }
    }

    private static SSLSocket connect(SSLContext context, int port, String serverName, String version, String... alpn)
        throws IOException
    {
        final SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(LOOPBACK, port);
        socket.setSoTimeout(20_000);
        final SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(serverName)));
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (version != null)
        {
            parameters.setProtocols(new String[] {version});
        }
        if (alpn.length > 0)
        {
            parameters.setApplicationProtocols(alpn);
        }
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    private static String echo(SSLSocket socket, String line) throws IOException
    {
        final OutputStream out = socket.getOutputStream();
        out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        final InputStream in = socket.getInputStream();
        final StringBuilder echoed = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read())
        {
            if (b == -1)
            {
                throw new SSLException("closed after '" + echoed + "'");
            }
            echoed.append((char) b);
        }
        return echoed.toString();
    }

    private static String subject(SSLSocket socket) throws IOException
    {
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
    }

    private static long checksum(SSLSocket socket, int size)
    {
        final CRC32 crc = new CRC32();
        try
        {
            final InputStream in = socket.getInputStream();
            final byte[] buffer = new byte[65536];
            for (int read = 0; read < size; )
            {
                final int n = in.read(buffer, 0, Math.min(buffer.length, size - read));
                if (n == -1)
                {
                    break;
                }
                crc.update(buffer, 0, n);
                read += n;
            }
        }
        catch (IOException ex)
        {
            return -1L;
        }
        return crc.getValue();
    }

    // s_client's stdout (with -brief off) for one connection that echoes a line, then closes
    private String[] opensslSession(int port, String option, Path session) throws Exception
    {
        final Process process = new ProcessBuilder("openssl", "s_client", "-connect", LOOPBACK + ":" + port,
            "-servername", "localhost", "-CAfile", certificates.caCertificate.toString(), option, session.toString(),
            "-tls1_2").redirectErrorStream(true).start();
        try
        {
            process.getOutputStream().close();
            final CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> all(process.getInputStream()));
            assertTrue(process.waitFor(20, TimeUnit.SECONDS));
            return new String[] {output.get(20, TimeUnit.SECONDS)};
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    // serverName null: -noservername, a ClientHello without SNI
    private String[] openssl(int port, String serverName) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", LOOPBACK + ":" + port));
        command.addAll(serverName != null ? List.of("-servername", serverName) : List.of("-noservername"));
        final Process process = new ProcessBuilder(command).start();
        try
        {
            process.getOutputStream().close();
            final CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> all(process.getInputStream()));
            final CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> all(process.getErrorStream()));
            assertTrue(process.waitFor(20, TimeUnit.SECONDS));
            return new String[] {stdout.get(20, TimeUnit.SECONDS), stderr.get(20, TimeUnit.SECONDS)};
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    private static String all(InputStream in)
    {
        try
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex)
        {
            return ex.toString();
        }
    }

    private static String readLineQuietly(InputStream in)
    {
        try
        {
            return readLine(in);
        }
        catch (IOException ex)
        {
            return ex.toString();
        }
    }

    // a plain backend behind the tcp client exit: greets, then echoes
    private static void serveOther()
    {
        try
        {
            while (true)
            {
                final Socket socket = other.accept();
                final Thread serve = new Thread(() ->
                {
                    try (socket)
                    {
                        final OutputStream out = socket.getOutputStream();
                        out.write("OTHER\n".getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        socket.getInputStream().transferTo(out);
                    }
                    catch (IOException ex)
                    {
                        // the client went away
                    }
                }, "other-connection");
                serve.setDaemon(true);
                serve.start();
            }
        }
        catch (IOException ex)
        {
            // closed
        }
    }

    /**
     * A TCP relay that parses TLS records both ways and, once told to, flips one byte in the next application data
     * record from the client; it collects the descriptions of the alerts it sees from the server that are in the
     * clear, and of the encrypted ones it records 20 when the server's last record before closing was an alert.
     */
    private static final class TamperRelay implements AutoCloseable
    {
        private final ServerSocket server;
        private final int target;
        private final List<Socket> sockets = new ArrayList<>();
        final CompletableFuture<List<Integer>> alerts = new CompletableFuture<>();
        volatile boolean tamper;

        TamperRelay(int target) throws IOException
        {
            this.server = new ServerSocket(0, 50, InetAddress.getByName(LOOPBACK));
            this.target = target;
            final Thread acceptor = new Thread(this::accept, "tamper-relay");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port()
        {
            return server.getLocalPort();
        }

        private void accept()
        {
            try
            {
                final Socket client = server.accept();
                final Socket zilla = new Socket(LOOPBACK, target);
                synchronized (sockets)
                {
                    sockets.add(client);
                    sockets.add(zilla);
                }
                start(() -> relay(client, zilla, true));
                start(() -> relay(zilla, client, false));
            }
            catch (IOException ex)
            {
                // closed
            }
        }

        private void relay(Socket from, Socket to, boolean fromClient)
        {
            final List<Integer> types = new ArrayList<>();
            try
            {
                final InputStream in = from.getInputStream();
                final OutputStream out = to.getOutputStream();
                while (true)
                {
                    final byte[] header = in.readNBytes(5);
                    if (header.length < 5)
                    {
                        break;
                    }
                    final byte[] body = in.readNBytes((header[3] & 0xff) << 8 | header[4] & 0xff);
                    types.add(header[0] & 0xff);
                    if (fromClient && tamper && header[0] == 23)
                    {
                        body[body.length / 2] ^= 0x01;
                        tamper = false;
                    }
                    out.write(header);
                    out.write(body);
                    out.flush();
                }
                to.shutdownOutput();
            }
            catch (IOException ex)
            {
                // closed
            }
            if (!fromClient)
            {
                // the server's last record: an (encrypted) alert, bad_record_mac being the only fatal one sent here
                final List<Integer> seen = new ArrayList<>();
                if (!types.isEmpty() && types.get(types.size() - 1) == 21)
                {
                    seen.add(20);
                }
                alerts.complete(seen);
            }
        }

        private static void start(Runnable task)
        {
            final Thread thread = new Thread(task, "tamper-relay-copy");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws IOException
        {
            server.close();
            synchronized (sockets)
            {
                for (Socket socket : sockets)
                {
                    socket.close();
                }
            }
        }
    }

    private long counter(String binding, String name)
    {
        return counter(binding, name, 0L);
    }

    /** The counter, or {@code absent} when the binding never made it. */
    private long counter(String binding, String name, long absent)
    {
        try
        {
            final Map<String, Long> counters = EngineCounters.read(engine.directory()).get(binding);
            return counters != null ? counters.getOrDefault(name, absent) : absent;
        }
        catch (IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private void awaitCounter(String binding, String name, long expected) throws InterruptedException
    {
        await(() -> counter(binding, name) == expected, binding + ":" + name + " = " + expected);
    }

    private void awaitEvent(String name) throws InterruptedException
    {
        await(() -> engine.events().stream().anyMatch(event -> event.event().equals(name)), "event " + name);
    }

    private void await(BooleanSupplier condition, String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("no " + what + "; events " + engine.events());
            }
            Thread.sleep(10);
        }
    }

    private static int freePort() throws IOException
    {
        return FreePorts.next();
    }
}
