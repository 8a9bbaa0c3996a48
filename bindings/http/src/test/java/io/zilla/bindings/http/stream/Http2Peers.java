/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.freePort;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.zilla.engine.test.EngineExtension;

/** Starts h2.yaml (h2c and TLS with ALPN) on free ports, with a throwaway key made by keytool, and runs peers. */
final class Http2Peers
{
    static final String PASSWORD = "changeit";

    private static Path keys;

    private Http2Peers()
    {
    }

    /** The ports of h2.yaml once started: cleartext (HTTP/1.1 or h2c) and TLS (ALPN h2 or http/1.1). */
    record Ports(int clear, int tls)
    {
        String http()
        {
            return "http://127.0.0.1:" + clear;
        }

        String https()
        {
            return "https://127.0.0.1:" + tls;
        }
    }

    static Ports start(EngineExtension engine, int concurrentStreams) throws Exception
    {
        return start(engine, concurrentStreams, 10_000);
    }

    /** h2.yaml with {@code limits.concurrent-streams} and {@code limits.header-timeout} (ms). */
    static Ports start(EngineExtension engine, int concurrentStreams, long headerTimeout) throws Exception
    {
        final Ports ports = new Ports(freePort(), freePort());
        engine.env("PORT", Integer.toString(ports.clear()))
            .env("TLS_PORT", Integer.toString(ports.tls()))
            .env("KEYS", keys().toString())
            .env("CONCURRENT_STREAMS", Integer.toString(concurrentStreams))
            .env("HEADER_TIMEOUT", Long.toString(headerTimeout))
            .start("h2.yaml");
        return ports;
    }

    /** A self-signed key for localhost and 127.0.0.1 in a PKCS12 store, made once per test run. */
    static synchronized Path keys() throws Exception
    {
        if (keys == null)
        {
            final Path directory = Files.createTempDirectory("zilla-h2-keys");
            directory.toFile().deleteOnExit();
            final Path store = directory.resolve("localhost.p12");
            final Result result = run(List.of("keytool", "-genkeypair", "-alias", "localhost", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2", "-dname", "CN=localhost", "-ext",
                "san=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", PASSWORD));
            if (result.exit() != 0)
            {
                throw new IllegalStateException("keytool failed: " + result.err());
            }
            store.toFile().deleteOnExit();
            keys = store;
        }
        return keys;
    }

    /** A JDK context that trusts the throwaway key's certificate. */
    static SSLContext trustingContext() throws Exception
    {
        final KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keys()))
        {
            store.load(in, PASSWORD.toCharArray());
        }
        final KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("localhost", store.getCertificate("localhost"));
        final TrustManagerFactory trustManagers = TrustManagerFactory.getInstance("PKIX");
        trustManagers.init(trust);
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        return context;
    }

    /** What a process wrote and how it exited. */
    record Result(int exit, String out, String err)
    {
    }

    static Result run(List<String> command) throws Exception
    {
        return run(command, 120);
    }

    static Result run(List<String> command, int timeoutSeconds) throws Exception
    {
        final Process process = new ProcessBuilder(new ArrayList<>(command)).start();
        final CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        final CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new IllegalStateException(command.get(0) + " did not finish in " + timeoutSeconds + "s");
        }
        return new Result(process.exitValue(), new String(out.get(), StandardCharsets.ISO_8859_1),
            new String(err.get(), StandardCharsets.ISO_8859_1));
    }

    private static byte[] readAll(InputStream in)
    {
        try
        {
            return in.readAllBytes();
        }
        catch (IOException ex)
        {
            throw new RuntimeException(ex);
        }
    }
}
