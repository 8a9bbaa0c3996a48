/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import static io.zilla.bindings.tls.stream.TlsPeers.LOOPBACK;
import static io.zilla.bindings.tls.stream.TlsPeers.greeting;
import static io.zilla.bindings.tls.stream.TlsPeers.openssl;
import static io.zilla.bindings.tls.stream.TlsPeers.readOrEnd;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;

import io.zilla.bindings.tls.TlsBinding;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.ThreadStats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * tcp server -> tls proxy -> tcp client, with TLS servers made by the JDK behind and JDK and openssl clients in
 * front: the proxy routes by what the ClientHello says and never decrypts.
 */
class TlsProxyTest
{
    private static final long HELLO_TIMEOUT = 3_000L;

    @TempDir
    static Path keys;

    private static TlsPeers.TlsKeys tls;
    private static TlsPeers.Backend backendA;
    private static TlsPeers.Backend backendB;
    private static TlsPeers.Backend backendH2;
    private static TlsPeers.Backend backendDefault;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private int port;
    private int strictPort;

    @BeforeAll
    static void startBackends() throws Exception
    {
        tls = TlsPeers.selfSigned(keys);
        backendA = new TlsPeers.Backend(tls, "A");
        backendB = new TlsPeers.Backend(tls, "B");
        backendH2 = new TlsPeers.Backend(tls, "H2");
        backendDefault = new TlsPeers.Backend(tls, "DEFAULT");
    }

    @AfterAll
    static void stopBackends() throws IOException
    {
        backendA.close();
        backendB.close();
        backendH2.close();
        backendDefault.close();
    }

    @BeforeEach
    void startEngine() throws IOException
    {
        port = freePort();
        strictPort = freePort();
        engine.anchor(TlsProxyTest.class)
            .property(TlsBinding.HELLO_TIMEOUT, HELLO_TIMEOUT)
            .env("PORT", String.valueOf(port))
            .env("STRICT_PORT", String.valueOf(strictPort))
            .env("A_PORT", String.valueOf(backendA.port()))
            .env("B_PORT", String.valueOf(backendB.port()))
            .env("H2_PORT", String.valueOf(backendH2.port()))
            .env("DEFAULT_PORT", String.valueOf(backendDefault.port()))
            .start("proxy.yaml");
    }

    @Test
    void shouldRouteByServerNameToTwoExits() throws Exception
    {
        assertEquals("A sni=a.example.com alpn=-", greeting(tls, port, "a.example.com"));
        assertEquals("B sni=x.b.example.com alpn=-", greeting(tls, port, "x.b.example.com"));
        assertEquals("A sni=a.example.com alpn=-", openssl(port, "a.example.com", null)[0]);
        assertEquals("B sni=y.b.example.com alpn=-", openssl(port, "y.b.example.com", null)[0]);
        assertEquals(4L, counter("proxy", "connections.routed"));
    }

    @Test
    void shouldRouteByOfferedProtocol() throws Exception
    {
        assertEquals("H2 sni=other.example.com alpn=h2", greeting(tls, port, "other.example.com", "http/1.1", "h2"));
        assertEquals("H2 sni=other.example.com alpn=h2", openssl(port, "other.example.com", "h2")[0]);
        // a server name route comes first, whatever the protocols
        assertEquals("A sni=a.example.com alpn=h2", greeting(tls, port, "a.example.com", "h2"));
        assertEquals("DEFAULT sni=other.example.com alpn=http/1.1", greeting(tls, port, "other.example.com", "http/1.1"));
    }

    @Test
    void shouldRouteWithoutMatchToTheDefaultExit() throws Exception
    {
        assertEquals("DEFAULT sni=unknown.example.com alpn=-", greeting(tls, port, "unknown.example.com"));
        // '*' stands for one label only
        assertEquals("DEFAULT sni=x.y.b.example.com alpn=-", greeting(tls, port, "x.y.b.example.com"));
    }

    @Test
    void shouldRouteAClientHelloWithoutServerName() throws Exception
    {
        // the JDK sends no server_name when it connects to an address literal
        assertEquals("DEFAULT sni=- alpn=-", greeting(tls, port, null));
        assertEquals("DEFAULT sni=- alpn=-", openssl(port, null, null)[0]);

        final String[] refused = openssl(strictPort, null, null);
        assertEquals("", refused[0]);
        assertTrue(refused[1].contains("alert number 40"), refused[1]);
        awaitEvent("tls.route.missing");
    }

    @Test
    void shouldRouteByPort() throws Exception
    {
        assertEquals("B sni=c.example.com alpn=-", greeting(tls, strictPort, "c.example.com"));
        assertEquals("DEFAULT sni=c.example.com alpn=-", greeting(tls, port, "c.example.com"));
        assertEquals("A sni=a.example.com alpn=-", greeting(tls, strictPort, "a.example.com"));
    }

