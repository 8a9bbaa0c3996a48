/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import io.zilla.engine.config.ConfigValueException;
import io.zilla.vaults.filesystem.config.StoreConfig;

/**
 * Reads PEM files. A store is a file or a directory:
 * <ul>
 * <li>keys, a file: one private key and its certificate chain (its own certificate first), under the alias of the
 * file's name without its extension ({@code localhost.pem}: {@code localhost});</li>
 * <li>keys, a directory: each {@code <alias>.key} (one private key) with {@code <alias>.crt} (its chain);</li>
 * <li>trust and signers, a file: its certificates, under the alias of the file's name, then {@code <name>.1},
 * {@code <name>.2}...; a directory: every {@code .crt}, {@code .pem} and {@code .cer} file so.</li>
 * </ul>
 */
final class PemReader
{
    private static final String KEY_SUFFIX = ".key";
    private static final String CERTIFICATE_SUFFIX = ".crt";
    private static final List<String> CERTIFICATE_SUFFIXES = List.of(".crt", ".pem", ".cer");

    private final StoreConfig config;

    PemReader(StoreConfig config)
    {
        this.config = config;
    }

    List<KeyEntry> keys()
    {
        final List<KeyEntry> keys = new ArrayList<>();
        if (Files.isDirectory(config.store()))
        {
            for (Path keyFile : files(List.of(KEY_SUFFIX)))
            {
                final String alias = alias(keyFile);
                final Path chainFile = keyFile.resolveSibling(alias + CERTIFICATE_SUFFIX);
                if (!Files.isRegularFile(chainFile))
                {
                    throw new ConfigValueException(config.section() + ".store", quote(keyFile) + " has no certificate: "
                        + quote(chainFile) + " is missing");
                }
                keys.add(key(alias, keyFile, blocks(keyFile), blocks(chainFile)));
            }
        }
        else
        {
            final List<PemBlock> blocks = blocks(config.store());
            keys.add(key(alias(config.store()), config.store(), blocks, blocks));
        }
        return keys;
    }

    List<CertificateEntry> certificates()
    {
        final List<Path> files = Files.isDirectory(config.store()) ? files(CERTIFICATE_SUFFIXES) : List.of(config.store());
        final List<CertificateEntry> certificates = new ArrayList<>();
        final Map<String, Path> aliased = new HashMap<>();
        for (Path file : files)
        {
            final List<X509Certificate> read = certificates(file, blocks(file));
            for (int index = 0; index < read.size(); index++)
            {
                final String alias = alias(file) + (index == 0 ? "" : "." + index);
                // KeyStore aliases ignore case: ca.crt and CA.pem would otherwise keep only one certificate
                final Path first = aliased.putIfAbsent(alias.toLowerCase(Locale.ROOT), file);
                if (first != null)
                {
                    throw new ConfigValueException(config.section() + ".store", quote(file) + " and " + quote(first)
                        + " both give the alias '" + alias + "': rename one");
                }
                certificates.add(new CertificateEntry(alias, read.get(index)));
            }
        }
        return certificates;
    }

    private KeyEntry key(String alias, Path keyFile, List<PemBlock> keyBlocks, List<PemBlock> chainBlocks)
    {
        final List<PemBlock> privateKeys = keyBlocks.stream().filter(PemBlock::isPrivateKey).toList();
        if (privateKeys.size() != 1)
        {
            throw new ConfigValueException(config.section() + ".store", quote(keyFile) + " holds " + privateKeys.size()
                + " private keys, not 1" + (privateKeys.isEmpty() ? "" : ": put each in <alias>.key in a directory"));
        }
        final List<X509Certificate> chain = certificates(keyFile, chainBlocks);
        final PrivateKeyDecoder decoder = new PrivateKeyDecoder(config.section(), quote(keyFile), config.password());
        return new KeyEntry(alias, decoder.decode(privateKeys.get(0)), chain);
    }

    private List<X509Certificate> certificates(Path file, List<PemBlock> blocks)
    {
        final List<X509Certificate> certificates = new ArrayList<>();
        try
        {
            final CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (PemBlock block : blocks)
            {
                if (block.isCertificate())
                {
                    certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
                }
            }
        }
        catch (CertificateException ex)
        {
            throw new ConfigValueException(config.section() + ".store", quote(file) + " holds a certificate that cannot be read: "
                + ex.getMessage(), ex);
        }
        if (certificates.isEmpty())
        {
            throw new ConfigValueException(config.section() + ".store", quote(file) + " holds no certificate");
        }
        return certificates;
    }

    private List<PemBlock> blocks(Path file)
    {
        final String text;
        try
        {
            // Latin-1 reads any bytes: a binary file is then reported as not PEM rather than as malformed UTF-8
            text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        }
        catch (IOException ex)
        {
            throw new ConfigValueException(config.section() + ".store", "cannot read " + quote(file) + ": " + ex, ex);
        }
        final List<PemBlock> blocks;
        try
        {
            blocks = PemBlock.parse(text);
        }
        catch (IllegalArgumentException ex)
        {
            throw new ConfigValueException(config.section() + ".store", quote(file) + " has a PEM block that is not base64", ex);
        }
        if (blocks.isEmpty())
        {
            throw new ConfigValueException(config.section() + ".type", quote(file) + " is not a pem file (no -----BEGIN block)");
        }
        return blocks;
    }

    private List<Path> files(List<String> suffixes)
    {
        try (Stream<Path> listed = Files.list(config.store()))
        {
            final List<Path> files = listed
                .filter(Files::isRegularFile)
                .filter(file -> suffixes.stream().anyMatch(suffix -> file.getFileName().toString().endsWith(suffix)))
                .sorted()
                .toList();
            if (files.isEmpty())
            {
                throw new ConfigValueException(config.section() + ".store", quote(config.store()) + " has no "
                    + String.join(" or ", suffixes) + " file");
            }
            return files;
        }
        catch (IOException ex)
        {
            throw new ConfigValueException(config.section() + ".store", "cannot list " + quote(config.store()) + ": " + ex, ex);
        }
    }

    private static String alias(Path file)
    {
        final String name = file.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private static String quote(Path file)
    {
        return "'" + file + "'";
    }
}
