/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import static io.zilla.bindings.tls.stream.TlsPeers.LOOPBACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import io.zilla.bindings.tls.engine.TlsEngineProviders;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tls server whose filesystem vault has {@code type: jks} stores that the JDK's keytool made (issue 21, item 6): the
 * server's keys (keytool -importkeystore from the PKCS12 openssl made) and its signers (keytool -importcert of the CA),
 * with a client certificate required, against JDK and openssl clients.
 */
class TlsServerJksTest
{
    @TempDir
    static Path directory;

    private static TlsCertificates certificates;
    private static Path keys;
    private static Path signers;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private int port;

    @BeforeAll
    static void makeJksStores() throws Exception
    {
        certificates = TlsCertificates.make(directory);
        keys = directory.resolve("server.jks");
        signers = directory.resolve("signers.jks");
        keytool("-importkeystore", "-noprompt", "-srckeystore", certificates.serverKeys.toString(), "-srcstoretype", "PKCS12",
            "-srcstorepass", TlsCertificates.PASSWORD, "-destkeystore", keys.toString(), "-deststoretype", "JKS",
            "-deststorepass", TlsCertificates.PASSWORD, "-destkeypass", TlsCertificates.PASSWORD);
        keytool("-importcert", "-noprompt", "-storetype", "JKS", "-keystore", signers.toString(), "-storepass",
            TlsCertificates.PASSWORD, "-alias", "ca", "-file", certificates.caCertificate.toString());
    }

    @BeforeEach
    void startEngine() throws IOException
    {
        port = freePort();
        engine.anchor(TlsServerJksTest.class)
            .property(TlsEngineProviders.PROVIDER, TlsEngineProviders.JDK)
            .env("KEYS", keys.toString())
            .env("SIGNERS", signers.toString())
            .env("PORT", String.valueOf(port))
            .start("server.jks.yaml");
    }

    @Test
    void shouldServeAJdkClientWithACertificateSignedByTheJksSigners() throws Exception
    {
        try (SSLSocket socket = connect(certificates.context(certificates.clientKeys)))
        {
            assertEquals("CN=localhost", ((X509Certificate) socket.getSession().getPeerCertificates()[0])
                .getSubjectX500Principal().getName());
            assertEquals("from a jks vault", echo(socket, "from a jks vault"));
        }
        assertThrows(IOException.class, () ->
        {
            try (SSLSocket socket = connect(certificates.context(certificates.strangerKeys)))
            {
                // TLS 1.3: the server's verdict on the certificate comes after the client's Finished
                echo(socket, "a stranger's certificate");
            }
        });
    }

    @Test
    void shouldServeOpensslWithAClientCertificate() throws Exception
    {
        final Process process = new ProcessBuilder("openssl", "s_client", "-connect", LOOPBACK + ":" + port,
            "-servername", "localhost", "-CAfile", certificates.caCertificate.toString(), "-verify_return_error",
            "-cert", certificates.file("client.crt").toString(), "-key", certificates.file("client.key").toString(),
            "-quiet", "-no_ign_eof").start();
        try
        {
            final OutputStream stdin = process.getOutputStream();
            stdin.write("through openssl\n".getBytes(StandardCharsets.US_ASCII));
            stdin.flush();
            final CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> firstLine(process.getInputStream()));
            assertEquals("through openssl", line.get(20, TimeUnit.SECONDS));
            stdin.close();
            assertTrue(process.waitFor(20, TimeUnit.SECONDS));
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    private SSLSocket connect(SSLContext context) throws IOException
    {
        final SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(LOOPBACK, port);
        socket.setSoTimeout(20_000);
        final SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName("localhost")));
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    private static String echo(SSLSocket socket, String line) throws IOException
    {
        final OutputStream out = socket.getOutputStream();
        out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        final String echoed = firstLine(socket.getInputStream());
        if (echoed == null)
        {
            throw new SSLException("closed before a line came back");
        }
        return echoed;
    }

    private static String firstLine(InputStream in)
    {
        final StringBuilder line = new StringBuilder();
        try
        {
            for (int b = in.read(); b != '\n'; b = in.read())
            {
                if (b == -1)
                {
                    return null;
                }
                line.append((char) b);
            }
        }
        catch (IOException ex)
        {
            return null;
        }
        return line.toString();
    }

    private static void keytool(String... arguments) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool")
            .toString()));
        command.addAll(List.of(arguments));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            throw new IllegalStateException(command + " failed: " + output);
        }
    }

    private static int freePort() throws IOException
    {
        return FreePorts.next();
    }
}
