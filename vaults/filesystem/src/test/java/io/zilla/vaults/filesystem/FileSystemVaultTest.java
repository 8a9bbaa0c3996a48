/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

import io.zilla.engine.Engine;
import io.zilla.engine.vault.VaultHandler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The filesystem vault loads PKCS12, JKS and PEM stores, and what it gives makes real TLS handshakes, mTLS included. */
class FileSystemVaultTest
{
    private static final Duration HANDSHAKE_LIMIT = Duration.ofSeconds(30);

    @TempDir
    static Path directory;

    private static TestStores stores;

    @BeforeAll
    static void createStores()
    {
        stores = TestStores.create(directory);
        stores.pkcs12Keys("server", "localhost");
        stores.pkcs12Keys("client", "client");
        stores.pkcs12Trust("trust.p12", "ca");
        stores.pkcs12Trust("cas.p12", "ca", "other-ca");
        stores.jks("server.jks", "server.p12");
        stores.jks("client.jks", "client.p12");
        stores.jksTrust("trust.jks", "ca");
        stores.jksTrust("cas.jks", "ca", "other-ca");
        stores.write("pem/server.pem", stores.encryptedKey("server"), stores.read("server.crt"), stores.read("ca.crt"));
        stores.write("pem/keys/localhost.key", stores.read("server.key"));
        stores.write("pem/keys/localhost.crt", stores.read("server.crt"), stores.read("ca.crt"));
        stores.write("pem/keys/client.key", stores.rsaKey("client"));
        stores.write("pem/keys/client.crt", stores.read("client.crt"));
        stores.write("pem/cas.crt", "issuers of this test\n", stores.read("ca.crt"), stores.read("other-ca.crt"));
    }

    @Test
    void shouldBeFoundByTheEngine()
    {
        assertEquals(FileSystemVault.class, Engine.builder().vaultTypes().get("filesystem").getClass());
    }

    @Test
    void shouldLoadPkcs12KeysAndTrust()
    {
        final VaultHandler vault = attach("example", "server", """
            keys:
              store: server.p12
              type: pkcs12
              password: ${{env.PASSWORD}}
            trust:
              store: cas.p12
              password: ${{env.PASSWORD}}
            """);

        assertEquals(Map.of("localhost", List.of("localhost", "zilla.example.com")), vault.keyNames());
        assertNotNull(vault.keys(List.of()));
        assertNotNull(vault.keys(List.of("localhost")));
        assertEquals(List.of("CN=Other CA", "CN=Test CA"), issuers(vault.trust(List.of())));
        assertEquals(List.of("CN=Test CA"), issuers(vault.trust(List.of("ca"))));
        assertNull(vault.signers(List.of()));
    }

    @Test
    void shouldLoadJksKeysAndTrustMadeByKeytool()
    {
        final VaultHandler vault = attach("example", "server", """
            keys:
              store: server.jks
              type: jks
              password: ${{env.PASSWORD}}
            trust:
              store: cas.jks
              type: jks
            """);

        assertEquals(Map.of("localhost", List.of("localhost", "zilla.example.com")), vault.keyNames());
        // a JKS store's certificates are not encrypted: its trust needs no password
        assertEquals(List.of("CN=Other CA", "CN=Test CA"), issuers(vault.trust(List.of())));
        assertEquals(List.of("CN=Test CA"), issuers(vault.trust(List.of("ca"))));
    }

    @Test
    void shouldHandshakeMutuallyWithJksKeysAndSigners() throws Exception
    {
        final VaultHandler server = attach("server", "server", """
            keys:
              store: server.jks
              type: jks
              password: ${{env.PASSWORD}}
            signers:
              store: trust.jks
              type: jks
              password: ${{env.PASSWORD}}
            """);
        final VaultHandler client = attach("client", "client", """
            keys:
              store: client.jks
              type: jks
              password: ${{env.PASSWORD}}
            trust:
              store: trust.jks
              type: jks
              password: ${{env.PASSWORD}}
            """);

        final Handshakes.Result result = handshake(Handshakes.context(server.keys(List.of()), server.signers(List.of())), true,
            Handshakes.context(client.keys(List.of("client")), client.trust(List.of())));

        assertEquals("CN=localhost", result.clientSeen().getName());
        assertEquals("CN=client", result.serverSeen().getName());
    }

    @Test
    void shouldRefuseAnAliasItDoesNotHold()
    {
        final VaultHandler vault = attach("example", "server", """
            keys:
              store: server.p12
              password: ${{env.PASSWORD}}
            signers:
              store: pem/cas.crt
              type: pem
            """);

        final IllegalArgumentException keys = assertThrows(IllegalArgumentException.class,
            () -> vault.keys(List.of("localhost", "www")));
        final IllegalArgumentException signers = assertThrows(IllegalArgumentException.class,
            () -> vault.signers(List.of("ca")));

        assertEquals("vault 'server' has no keys entry 'www' (keys: localhost)", keys.getMessage());
        assertEquals("vault 'server' has no signers entry 'ca' (signers: cas, cas.1)", signers.getMessage());
    }

