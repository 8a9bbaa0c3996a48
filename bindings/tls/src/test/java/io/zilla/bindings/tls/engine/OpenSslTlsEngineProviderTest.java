/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import static io.zilla.bindings.tls.engine.TestKeys.CLIENT_NAME;
import static io.zilla.bindings.tls.engine.TestKeys.SERVER_NAME;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.security.KeyManagementException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManagerFactory;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.internal.tcnative.SSL;
import io.zilla.bindings.tls.config.TlsMutual;
import io.zilla.bindings.tls.engine.EnginePump.SideException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The OpenSSL provider's engines against the JDK's (a plain SSLContext, {@link TestJdkEngines}) both ways round, and
 * against themselves, in memory ({@link EnginePump}): versions, ALPN, client certificates, trust, SNI, host names,
 * resumption, bulk data, damaged records.
 */
class OpenSslTlsEngineProviderTest
{
    private static final int PORT = 8443;
    private static final List<String> TLS13 = List.of("TLSv1.3");
    private static final List<String> TLS12 = List.of("TLSv1.2");

    @TempDir
    static Path directory;

    static TestKeys keys;
    static TlsEngineProvider openssl;
    static TlsEngineProvider jdk = new TestJdkEngines();

    enum Peers
    {
        OPENSSL_SERVER_JDK_CLIENT,
        JDK_SERVER_OPENSSL_CLIENT,
        OPENSSL_SERVER_OPENSSL_CLIENT;

        TlsEngineProvider server()
        {
            return this == JDK_SERVER_OPENSSL_CLIENT ? jdk : openssl;
        }

        TlsEngineProvider client()
        {
            return this == OPENSSL_SERVER_JDK_CLIENT ? jdk : openssl;
        }
    }