    @Test
    void shouldRefuseAnUnknownServerNameWithAnAlert() throws Exception
    {
        final String[] refused = openssl(strictPort, "unknown.example.com", null);
        assertEquals("", refused[0]);
        assertTrue(refused[1].contains("alert number 112"), refused[1]);
        assertTrue(!"0".equals(refused[2]), "s_client exit code " + refused[2]);
        assertThrows(SSLException.class, () -> greeting(tls, strictPort, "unknown.example.com"));

        awaitEvent("tls.route.missing");
        awaitCounter("strict", "connections.unrouted", 2L);
        assertEquals("A sni=a.example.com alpn=-", greeting(tls, strictPort, "a.example.com"));
    }

    @Test
    void shouldGatherAClientHelloSentOneByteAtATime() throws Exception
    {
        try (TlsPeers.TrickleRelay relay = new TlsPeers.TrickleRelay(port, 1 << 16))
        {
            final long readsBefore = counter("net", "socket.reads");
            assertEquals("B sni=slow.b.example.com alpn=h2", greeting(tls, relay.port(), "slow.b.example.com", "h2"));
            // the hello (hundreds of bytes) came in about as many reads, hence as many Data frames
            final long reads = counter("net", "socket.reads") - readsBefore;
            assertTrue(reads > 100, "socket reads " + reads);
        }
    }

    @Test
    void shouldRouteAClientHelloSplitIntoRecords() throws Exception
    {
        final byte[] hello = TlsClientHelloTest.splitIntoRecords(TlsClientHelloTest.clientHello(tls, "a.example.com"), 1, 2, 50);
        try (Socket socket = new Socket(LOOPBACK, strictPort))
        {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(hello);
            // backend A's ServerHello: a handshake record, where no route would have been an alert
            assertEquals(0x16, socket.getInputStream().read());
        }
        assertEquals(1L, counter("strict", "connections.routed"));
    }

    @Test
    void shouldNotAllocatePerDataFrameWhileRelaying() throws Exception
    {
        ThreadStats.enable();
        try (SSLSocket socket = TlsPeers.connect(tls, port, "a.example.com"))
        {
            final InputStream in = socket.getInputStream();
            assertEquals("A sni=a.example.com alpn=-", TlsPeers.readLine(in));
            echo(socket, 1 << 20);

            final ThreadStats before = ThreadStats.of("zilla-worker-");
            final long framesBefore = counter("proxy", "frames.received");
            echo(socket, 16 << 20);
            final long allocated = ThreadStats.of("zilla-worker-").minus(before).allocated();
            final long frames = counter("proxy", "frames.received") - framesBefore;

            assertTrue(frames > 1_000, "frames " + frames);
            // the worker relays on tcp server, tls proxy and tcp client: less than a byte per frame in all
            assertTrue(allocated < frames, allocated + " bytes allocated for " + frames + " frames");
        }
    }