    @Test
    void shouldLoadAPemFileWithAnEncryptedKeyAndItsChain()
    {
        final VaultHandler vault = attach("example", "server", """
            keys:
              store: pem/server.pem
              type: pem
              password: ${{env.PASSWORD}}
            """);

        assertEquals(Map.of("server", List.of("localhost", "zilla.example.com")), vault.keyNames());
    }

    @Test
    void shouldLoadAPemDirectoryOfKeysAndCertificatesWithPkcs1Keys()
    {
        final VaultHandler vault = attach("example", "keys", """
            keys:
              store: pem/keys
              type: pem
            trust:
              store: pem/cas.crt
              type: pem
            """);

        assertEquals(List.of("client", "localhost"), List.copyOf(vault.keyNames().keySet()));
        assertEquals(List.of("client"), vault.keyNames().get("client"));
        assertEquals(List.of("CN=Other CA", "CN=Test CA"), issuers(vault.trust(List.of())));
        assertEquals(List.of("CN=Other CA"), issuers(vault.trust(List.of("cas.1"))));
    }

    @Test
    void shouldHandshakeWithPkcs12KeysAndPemTrust() throws Exception
    {
        final VaultHandler server = attach("server", "server", """
            keys:
              store: server.p12
              password: ${{env.PASSWORD}}
            """);
        final VaultHandler client = attach("client", "client", """
            trust:
              store: pem/cas.crt
              type: pem
            """);

        final Handshakes.Result result = handshake(Handshakes.context(server.keys(List.of()), null), false,
            Handshakes.context(null, client.trust(List.of())));

        assertEquals("CN=localhost", result.clientSeen().getName());
        assertNull(result.serverSeen());
    }

    @Test
    void shouldHandshakeMutuallyWithSignersAndPemKeys() throws Exception
    {
        final VaultHandler server = attach("server", "server", """
            keys:
              store: pem/server.pem
              type: pem
              password: ${{env.PASSWORD}}
            signers:
              store: trust.p12
              password: ${{env.PASSWORD}}
            """);
        final VaultHandler client = attach("client", "client", """
            keys:
              store: pem/keys
              type: pem
            trust:
              store: trust.p12
              password: ${{env.PASSWORD}}
            """);
        final SSLContext serverContext = Handshakes.context(server.keys(List.of()), server.signers(List.of()));

        final Handshakes.Result result = handshake(serverContext, true,
            Handshakes.context(client.keys(List.of("client")), client.trust(List.of())));

        assertEquals("CN=localhost", result.clientSeen().getName());
        assertEquals("CN=client", result.serverSeen().getName());
    }

    @Test
    void shouldRefuseAClientCertificateThatNoSignerSigned() throws Exception
    {
        stores.write("pem/stranger/stranger.key", stores.read("stranger.key"));
        stores.write("pem/stranger/stranger.crt", stores.read("stranger.crt"));
        final VaultHandler server = attach("server", "server", """
            keys:
              store: server.p12
              password: ${{env.PASSWORD}}
            signers:
              store: trust.p12
              password: ${{env.PASSWORD}}
            """);
        final VaultHandler stranger = attach("client", "client", """
            keys:
              store: pem/stranger
              type: pem
            trust:
              store: trust.p12
              password: ${{env.PASSWORD}}
            """);
        final SSLContext serverContext = Handshakes.context(server.keys(List.of()), server.signers(List.of()));
        final SSLContext strangerContext = Handshakes.context(stranger.keys(List.of()), stranger.trust(List.of()));

        // the server names only its signers as acceptable issuers; the stranger's certificate is from another CA
        assertEquals(List.of("CN=Test CA"), issuers(server.signers(List.of())));
        final Exception refused = assertThrows(Exception.class, () -> handshake(serverContext, true, strangerContext));
        // refused by TLS (an alert, or the connection closed by it), not by a time limit
        assertTrue(refused instanceof IOException && !(refused instanceof SocketTimeoutException), refused.toString());
    }

    private static VaultHandler attach(String namespace, String vault, String options)
    {
        return TestVaults.attach(directory, TestVaults.filesystem(namespace, vault, options));
    }

    // bounded in time: a handshake that hangs fails the test instead of stalling it
    private static Handshakes.Result handshake(SSLContext server, boolean needClientAuth, SSLContext client)
    {
        return assertTimeoutPreemptively(HANDSHAKE_LIMIT, () -> Handshakes.handshake(server, needClientAuth, client));
    }

    private static List<String> issuers(TrustManagerFactory trust)
    {
        final X509TrustManager manager = (X509TrustManager) trust.getTrustManagers()[0];
        return Arrays.stream(manager.getAcceptedIssuers()).map(issuer -> issuer.getSubjectX500Principal().getName()).sorted()
            .toList();
    }
}
