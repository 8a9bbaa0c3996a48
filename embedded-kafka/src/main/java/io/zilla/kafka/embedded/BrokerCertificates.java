/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The keys and certificates of a broker's SSL listener, made with the JDK's {@code keytool} (child processes) into a
 * directory of the broker's: a CA, the broker's key with a certificate the CA signed for {@code localhost} and
 * {@code 127.0.0.1} (so that clients verify the host name), a truststore holding the CA, and optionally a client's key
 * and certificate signed by the same CA (for {@code ssl.client.auth=required}). All PKCS12 with one random password;
 * elliptic-curve keys (P-256), quick to generate. Nothing here is ever committed: every broker makes its own.
 * <p>
 * keytool makes the keys, the requests and the signatures, the only steps without a public JDK API; each is a JVM
 * that costs about half a second of CPU, so the rest (PEM export, truststore, installing a signed chain) goes through
 * {@link KeyStore} in this JVM, and the keys that do not depend on each other are made at the same time.
 */
final class BrokerCertificates
{
    static final String CA_PEM = "ca.pem";
    static final String BROKER_KEYSTORE = "broker.p12";
    static final String TRUSTSTORE = "truststore.p12";
    static final String CLIENT_KEYSTORE = "client.p12";

    private static final String CA_KEYSTORE = "ca.p12";

    private static final String VALIDITY_DAYS = "30";
    // a day back, so that a client whose clock is a little behind does not find the certificate not yet valid
    private static final String START_DATE = "-1d";

    private final Path directory;
    private final String password;
    private final Duration timeout;

    private BrokerCertificates(Path directory, String password, Duration timeout)
    {
        this.directory = directory;
        this.password = password;
        this.timeout = timeout;
    }

    /** A random password for the stores: 32 hex digits, nothing a property file or a command line must escape. */
    static String randomPassword()
    {
        final byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Writes the CA, the broker's keystore, the truststore and (when {@code client}) a client's keystore. */
    static void generate(Path directory, String password, boolean client, Duration timeout) throws IOException
    {
        Files.createDirectories(directory);
        final BrokerCertificates certificates = new BrokerCertificates(directory, password, timeout);
        final List<Signed> signed = new ArrayList<>();
        signed.add(new Signed("broker", BROKER_KEYSTORE, "CN=localhost",
            List.of("-ext", "SAN=dns:localhost,ip:127.0.0.1", "-ext", "EKU=serverAuth")));
        if (client)
        {
            signed.add(new Signed("client", CLIENT_KEYSTORE, "CN=embedded-kafka-client", List.of("-ext", "EKU=clientAuth")));
        }

        final List<List<String>> keyPairs = new ArrayList<>();
        keyPairs.add(List.of("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
            "-dname", "CN=embedded-kafka CA", "-ext", "bc:c=ca:true", "-ext", "KeyUsage:c=keyCertSign,cRLSign",
            "-validity", VALIDITY_DAYS, "-startdate", START_DATE, "-keystore", CA_KEYSTORE, "-storetype", "PKCS12",
            "-storepass", password));
        signed.forEach(s -> keyPairs.add(certificates.keyPair(s)));
        certificates.keytools(keyPairs);

        final X509Certificate ca = certificates.writeCa();
        certificates.keytools(signed.stream().map(certificates::request).toList());
        certificates.keytools(signed.stream().map(certificates::signature).toList());
        for (Signed each : signed)
        {
            certificates.install(each, ca);
        }
    }

    // a key that the CA signs: its alias, keystore, subject and the extensions of its certificate
    private record Signed(String alias, String keystore, String dname, List<String> extensions)
    {
    }

    // the CA's certificate as PEM, and alone in the truststore
    private X509Certificate writeCa() throws IOException
    {
        try
        {
            final X509Certificate ca = (X509Certificate) load(CA_KEYSTORE).getCertificate("ca");
            Files.writeString(directory.resolve(CA_PEM), pem(ca), StandardCharsets.US_ASCII);
            final KeyStore truststore = KeyStore.getInstance("PKCS12");
            truststore.load(null, null);
            truststore.setCertificateEntry("ca", ca);
            store(truststore, TRUSTSTORE);
            return ca;
        }
        catch (GeneralSecurityException ex)
        {
            throw new IllegalStateException("cannot write the truststore", ex);
        }
    }

    // a key in its own keystore, with a self-signed certificate until the CA signs it
    private List<String> keyPair(Signed signed)
    {
        return List.of("-genkeypair", "-alias", signed.alias, "-keyalg", "EC", "-groupname", "secp256r1",
            "-dname", signed.dname, "-validity", VALIDITY_DAYS, "-keystore", signed.keystore, "-storetype", "PKCS12",
            "-storepass", password);
    }

    private List<String> request(Signed signed)
    {
        return List.of("-certreq", "-alias", signed.alias, "-keystore", signed.keystore, "-storepass", password,
            "-file", signed.alias + ".csr");
    }

    private List<String> signature(Signed signed)
    {
        final List<String> sign = new ArrayList<>(List.of("-gencert", "-alias", "ca", "-keystore", CA_KEYSTORE,
            "-storepass", password, "-infile", signed.alias + ".csr", "-outfile", signed.alias + ".pem", "-rfc",
            "-validity", VALIDITY_DAYS, "-startdate", START_DATE));
        sign.addAll(signed.extensions);
        return sign;
    }

    // the key's certificate, signed by the CA, installed with the CA as its chain
    private void install(Signed signed, X509Certificate ca) throws IOException
    {
        final KeyStore store = load(signed.keystore);
        try (InputStream in = Files.newInputStream(directory.resolve(signed.alias + ".pem")))
        {
            final Certificate certificate = CertificateFactory.getInstance("X.509").generateCertificate(in);
            final Key key = store.getKey(signed.alias, password.toCharArray());
            store.setKeyEntry(signed.alias, key, password.toCharArray(), new Certificate[] {certificate, ca});
        }
        catch (GeneralSecurityException ex)
        {
            throw new IllegalStateException("cannot install the signed certificate of " + signed.alias, ex);
        }
        store(store, signed.keystore);
    }

    private KeyStore load(String name) throws IOException
    {
        try (InputStream in = Files.newInputStream(directory.resolve(name)))
        {
            final KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password.toCharArray());
            return store;
        }
        catch (GeneralSecurityException ex)
        {
            throw new IllegalStateException("cannot read " + name, ex);
        }
    }