    private static void echo(SSLSocket socket, int size) throws Exception
    {
        final byte[] chunk = new byte[16384];
        new SplittableRandom(size).nextBytes(chunk);
        final CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return socket.getInputStream().readNBytes(size);
            }
            catch (IOException ex)
            {
                throw new AssertionError(ex);
            }
        });
        final OutputStream out = socket.getOutputStream();
        for (int written = 0; written < size; written += chunk.length)
        {
            out.write(chunk);
        }
        out.flush();
        final byte[] echoed = read.get(60, TimeUnit.SECONDS);
        for (int offset = 0; offset < size; offset += chunk.length)
        {
            assertArrayEquals(chunk, Arrays.copyOfRange(echoed, offset, offset + chunk.length));
        }
    }

    @Test
    void shouldRelayLargeTransfersBothWays() throws Exception
    {
        final int size = 16 << 20;
        try (SSLSocket socket = TlsPeers.connect(tls, port, "a.example.com"))
        {
            final InputStream in = socket.getInputStream();
            assertEquals("A sni=a.example.com alpn=-", TlsPeers.readLine(in));
            final CompletableFuture<Long> echoed = CompletableFuture.supplyAsync(() -> checksum(in, size, 7));
            final CRC32 sent = new CRC32();
            final SplittableRandom random = new SplittableRandom(42);
            final OutputStream out = socket.getOutputStream();
            for (int written = 0; written < size; )
            {
                final byte[] chunk = new byte[Math.min(size - written, 1 + random.nextInt(65536))];
                random.nextBytes(chunk);
                out.write(chunk);
                sent.update(chunk);
                written += chunk.length;
            }
            out.flush();
            assertEquals(sent.getValue(), echoed.get(60, TimeUnit.SECONDS));
        }
    }

    @Test
    void shouldPassHalfCloseBothWays() throws Exception
    {
        try (SSLSocket socket = TlsPeers.connect(tls, port, "a.example.com"))
        {
            final InputStream in = socket.getInputStream();
            assertEquals("A sni=a.example.com alpn=-", TlsPeers.readLine(in));
            socket.getOutputStream().write("last words".getBytes(StandardCharsets.US_ASCII));
            // close_notify and FIN: an End to the backend, whose echo ends, and whose End comes back
            socket.shutdownOutput();
            assertEquals("last words", new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        }
        awaitCounter("north_a", "connections.active", 0L);
        awaitCounter("net", "connections.active", 0L);
    }

    @Test
    void shouldPassAnAbortToTheExit() throws Exception
    {
        final SSLSocket socket = TlsPeers.connect(tls, port, "a.example.com");
        assertEquals("A sni=a.example.com alpn=-", TlsPeers.readLine(socket.getInputStream()));
        assertEquals(1L, counter("north_a", "connections.active"));
        // a TCP RST from the client: an Abort through the proxy closes the exit's connection too
        socket.setSoLinger(true, 0);
        socket.close();
        awaitCounter("north_a", "connections.active", 0L);
        awaitCounter("net", "connections.active", 0L);
    }

    @Test
    void shouldRefuseWhatIsNotTls() throws Exception
    {
        assertRefused("GET / HTTP/1.1\r\nHost: a.example.com\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 10,
            "not a TLS handshake record");
    }

    @Test
    void shouldRefuseARecordLengthTooLarge() throws Exception
    {
        assertRefused(new byte[] {0x16, 0x03, 0x01, (byte) 0xff, (byte) 0xff, 0x01}, 50, "record length 65535");
    }

    @Test
    void shouldRefuseAClientHelloTooLarge() throws Exception
    {
        // a record of 16 KiB whose handshake header announces a ClientHello of 64 KiB
        assertRefused(new byte[] {0x16, 0x03, 0x01, 0x40, 0x00, 0x01, 0x00, (byte) 0xff, (byte) 0xff}, 40,
            "more than 16384");
    }

    @Test
    void shouldCloseATruncatedClientHello() throws Exception
    {
        try (Socket socket = new Socket(LOOPBACK, port))
        {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00});
            socket.shutdownOutput();
            assertEquals(-1, readOrEnd(socket.getInputStream()));
        }
        awaitEvent("tls.hello.rejected");
        assertEquals("A sni=a.example.com alpn=-", greeting(tls, port, "a.example.com"));
        awaitCounter("proxy", "connections.rejected", 1L);
    }

    @Test
    void shouldCloseAClientTooSlowToSayHello() throws Exception
    {
        try (Socket socket = new Socket(LOOPBACK, port))
        {
            socket.setSoTimeout(20_000);
            final long start = System.nanoTime();
            socket.getOutputStream().write(new byte[] {0x16, 0x03, 0x01});
            // others are served meanwhile
            assertEquals("B sni=x.b.example.com alpn=-", greeting(tls, port, "x.b.example.com"));
            assertEquals(-1, readOrEnd(socket.getInputStream()));
            final long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(waited >= HELLO_TIMEOUT - 50, "closed after " + waited + " ms");
        }
        awaitEvent("tls.hello.timeout");
        assertEquals(1L, counter("proxy", "connections.timedout"));
    }

    // a bad first flight: the alert comes back, then the connection closes; the proxy serves others meanwhile
    private void assertRefused(byte[] bytes, int description, String reason) throws Exception
    {
        try (Socket socket = new Socket(LOOPBACK, port))
        {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(bytes);
            final InputStream in = socket.getInputStream();
            final byte[] alert = in.readNBytes(7);
            assertArrayEquals(new byte[] {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, (byte) description}, alert);
            assertEquals("A sni=a.example.com alpn=-", greeting(tls, port, "a.example.com"));
            assertEquals(-1, readOrEnd(in));
        }
        awaitEvent("tls.hello.rejected");
        assertTrue(engine.events().stream().anyMatch(event -> event.detail().contains(reason)), engine.events().toString());
        assertEquals(1L, counter("proxy", "connections.rejected"));
    }

    private static long checksum(InputStream in, int size, long seed)
    {
        final CRC32 crc = new CRC32();
        final SplittableRandom random = new SplittableRandom(seed);
        try
        {
            for (int read = 0; read < size; )
            {
                final byte[] chunk = new byte[Math.min(size - read, 1 + random.nextInt(32768))];
                final int n = in.read(chunk);
                if (n == -1)
                {
                    break;
                }
                crc.update(chunk, 0, n);
                read += n;
            }
        }
        catch (IOException ex)
        {
            throw new AssertionError(ex);
        }
        return crc.getValue();
    }

    private void awaitEvent(String name) throws InterruptedException
    {
        await(() -> engine.events().stream().anyMatch(event -> event.event().equals(name)), "event " + name);
    }

    private void awaitCounter(String binding, String name, long expected) throws InterruptedException
    {
        await(() -> counterOrZero(binding, name) == expected, binding + ":" + name + " = " + expected);
    }

    private void await(BooleanSupplier condition, String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("no " + what + "; events: " + engine.events());
            }
            Thread.sleep(10);
        }
    }

    private long counterOrZero(String binding, String name)
    {
        try
        {
            return counter(binding, name);
        }
        catch (IOException ex)
        {
            return -1L;
        }
    }

    private long counter(String binding, String name) throws IOException
    {
        final Map<String, Long> counters = EngineCounters.read(engine.directory()).get(binding);
        return counters != null ? counters.getOrDefault(name, 0L) : 0L;
    }

    private static int freePort() throws IOException
    {
        return FreePorts.next();
    }
}
