/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Keys and certificates made with openssl in a temporary directory when a test class starts (no private key is
 * committed): a CA, server keys signed by it for {@code localhost}, {@code a.example.com} and
 * {@code *.b.example.com}, a client key signed by it, and a stranger CA with a client key of its own.
 */
final class TlsCertificates
{
    static final String PASSWORD = "changeit";

    final Path directory;
    /** PKCS12: the server keys, aliases localhost, a, b. */
    final Path serverKeys;
    /** PEM: the CA certificate. */
    final Path caCertificate;
    /** PKCS12: the client key signed by the CA, alias client. */
    final Path clientKeys;
    /** PKCS12: a client key signed by the stranger CA, alias stranger. */
    final Path strangerKeys;

    private TlsCertificates(Path directory)
    {
        this.directory = directory;
        this.serverKeys = directory.resolve("server.p12");
        this.caCertificate = directory.resolve("ca.crt");
        this.clientKeys = directory.resolve("client.p12");
        this.strangerKeys = directory.resolve("stranger.p12");
    }

    static TlsCertificates make(Path directory) throws Exception
    {
        final TlsCertificates tls = new TlsCertificates(directory);
        tls.ca("ca");
        tls.ca("stranger-ca");
        tls.leaf("localhost", "localhost", "ca");
        tls.leaf("a", "a.example.com", "ca");
        tls.leaf("b", "*.b.example.com", "ca");
        tls.leaf("client", "client", "ca");
        tls.leaf("stranger", "stranger", "stranger-ca");
        tls.merge(tls.serverKeys, "localhost", "a", "b");
        tls.merge(tls.clientKeys, "client");
        tls.merge(tls.strangerKeys, "stranger");
        return tls;
    }

    /** A JDK context that trusts the CA, with a key of {@code keyStore} (null: none) to present. */
    SSLContext context(Path keyStore) throws Exception
    {
        final KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caCertificate))
        {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        final TrustManagerFactory trustManagers = TrustManagerFactory.getInstance("PKIX");
        trustManagers.init(trust);
        KeyManagerFactory keyManagers = null;
        if (keyStore != null)
        {
            keyManagers = KeyManagerFactory.getInstance("PKIX");
            keyManagers.init(load(keyStore), PASSWORD.toCharArray());
        }
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers != null ? keyManagers.getKeyManagers() : null, trustManagers.getTrustManagers(), null);
        return context;
    }

    Path file(String name)
    {
        return directory.resolve(name);
    }

    private void ca(String name) throws Exception
    {
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=" + name,
            "-days", "2", "-keyout", name + ".key", "-out", name + ".crt",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    }

    private void leaf(String alias, String name, String ca) throws Exception
    {
        Files.writeString(directory.resolve(alias + ".ext"), "subjectAltName=DNS:" + name + "\n"
            + "extendedKeyUsage=serverAuth,clientAuth\n", StandardCharsets.US_ASCII);
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=" + name,
            "-keyout", alias + ".key", "-out", alias + ".csr");
        openssl("x509", "-req", "-in", alias + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key", "-CAcreateserial",
            "-days", "2", "-extfile", alias + ".ext", "-out", alias + ".crt");
        openssl("pkcs12", "-export", "-in", alias + ".crt", "-inkey", alias + ".key", "-certfile", ca + ".crt",
            "-name", alias, "-passout", "pass:" + PASSWORD, "-out", alias + ".single.p12");
    }

    // one PKCS12 store with several keys, each with its chain
    private void merge(Path target, String... aliases) throws Exception
    {
        final KeyStore merged = KeyStore.getInstance("PKCS12");
        merged.load(null, null);
        for (String alias : aliases)
        {
            final KeyStore single = load(directory.resolve(alias + ".single.p12"));
            merged.setKeyEntry(alias, single.getKey(alias, PASSWORD.toCharArray()), PASSWORD.toCharArray(),
                single.getCertificateChain(alias));
        }
        try (OutputStream out = Files.newOutputStream(target))
        {
            merged.store(out, PASSWORD.toCharArray());
        }
    }

    static KeyStore load(Path store) throws Exception
    {
        final KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store))
        {
            keys.load(in, PASSWORD.toCharArray());
        }
        return keys;
    }

    static List<Certificate> certificates(Path pem) throws Exception
    {
        try (InputStream in = Files.newInputStream(pem))
        {
            return new ArrayList<>(CertificateFactory.getInstance("X.509").generateCertificates(in));
        }
    }

    private void openssl(String... arguments) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        final Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            throw new GeneralSecurityException("openssl " + command + " failed: " + output);
        }
    }
}