    @BeforeAll
    static void makeKeys() throws Exception
    {
        final boolean linuxX64 = System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
            && List.of("amd64", "x86_64").contains(System.getProperty("os.arch"));
        // the pom ships the native library for linux-x86_64 only: elsewhere there is nothing to test
        assumeTrue(linuxX64 || OpenSsl.isAvailable(), "no netty-tcnative native library for this platform");
        assertTrue(OpenSsl.isAvailable(), () -> "OpenSSL did not load: " + OpenSsl.unavailabilityCause());
        keys = new TestKeys(directory);
        openssl = new OpenSslTlsEngineProvider();
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldHandshakeTls13ByDefault(Peers peers) throws Exception
    {
        final EnginePump pump = connect(peers, server(TlsMutual.NONE, List.of()), client(null, List.of()), null,
            SERVER_NAME, List.of());

        assertEquals("TLSv1.3", pump.client.engine.getSession().getProtocol());
        assertEquals("TLSv1.3", pump.server.engine.getSession().getProtocol());
        assertEquals(pump.server.engine.getSession().getCipherSuite(), pump.client.engine.getSession().getCipherSuite());
        assertExchanges(pump);
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldHandshakeTls12WhenTheOpenSslSideSpeaksOnlyThat(Peers peers) throws Exception
    {
        // the OpenSSL side is the one held to TLSv1.2, so that its protocols setting is what is tested
        final boolean serverIsOpenSsl = peers.server() == openssl;
        final EnginePump pump = connect(peers, server(TlsMutual.NONE, serverIsOpenSsl ? TLS12 : List.of()),
            client(null, serverIsOpenSsl ? List.of() : TLS12), null, SERVER_NAME, List.of());

        assertEquals("TLSv1.2", pump.client.engine.getSession().getProtocol());
        assertEquals("TLSv1.2", pump.server.engine.getSession().getProtocol());
        final String cipherSuite = pump.client.engine.getSession().getCipherSuite();
        assertTrue(cipherSuite.startsWith("TLS_ECDHE_ECDSA_WITH_") && (cipherSuite.contains("_GCM_")
            || cipherSuite.contains("CHACHA20")), cipherSuite);
        assertExchanges(pump);
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldAnswerWithTheGivenApplicationProtocol(Peers peers) throws Exception
    {
        final TlsServerContext server = peers.server().newServerContext(server(TlsMutual.NONE, List.of()));
        final TlsClientContext client = peers.client().newClientContext(client(null, List.of()));

        for (String protocol : List.of("h2", "http/1.1", "h2"))
        {
            final EnginePump pump = new EnginePump(client.newEngine(SERVER_NAME, PORT, List.of("http/1.1", "h2")),
                server.newEngine(protocol));
            pump.handshake();

            assertEquals(protocol, pump.client.engine.getApplicationProtocol());
            assertEquals(protocol, pump.server.engine.getApplicationProtocol());
        }
    }

    @Test
    void shouldAnswerWithProtocolsBeyondTheCachedContexts() throws Exception
    {
        final TlsServerContext server = openssl.newServerContext(server(TlsMutual.NONE, List.of()));
        final TlsClientContext client = jdk.newClientContext(client(null, List.of()));

        for (int i = 0; i <= OpenSslTlsEngineProvider.MAX_CACHED_CONTEXTS + 2; i++)
        {
            final String protocol = "p" + i;
            final EnginePump pump = new EnginePump(client.newEngine(SERVER_NAME, PORT, List.of("h2", protocol)),
                server.newEngine(protocol));
            pump.handshake();

            assertEquals(protocol, pump.client.engine.getApplicationProtocol());
        }
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldAnswerWithoutApplicationProtocolWhenGivenNone(Peers peers) throws Exception
    {
        final EnginePump pump = connect(peers, server(TlsMutual.NONE, List.of()), client(null, List.of()), null,
            SERVER_NAME, List.of("h2"));

        assertNoApplicationProtocol(pump.client.engine.getApplicationProtocol());
        assertNoApplicationProtocol(pump.server.engine.getApplicationProtocol());
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldOfferNoApplicationProtocolWhenGivenNone(Peers peers) throws Exception
    {
        final EnginePump pump = connect(peers, server(TlsMutual.NONE, List.of()), client(null, List.of()), "h2",
            SERVER_NAME, List.of());

        assertNoApplicationProtocol(pump.client.engine.getApplicationProtocol());
        assertNoApplicationProtocol(pump.server.engine.getApplicationProtocol());
    }

    @ParameterizedTest
    @MethodSource("peersAndVersions")
    void shouldRefuseClientWithoutCertificateWhenRequired(Peers peers, List<String> protocols) throws Exception
    {
        final SideException failure = assertThrows(SideException.class, () -> connect(peers,
            server(TlsMutual.REQUIRED, protocols), client(null, List.of()), null, SERVER_NAME, List.of()));

        assertEquals("server", failure.side, failure::getMessage);
        assertCause(failure, "PEER_DID_NOT_RETURN_A_CERTIFICATE", "Empty client certificate chain");
    }

    @ParameterizedTest
    @MethodSource("peersAndVersions")
    void shouldAcceptClientCertificateWhenRequired(Peers peers, List<String> protocols) throws Exception
    {
        final EnginePump pump = connect(peers, server(TlsMutual.REQUIRED, protocols),
            client(TestKeys.keys(keys.client), List.of()), null, SERVER_NAME, List.of());

        assertEquals("CN=" + CLIENT_NAME, pump.server.engine.getSession().getPeerPrincipal().getName());
        assertExchanges(pump);
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldAcceptClientWithOrWithoutCertificateWhenRequested(Peers peers) throws Exception
    {
        final EnginePump without = connect(peers, server(TlsMutual.REQUESTED, List.of()), client(null, List.of()),
            null, SERVER_NAME, List.of());
        assertThrows(SSLPeerUnverifiedException.class, () -> without.server.engine.getSession().getPeerPrincipal());
        assertExchanges(without);

        final EnginePump with = connect(peers, server(TlsMutual.REQUESTED, List.of()),
            client(TestKeys.keys(keys.client), List.of()), null, SERVER_NAME, List.of());
        assertEquals("CN=" + CLIENT_NAME, with.server.engine.getSession().getPeerPrincipal().getName());
    }

    @ParameterizedTest
    @MethodSource("peersAndVersions")
    void shouldRefuseClientCertificateOfAnotherCa(Peers peers, List<String> protocols) throws Exception
    {
        final SideException failure = assertThrows(SideException.class, () -> connect(peers,
            server(TlsMutual.REQUIRED, protocols), client(TestKeys.keysIgnoringIssuers(keys.rogueServer), List.of()),
            null, SERVER_NAME, List.of()));

        assertEquals("server", failure.side, failure::getMessage);
        assertCause(failure, "PKIX path building failed", "CERTIFICATE_VERIFY_FAILED");
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldRefuseUntrustedServer(Peers peers) throws Exception
    {
        final TlsServerSettings rogue = new TlsServerSettings(TestKeys.keys(keys.rogueServer), null, TlsMutual.NONE,
            List.of(), List.of());

        final SideException failure = assertThrows(SideException.class, () -> connect(peers, rogue,
            client(null, List.of()), null, SERVER_NAME, List.of()));

        assertEquals("client", failure.side, failure::getMessage);
        assertCause(failure, "PKIX path building failed");
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldRefuseServerWhoseCertificateNamesAnotherHost(Peers peers) throws Exception
    {
        final SideException failure = assertThrows(SideException.class, () -> connect(peers,
            server(TlsMutual.NONE, List.of()), client(null, List.of()), null, "other.example.test", List.of()));

        assertEquals("client", failure.side, failure::getMessage);
        assertCause(failure, "No subject alternative DNS name matching other.example.test");
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldNotCheckTheHostWithoutServerName(Peers peers) throws Exception
    {
        final EnginePump pump = connect(peers, server(TlsMutual.NONE, List.of()), client(null, List.of()), null,
            null, List.of());

        assertTrue(requestedServerNames(pump.server.engine).isEmpty());
        assertExchanges(pump);
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldSendServerName(Peers peers) throws Exception
    {
        final EnginePump pump = connect(peers, server(TlsMutual.NONE, List.of()), client(null, List.of()), null,
            SERVER_NAME, List.of());

        assertEquals(List.of(SERVER_NAME), requestedServerNames(pump.server.engine));
    }

    @ParameterizedTest
    @MethodSource("peersAndVersions")
    void shouldResumeSessionOfTheSameClientContext(Peers peers, List<String> protocols) throws Exception
    {
        final TlsServerContext server = peers.server().newServerContext(server(TlsMutual.NONE, protocols));
        final TlsClientContext client = peers.client().newClientContext(client(null, List.of()));

        final EnginePump first = new EnginePump(client.newEngine(SERVER_NAME, PORT, List.of()), server.newEngine(null));
        first.handshake();
        assertExchanges(first); // and takes the TLS 1.3 session tickets the server sent after its handshake
        final EnginePump second = new EnginePump(client.newEngine(SERVER_NAME, PORT, List.of()),
            server.newEngine(null));
        second.handshake();

        for (SSLEngine engine : List.of(second.server.engine, second.client.engine))
        {
            if (engine instanceof ReferenceCountedOpenSslEngine openSslEngine)
            {
                assertTrue(SSL.isSessionReused(openSslEngine.sslPointer()), "second connection resumed");
            }
        }
        for (SSLEngine engine : List.of(first.server.engine, first.client.engine))
        {
            if (engine instanceof ReferenceCountedOpenSslEngine openSslEngine)
            {
                assertFalse(SSL.isSessionReused(openSslEngine.sslPointer()), "first connection is a full handshake");
            }
        }
        assertExchanges(second);
    }

    @ParameterizedTest
    @EnumSource(Peers.class)
    void shouldResumeAcrossApplicationProtocols(Peers peers) throws Exception
    {
        // the OpenSSL server keeps one netty context per protocol: their shared ticket keys let sessions cross them
        final TlsServerContext server = peers.server().newServerContext(server(TlsMutual.NONE, List.of()));
        final TlsClientContext client = peers.client().newClientContext(client(null, List.of()));

        final EnginePump first = new EnginePump(client.newEngine(SERVER_NAME, PORT, List.of("h2", "http/1.1")),
            server.newEngine("h2"));
        first.handshake();
        assertExchanges(first);
        final EnginePump second = new EnginePump(client.newEngine(SERVER_NAME, PORT, List.of("h2", "http/1.1")),
            server.newEngine("http/1.1"));
        second.handshake();

        assertEquals("http/1.1", second.client.engine.getApplicationProtocol());
        if (second.server.engine instanceof ReferenceCountedOpenSslEngine openSslEngine)
        {
            assertTrue(SSL.isSessionReused(openSslEngine.sslPointer()), "resumed under another protocol");
        }
    }

    @ParameterizedTest
    @MethodSource("peersAndBuffers")
    void shouldCarryOneMebibyteEachWay(Peers peers, boolean direct) throws Exception
    {
        final TlsServerContext server = peers.server().newServerContext(server(TlsMutual.NONE, List.of()));
        final TlsClientContext client = peers.client().newClientContext(client(null, List.of()));
        final EnginePump pump = new EnginePump(client.newEngine(SERVER_NAME, PORT, List.of()), server.newEngine(null),
            64 * 1024, direct);
        pump.handshake();

        final byte[] upstream = randomBytes(1 << 20, 1);
        final byte[] downstream = randomBytes(1 << 20, 2);
        final ByteArrayOutputStream serverReceived = new ByteArrayOutputStream();
        final ByteArrayOutputStream clientReceived = new ByteArrayOutputStream();
        final Random sizes = new Random(3);
        for (int offset = 0; offset < upstream.length; )
        {
            final int length = Math.min(1 + sizes.nextInt(40_000), upstream.length - offset);
            pump.client.send(Arrays.copyOfRange(upstream, offset, offset + length));
            pump.server.send(Arrays.copyOfRange(downstream, offset, offset + length));
            pump.pump();
            serverReceived.write(pump.server.takeReceived());
            clientReceived.write(pump.client.takeReceived());
            offset += length;
        }

        assertArrayEquals(upstream, serverReceived.toByteArray());
        assertArrayEquals(downstream, clientReceived.toByteArray());
    }

    @ParameterizedTest
    @MethodSource("peersAndVersions")
    void shouldRefuseDamagedRecordWithBadRecordMac(Peers peers, List<String> protocols) throws Exception
    {
        final EnginePump pump = connect(peers, server(TlsMutual.NONE, protocols), client(null, List.of()), null,
            SERVER_NAME, List.of());
        assertExchanges(pump);

        pump.client.send(new byte[] {'h', 'e', 'l', 'l', 'o'});
        pump.client.step(pump.server);
        final int last = pump.client.netOut.position() - 1;
        pump.client.netOut.put(last, (byte) (pump.client.netOut.get(last) ^ 0x01));

        final SideException failure = assertThrows(SideException.class, pump::pump);
        assertEquals("server", failure.side, failure::getMessage);
        assertEquals(0, pump.server.takeReceived().length);
        // the server answers with a fatal alert, bad_record_mac (20), and reads no more
        pump.client.netOut.clear();
        final SideException alerted = assertThrows(SideException.class, pump::pump);
        assertEquals("client", alerted.side, alerted::getMessage);
        assertTrue(alerted.getMessage().toLowerCase(Locale.ROOT).replace('_', ' ').contains("bad record mac"),
            alerted::getMessage);
    }

    @Test
    void shouldRefuseProtocolsOtherThanTls13AndTls12() throws Exception
    {
        final KeyManagementException refused = assertThrows(KeyManagementException.class,
            () -> openssl.newServerContext(server(TlsMutual.NONE, List.of("TLSv1.1"))));

        assertTrue(refused.getMessage().contains("TLSv1.1"), refused::getMessage);
    }

    @Test
    void shouldRefuseUnknownCipherSuite() throws Exception
    {
        final TlsClientSettings settings = new TlsClientSettings(null, TestKeys.trust(keys.ca), List.of(),
            List.of("NO-SUCH-CIPHER"));

        final KeyManagementException refused = assertThrows(KeyManagementException.class,
            () -> openssl.newClientContext(settings));
        assertTrue(refused.getMessage().contains("NO-SUCH-CIPHER"), refused::getMessage);
    }

    @Test
    void shouldUseTheConfiguredCipherSuite() throws Exception
    {
        final TlsServerSettings settings = new TlsServerSettings(TestKeys.keys(keys.server), null, TlsMutual.NONE,
            TLS12, List.of("ECDHE-ECDSA-CHACHA20-POLY1305"));

        final EnginePump pump = connect(Peers.OPENSSL_SERVER_JDK_CLIENT, settings, client(null, List.of()), null,
            SERVER_NAME, List.of());

        assertEquals("TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", pump.client.engine.getSession().getCipherSuite());
    }

    @Test
    void shouldReleaseEngineOnce() throws Exception
    {
        final TlsServerContext server = openssl.newServerContext(server(TlsMutual.NONE, List.of()));
        final SSLEngine engine = server.newEngine("h2");
        final ReferenceCountedOpenSslEngine counted = (ReferenceCountedOpenSslEngine) engine;
        assertEquals(1, counted.refCnt());

        openssl.release(engine);
        assertEquals(0, counted.refCnt());
        openssl.release(engine);
        assertEquals(0, counted.refCnt());
        jdk.release(engine);
    }

    @Test
    void shouldNameItsLibrary()
    {
        assertEquals("openssl", openssl.name());
        assertTrue(openssl.toString().startsWith("openssl (BoringSSL"), openssl::toString);
        assertNotEquals("openssl (BoringSSL)", openssl.toString(), "and the netty-tcnative version");
    }

    static Stream<Arguments> peersAndVersions()
    {
        final List<Arguments> arguments = new ArrayList<>();
        for (Peers peers : Peers.values())
        {
            arguments.add(Arguments.of(peers, TLS13));
            arguments.add(Arguments.of(peers, TLS12));
        }
        return arguments.stream();
    }

    static Stream<Arguments> peersAndBuffers()
    {
        final List<Arguments> arguments = new ArrayList<>();
        for (Peers peers : Peers.values())
        {
            arguments.add(Arguments.of(peers, false));
            arguments.add(Arguments.of(peers, true));
        }
        return arguments.stream();
    }

    private static EnginePump connect(Peers peers, TlsServerSettings serverSettings, TlsClientSettings clientSettings,
        String serverProtocol, String serverName, List<String> clientProtocols) throws Exception
    {
        final TlsServerContext server = peers.server().newServerContext(serverSettings);
        final TlsClientContext client = peers.client().newClientContext(clientSettings);
        final EnginePump pump = new EnginePump(client.newEngine(serverName, PORT, clientProtocols),
            server.newEngine(serverProtocol));
        pump.handshake();
        return pump;
    }

    private static TlsServerSettings server(TlsMutual mutual, List<String> protocols) throws Exception
    {
        final TrustManagerFactory signers = mutual != TlsMutual.NONE ? TestKeys.trust(keys.ca) : null;
        return new TlsServerSettings(TestKeys.keys(keys.server), signers, mutual, protocols, List.of());
    }

    private static TlsClientSettings client(KeyManagerFactory clientKeys, List<String> protocols) throws Exception
    {
        return new TlsClientSettings(clientKeys, TestKeys.trust(keys.ca), protocols, List.of());
    }

    /** A few bytes each way after the handshake: the session works, and post-handshake messages are taken. */
    private static void assertExchanges(EnginePump pump) throws Exception
    {
        pump.client.send(new byte[] {'p', 'i', 'n', 'g'});
        pump.server.send(new byte[] {'p', 'o', 'n', 'g'});
        pump.pump();
        assertArrayEquals(new byte[] {'p', 'i', 'n', 'g'}, pump.server.takeReceived());
        assertArrayEquals(new byte[] {'p', 'o', 'n', 'g'}, pump.client.takeReceived());
    }

    /** Why a handshake failed, as one of the reasons given, somewhere in the cause chain (netty nests it). */
    private static void assertCause(Throwable failure, String... reasons)
    {
        final StringBuilder chain = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause())
        {
            chain.append(cause).append('\n');
        }
        assertTrue(Stream.of(reasons).anyMatch(reason -> chain.indexOf(reason) != -1), chain::toString);
    }

    private static void assertNoApplicationProtocol(String protocol)
    {
        // the JDK says "" for a handshake without ALPN, netty null
        assertTrue(protocol == null || protocol.isEmpty(), protocol);
    }

    private static List<String> requestedServerNames(SSLEngine engine)
    {
        final List<String> names = new ArrayList<>();
        for (SNIServerName name : ((ExtendedSSLSession) engine.getSession()).getRequestedServerNames())
        {
            names.add(((SNIHostName) name).getAsciiName());
        }
        return names;
    }

    private static byte[] randomBytes(int length, long seed)
    {
        final byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
