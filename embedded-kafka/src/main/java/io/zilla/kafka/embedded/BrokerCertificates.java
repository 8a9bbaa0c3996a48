/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The keys and certificates of a broker's SSL listener, made with the JDK's {@code keytool} (child processes) into a
 * directory of the broker's: a CA, the broker's key with a certificate the CA signed for {@code localhost} and
 * {@code 127.0.0.1} (so that clients verify the host name), a truststore holding the CA, and optionally a client's key
 * and certificate signed by the same CA (for {@code ssl.client.auth=required}). All PKCS12 with one random password;
 * elliptic-curve keys (P-256), quick to generate. Nothing here is ever committed: every broker makes its own.
 */
final class BrokerCertificates
{
    static final String CA_PEM = "ca.pem";
    static final String BROKER_KEYSTORE = "broker.p12";
    static final String TRUSTSTORE = "truststore.p12";
    static final String CLIENT_KEYSTORE = "client.p12";

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
        certificates.generateCa();
        certificates.generateSigned("broker", BROKER_KEYSTORE, "CN=localhost",
            List.of("-ext", "SAN=dns:localhost,ip:127.0.0.1", "-ext", "EKU=serverAuth"));
        certificates.keytool("-importcert", "-alias", "ca", "-file", CA_PEM, "-keystore", TRUSTSTORE, "-storetype", "PKCS12",
            "-storepass", password, "-noprompt");
        if (client)
        {
            certificates.generateSigned("client", CLIENT_KEYSTORE, "CN=embedded-kafka-client",
                List.of("-ext", "EKU=clientAuth"));
        }
    }

    private void generateCa() throws IOException
    {
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=embedded-kafka CA",
            "-ext", "bc:c=ca:true", "-ext", "KeyUsage:c=keyCertSign,cRLSign", "-validity", VALIDITY_DAYS,
            "-startdate", START_DATE, "-keystore", "ca.p12", "-storetype", "PKCS12", "-storepass", password);
        keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-storepass", password, "-file", CA_PEM);
    }

    // a key in its own keystore, its certificate signed by the CA and imported with the CA as its chain
    private void generateSigned(String alias, String keystore, String dname, List<String> extensions) throws IOException
    {
        final String request = alias + ".csr";
        final String certificate = alias + ".pem";
        keytool("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", dname,
            "-validity", VALIDITY_DAYS, "-keystore", keystore, "-storetype", "PKCS12", "-storepass", password);
        keytool("-certreq", "-alias", alias, "-keystore", keystore, "-storepass", password, "-file", request);
        final List<String> sign = new ArrayList<>(List.of("-gencert", "-alias", "ca", "-keystore", "ca.p12",
            "-storepass", password, "-infile", request, "-outfile", certificate, "-rfc", "-validity", VALIDITY_DAYS,
            "-startdate", START_DATE));
        sign.addAll(extensions);
        keytool(sign.toArray(String[]::new));
        keytool("-importcert", "-alias", "ca", "-file", CA_PEM, "-keystore", keystore, "-storepass", password, "-noprompt");
        keytool("-importcert", "-alias", alias, "-file", certificate, "-keystore", keystore, "-storepass", password);
    }

    private void keytool(String... arguments) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "keytool").toString());
        // a short-lived JVM each: start quickly on few cores
        command.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        command.addAll(List.of(arguments));
        final Path log = directory.resolve("keytool.log");
        final long offset = Files.exists(log) ? Files.size(log) : 0L;
        final Process process = new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
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
            final byte[] output = Files.readAllBytes(log);
            throw new IllegalStateException("keytool " + arguments[0] + " failed:\n"
                + new String(output, (int) offset, output.length - (int) offset, StandardCharsets.UTF_8)
                    .replace(password, "***"));
        }
    }
}
