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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/tls.echo as shipped: its keystore.sh makes the key in a temporary copy of the example, and its
 * zilla.yaml runs there (on a free port) against JDK and openssl clients.
 */
class TlsEchoExampleTest
{
    // tests run in the module directory
    private static final Path EXAMPLE = Path.of("..", "..", "examples", "tls.echo");
    private static final String PASSWORD = "example-test";

    @TempDir
    Path directory;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @Test
    void shouldEchoThroughTheExample() throws Exception
    {
        final Path store = directory.resolve("tls").resolve("localhost.p12");
        final ProcessBuilder keystore = new ProcessBuilder("sh", EXAMPLE.resolve("keystore.sh").toString(),
            directory.resolve("tls").toString()).redirectErrorStream(true);
        keystore.environment().put("KEYSTORE_PASSWORD", PASSWORD);
        keystore.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":"
            + System.getenv("PATH"));
        final Process process = keystore.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, output);
        assertTrue(Files.exists(store), output);

        final int port = freePort();
        final String yaml = Files.readString(EXAMPLE.resolve("zilla.yaml")).replace("port: 23456", "port: " + port);
        assertTrue(yaml.contains("port: " + port), yaml);
        engine.env("KEYSTORE_PASSWORD", PASSWORD).startText(directory.resolve("zilla.yaml").toString(), yaml);

        try (SSLSocket socket = connect(store, port))
        {
            assertEquals("echo", socket.getApplicationProtocol());
            final OutputStream out = socket.getOutputStream();
            out.write("Hello, world\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertEquals("Hello, world", TlsPeers.readLine(socket.getInputStream()));
        }

        final Process client = new ProcessBuilder("openssl", "s_client", "-connect", LOOPBACK + ":" + port,
            "-servername", "localhost", "-alpn", "echo", "-quiet", "-no_ign_eof").start();
        try
        {
            client.getOutputStream().write("through openssl\n".getBytes(StandardCharsets.US_ASCII));
            client.getOutputStream().flush();
            final CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> readLine(client.getInputStream()));
            assertEquals("through openssl", line.get(20, TimeUnit.SECONDS));
            client.getOutputStream().close();
            assertTrue(client.waitFor(20, TimeUnit.SECONDS));
        }
        finally
        {
            client.destroyForcibly();
        }
    }

    // trusts the example's self-signed certificate
    private static SSLSocket connect(Path store, int port) throws Exception
    {
        final KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store))
        {
            keys.load(in, PASSWORD.toCharArray());
        }
        final KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("localhost", keys.getCertificate("localhost"));
        final TrustManagerFactory trustManagers = TrustManagerFactory.getInstance("PKIX");
        trustManagers.init(trust);
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        final SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(LOOPBACK, port);
        socket.setSoTimeout(20_000);
        final SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName("localhost")));
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        parameters.setApplicationProtocols(new String[] {"echo"});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    private static String readLine(InputStream in)
    {
        try
        {
            return TlsPeers.readLine(in);
        }
        catch (IOException ex)
        {
            return ex.toString();
        }
    }

    private static int freePort() throws IOException
    {
        return FreePorts.next();
    }
}
