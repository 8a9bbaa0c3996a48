/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Keys and certificates made for a test in its temporary directory, with openssl and keytool: a CA, a server
 * certificate for {@code localhost} (and {@code zilla.example.com}) and a client certificate, both signed by the CA, and
 * a second CA that signed nothing here. Nothing private is committed.
 */
final class TestStores
{
    static final String PASSWORD = "s3cret-pass";

    private final Path directory;

    private TestStores(Path directory)
    {
        this.directory = directory;
    }

    static TestStores create(Path directory)
    {
        final TestStores stores = new TestStores(directory);
        stores.certificateAuthority("ca", "Test CA");
        stores.certificateAuthority("other-ca", "Other CA");
        stores.signed("server", "localhost", "DNS:localhost,DNS:zilla.example.com,IP:127.0.0.1", "ca");
        stores.signed("client", "client", "DNS:client", "ca");
        stores.signed("stranger", "stranger", "DNS:stranger", "other-ca");
        return stores;
    }

    Path directory()
    {
        return directory;
    }

    Path path(String name)
    {
        return directory.resolve(name);
    }

    /** {@code <name>.p12}: the key of {@code <name>} with its chain (itself, then the CA), under {@code alias}. */
    Path pkcs12Keys(String name, String alias)
    {
        final Path store = path(name + ".p12");
        run("openssl", "pkcs12", "-export", "-inkey", file(name + ".key"), "-in", file(name + ".crt"),
            "-certfile", file("ca.crt"), "-name", alias, "-out", store.toString(), "-passout", "pass:" + PASSWORD);
        return store;
    }

    /** {@code <file>}: a PKCS12 trust store of the given certificates, each under its name, as keytool writes it. */
    Path pkcs12Trust(String file, String... names)
    {
        final Path store = path(file);
        for (String name : names)
        {
            run(keytool(), "-importcert", "-noprompt", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass",
                PASSWORD, "-alias", name, "-file", file(name + ".crt"));
        }
        return store;
    }

    /** {@code <file>}: a JKS copy of the PKCS12 store {@code <source>}, made by keytool -importkeystore. */
    Path jks(String file, String source)
    {
        final Path store = path(file);
        run(keytool(), "-importkeystore", "-noprompt", "-srckeystore", file(source), "-srcstoretype", "PKCS12",
            "-srcstorepass", PASSWORD, "-destkeystore", store.toString(), "-deststoretype", "JKS", "-deststorepass", PASSWORD,
            "-destkeypass", PASSWORD);
        return store;
    }

    /** {@code <file>}: a JKS trust store of the given certificates, each under its name, as keytool writes it. */
    Path jksTrust(String file, String... names)
    {
        final Path store = path(file);
        for (String name : names)
        {
            run(keytool(), "-importcert", "-noprompt", "-storetype", "JKS", "-keystore", store.toString(), "-storepass",
                PASSWORD, "-alias", name, "-file", file(name + ".crt"));
        }
        return store;
    }

    /** {@code <file>}: the first {@code length} bytes of {@code <source>}, as a store cut short in transit would be. */
    Path truncated(String file, String source, int length)
    {
        final Path target = path(file);
        try
        {
            Files.write(target, Arrays.copyOf(Files.readAllBytes(path(source)), length));
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return target;
    }

    /** The PKCS#8 key of {@code <name>}, encrypted with PBES2 and AES-256 under {@link #PASSWORD}. */
    String encryptedKey(String name)
    {
        final Path encrypted = path(name + ".enc.key");
        run("openssl", "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", file(name + ".key"), "-out", encrypted.toString(),
            "-passout", "pass:" + PASSWORD);
        return read(encrypted);
    }

    /** The key of {@code <name>} as PKCS#1 ({@code BEGIN RSA PRIVATE KEY}). */
    String rsaKey(String name)
    {
        final Path rsa = path(name + ".rsa.key");
        run("openssl", "pkey", "-in", file(name + ".key"), "-traditional", "-out", rsa.toString());
        return read(rsa);
    }

    String read(String name)
    {
        return read(path(name));
    }

    Path write(String name, String... texts)
    {
        final Path file = path(name);
        try
        {
            Files.createDirectories(file.getParent());
            Files.writeString(file, String.join("", texts), StandardCharsets.US_ASCII);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return file;
    }

    private void certificateAuthority(String name, String commonName)
    {
        run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", file(name + ".key"), "-out",
            file(name + ".crt"), "-days", "2", "-subj", "/CN=" + commonName,
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    }

    private void signed(String name, String commonName, String subjectAltNames, String ca)
    {
        run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", file(name + ".key"), "-out", file(name + ".csr"),
            "-subj", "/CN=" + commonName);
        final Path extensions = write(name + ".ext", "subjectAltName=" + subjectAltNames + "\n");
        run("openssl", "x509", "-req", "-in", file(name + ".csr"), "-CA", file(ca + ".crt"), "-CAkey", file(ca + ".key"),
            "-CAcreateserial", "-out", file(name + ".crt"), "-days", "2", "-extfile", extensions.toString());
    }

    private static String keytool()
    {
        return Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    }

    private String file(String name)
    {
        return path(name).toString();
    }

    private static String read(Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.US_ASCII);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void run(String... command)
    {
        final List<String> line = new ArrayList<>(List.of(command));
        try
        {
            final Process process = new ProcessBuilder(line).directory(directory.toFile()).redirectErrorStream(true).start();
            final byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", line) + " failed: "
                    + new String(output, StandardCharsets.UTF_8));
            }
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
