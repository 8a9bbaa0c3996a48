/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.freePort;
import static io.zilla.bindings.http.stream.HttpServerClientsTest.curl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.http.stream.HttpServerClientsTest.Curl;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The http server behind a tls server: requests carry {@code :scheme} https (a route requires it here), and a client
 * that settles h2 by ALPN is served HTTP/2.
 */
class HttpServerTlsTest
{
    private static final String PASSWORD = "http-tls-test";

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @TempDir
    Path directory;

    private String base;

    @BeforeEach
    void start() throws Exception
    {
        final Path store = directory.resolve("localhost.p12");
        final Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", "localhost", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
            "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
            "-keystore", store.toString(), "-storepass", PASSWORD).redirectErrorStream(true).start();
        final String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, output);

        final int port = freePort();
        base = "https://localhost:" + port;
        engine.startText(directory.resolve("zilla.yaml").toString(), """
            ---
            name: test
            vaults:
              server:
                type: filesystem
                options:
                  keys:
                    store: localhost.p12
                    type: pkcs12
                    password: %s
            bindings:
              net:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: %d
                exit: tls
              tls:
                type: tls
                kind: server
                vault: server
                options:
                  keys: [ localhost ]
                  alpn: [ h2, http/1.1 ]
                exit: http
              http:
                type: http
                kind: server
                routes:
                  - when:
                      - headers:
                          ":scheme": https
                    exit: echo
              echo:
                type: echo
                kind: server
            """.formatted(PASSWORD, port));
    }

    @Test
    void shouldServeHttpsWithSchemeHttps() throws Exception
    {
        final Curl curl = curl("-k", "--http1.1", "--data-binary", "over tls", base + "/echo");
        assertEquals(0, curl.exit(), curl.err());
        assertEquals("over tls", curl.out());
    }

    @Test
    void shouldServeH2SettledByAlpn() throws Exception
    {
        final Curl curl = curl("-k", "-v", "--http2", "--data-binary", "over h2", base + "/echo");
        assertTrue(curl.err().contains("ALPN: server accepted h2"), curl.err());
        assertEquals(0, curl.exit(), curl.err());
        assertTrue(curl.err().contains("< HTTP/2 200"), curl.err());
        assertEquals("over h2", curl.out());
    }
}
