/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import java.io.ByteArrayInputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.KeyManagerFactorySpi;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Keys and certificates made by openssl when a test class starts (never committed): a CA, a server certificate for
 * {@value #SERVER_NAME} and a client certificate signed by it, and a second CA that signed a look-alike server
 * certificate, which clients trusting the first CA must refuse.
 */
final class TestKeys
{
    static final String SERVER_NAME = "server.example.test";
    static final String CLIENT_NAME = "client.example.test";

    private static final char[] PASSWORD = "changeit".toCharArray();

    final X509Certificate ca;
    final Entry server;
    final Entry client;
    final X509Certificate rogueCa;
    final Entry rogueServer;

    record Entry(PrivateKey key, X509Certificate[] chain)
    {
    }

    TestKeys(Path directory) throws Exception
    {
        this.ca = newCa(directory, "ca");
        this.server = newSigned(directory, "ca", "server", SERVER_NAME,
            "subjectAltName=DNS:" + SERVER_NAME + "\nextendedKeyUsage=serverAuth\n");
        this.client = newSigned(directory, "ca", "client", CLIENT_NAME, "extendedKeyUsage=clientAuth\n");
        this.rogueCa = newCa(directory, "rogue-ca");
        this.rogueServer = newSigned(directory, "rogue-ca", "rogue-server", SERVER_NAME,
            "subjectAltName=DNS:" + SERVER_NAME + "\nextendedKeyUsage=serverAuth\n");
    }

    static KeyManagerFactory keys(Entry entry) throws Exception
    {
        final KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("key", entry.key(), PASSWORD, entry.chain());
        final KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, PASSWORD);
        return factory;
    }

    /**
     * The entry's key, offered to any server that asks: the JDK's key managers offer only certificates issued by a
     * CA the server names in its request, so a client could otherwise never present a certificate of another CA.
     */
    static KeyManagerFactory keysIgnoringIssuers(Entry entry)
    {
        final KeyManager manager = new AnyIssuerKeyManager(entry);
        return new KeyManagerFactory(new KeyManagerFactorySpi()
        {
            @Override
            protected void engineInit(KeyStore store, char[] password)
            {
            }

            @Override
            protected void engineInit(ManagerFactoryParameters parameters)
            {
            }

            @Override
            protected KeyManager[] engineGetKeyManagers()
            {
                return new KeyManager[] {manager};
            }
        }, null, "any-issuer")
        {
        };
    }

    static TrustManagerFactory trust(X509Certificate... certificates) throws Exception
    {
        final KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (int i = 0; i < certificates.length; i++)
        {
            store.setCertificateEntry("trusted-" + i, certificates[i]);
        }
        final TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory;
    }

    private static X509Certificate newCa(Path directory, String name) throws Exception
    {
        openssl(directory, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", name + ".key", "-out", name + ".crt", "-subj", "/CN=zilla test " + name, "-days", "2",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        return certificates(directory.resolve(name + ".crt")).get(0);
    }

    private static Entry newSigned(Path directory, String ca, String name, String commonName, String extensions)
        throws Exception
    {
        Files.writeString(directory.resolve(name + ".ext"), extensions);
        openssl(directory, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + commonName);
        openssl(directory, "x509", "-req", "-in", name + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key",
            "-CAcreateserial", "-days", "2", "-extfile", name + ".ext", "-out", name + ".crt");
        final List<X509Certificate> chain = new ArrayList<>(certificates(directory.resolve(name + ".crt")));
        chain.addAll(certificates(directory.resolve(ca + ".crt")));
        return new Entry(privateKey(directory.resolve(name + ".key")), chain.toArray(X509Certificate[]::new));
    }

    private static PrivateKey privateKey(Path file) throws Exception
    {
        // openssl 3 writes unencrypted keys as PKCS#8 ("BEGIN PRIVATE KEY")
        final String pem = Files.readString(file, StandardCharsets.US_ASCII);
        final String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }

    private static List<X509Certificate> certificates(Path file) throws Exception
    {
        final List<X509Certificate> certificates = new ArrayList<>();
        final CertificateFactory factory = CertificateFactory.getInstance("X.509");
        for (Certificate certificate : factory.generateCertificates(new ByteArrayInputStream(Files.readAllBytes(file))))
        {
            certificates.add((X509Certificate) certificate);
        }
        return certificates;
    }

    private static void openssl(Path directory, String... arguments) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(arguments));
        final Process process = new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }

    private static final class AnyIssuerKeyManager extends X509ExtendedKeyManager
    {
        private static final String ALIAS = "key";

        private final Entry entry;

        AnyIssuerKeyManager(Entry entry)
        {
            this.entry = entry;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers)
        {
            return new String[] {ALIAS};
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket)
        {
            return ALIAS;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine)
        {
            return ALIAS;
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers)
        {
            return new String[] {ALIAS};
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket)
        {
            return ALIAS;
        }

        @Override
        public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine)
        {
            return ALIAS;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias)
        {
            return ALIAS.equals(alias) ? entry.chain().clone() : null;
        }

        @Override
        public PrivateKey getPrivateKey(String alias)
        {
            return ALIAS.equals(alias) ? entry.key() : null;
        }
    }
}
