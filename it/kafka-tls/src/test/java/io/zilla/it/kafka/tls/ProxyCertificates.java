/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.kafka.tls;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Keys and certificates made with openssl in a temporary directory when a test class starts (no private key is
 * committed): a CA ({@code ca.crt}) and, signed by it, the key of the tls server in front of the kafka proxy
 * ({@code kafka.p12}, alias {@code kafka}, password {@link #PASSWORD}) whose certificate names only the wildcard
 * {@code *.<domain>}; and a CA of nobody's ({@code stranger.crt}) that signed nothing here.
 */
final class ProxyCertificates
{
    static final String PASSWORD = "changeit";

    /** PKCS12: the tls server's key, alias kafka, certificate for *.domain with the CA after it. */
    final Path serverKeys;
    /** PEM: the CA that signed the tls server's certificate. */
    final Path caCertificate;
    /** PEM: another CA, which signed none of the certificates the tests meet. */
    final Path strangerCertificate;

    private final Path directory;

    private ProxyCertificates(Path directory)
    {
        this.directory = directory;
        this.serverKeys = directory.resolve("kafka.p12");
        this.caCertificate = directory.resolve("ca.crt");
        this.strangerCertificate = directory.resolve("stranger.crt");
    }

    static ProxyCertificates make(Path directory, String domain) throws Exception
    {
        final ProxyCertificates certificates = new ProxyCertificates(directory);
        certificates.ca("ca");
        certificates.ca("stranger");
        certificates.server("kafka", "*." + domain);
        return certificates;
    }

    private void ca(String name) throws Exception
    {
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=" + name,
            "-days", "2", "-keyout", name + ".key", "-out", name + ".crt",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    }

    private void server(String alias, String name) throws Exception
    {
        Files.writeString(directory.resolve(alias + ".ext"), "subjectAltName=DNS:" + name + "\n"
            + "extendedKeyUsage=serverAuth\n", StandardCharsets.US_ASCII);
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=" + name,
            "-keyout", alias + ".key", "-out", alias + ".csr");
        openssl("x509", "-req", "-in", alias + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
            "-days", "2", "-extfile", alias + ".ext", "-out", alias + ".crt");
        openssl("pkcs12", "-export", "-in", alias + ".crt", "-inkey", alias + ".key", "-certfile", "ca.crt",
            "-name", alias, "-passout", "pass:" + PASSWORD, "-out", alias + ".p12");
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
