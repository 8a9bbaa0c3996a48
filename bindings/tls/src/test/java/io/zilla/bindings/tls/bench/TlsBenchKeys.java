/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The server key of every target, made by openssl when the benchmark starts (never committed): a self-signed
 * certificate for {@code localhost}, in PEM for s_server and in a PKCS12 store (alias {@code localhost}) for zilla's
 * filesystem vault; and the client context that trusts it.
 */
record TlsBenchKeys(Path directory, Path certificate, Path key, Path store, String password, SSLContext clientContext)
{
    static TlsBenchKeys make(Path directory, String type, String password) throws Exception
    {
        final Path certificate = directory.resolve("localhost.crt");
        final Path key = directory.resolve("localhost.key");
        final Path store = directory.resolve("localhost.p12");
        final List<String> request = new ArrayList<>(List.of("openssl", "req", "-x509", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-keyout", key.toString(), "-out",
            certificate.toString()));
        request.addAll("ec".equals(type) ? List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256")
            : List.of("-newkey", "rsa:2048"));
        TlsBenchmark.command(request.toArray(String[]::new));
        TlsBenchmark.command("openssl", "pkcs12", "-export", "-in", certificate.toString(), "-inkey", key.toString(),
            "-name", "localhost", "-out", store.toString(), "-passout", "pass:" + password);
        return new TlsBenchKeys(directory, certificate, key, store, password, trusting(certificate));
    }

    private static SSLContext trusting(Path certificate) throws IOException, GeneralSecurityException
    {
        final KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(certificate))
        {
            trust.setCertificateEntry("localhost", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        final TrustManagerFactory trustManagers = TrustManagerFactory.getInstance("PKIX");
        trustManagers.init(trust);
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        return context;
    }
}