    private void store(KeyStore store, String name) throws IOException
    {
        try (OutputStream out = Files.newOutputStream(directory.resolve(name)))
        {
            store.store(out, password.toCharArray());
        }
        catch (GeneralSecurityException ex)
        {
            throw new IllegalStateException("cannot write " + name, ex);
        }
    }

    private static String pem(X509Certificate certificate) throws IOException
    {
        try
        {
            return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(certificate.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
        }
        catch (GeneralSecurityException ex)
        {
            throw new IOException("cannot encode " + certificate.getSubjectX500Principal(), ex);
        }
    }

    // runs keytools that do not depend on each other at the same time, and waits for all of them
    private void keytools(List<List<String>> commands) throws IOException
    {
        final List<Process> processes = new ArrayList<>();
        try
        {
            for (List<String> command : commands)
            {
                processes.add(start(command.toArray(String[]::new)));
            }
            for (int i = 0; i < processes.size(); i++)
            {
                await(processes.get(i), commands.get(i).get(0));
            }
        }
        finally
        {
            processes.forEach(Process::destroyForcibly);
        }
    }

    private Process start(String... arguments) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "keytool").toString());
        // a short-lived JVM each: start quickly on few cores
        command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        command.addAll(List.of(arguments));
        // one log per process, so that keytools running at the same time do not mix their output
        final Path log = Files.createTempFile(directory, "keytool-", ".log");
        return new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    }

    private void await(Process process, String what) throws IOException
    {
        boolean done;
        try
        {
            done = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            done = false;
        }
        if (!done)
        {
            process.destroyForcibly();
        }
        if (!done || process.exitValue() != 0)
        {
            final StringBuilder output = new StringBuilder();
            try (DirectoryStream<Path> logs = Files.newDirectoryStream(directory, "keytool-*.log"))
            {
                for (Path log : logs)
                {
                    output.append(Files.readString(log, StandardCharsets.UTF_8));
                }
            }
            throw new IllegalStateException("keytool " + what + " failed:\n" + output.toString().replace(password, "***"));
        }
    }
}
