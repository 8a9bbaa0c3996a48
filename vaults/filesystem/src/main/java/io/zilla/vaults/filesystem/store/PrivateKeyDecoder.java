/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

import io.zilla.engine.config.ConfigValueException;

/**
 * Decodes the private key of a PEM block: PKCS#8 ({@code PRIVATE KEY}), encrypted PKCS#8
 * ({@code ENCRYPTED PRIVATE KEY}, PBES2 with AES as {@code openssl pkcs8 -topk8 -v2 aes-256-cbc} writes it) and
 * PKCS#1 RSA ({@code RSA PRIVATE KEY}, unencrypted). The key's algorithm is found by trying the JDK's.
 */
final class PrivateKeyDecoder
{
    private static final List<String> ALGORITHMS = List.of("RSA", "EC", "EdDSA", "RSASSA-PSS", "DSA");

    // AlgorithmIdentifier { rsaEncryption (1.2.840.113549.1.1.1), NULL } in DER
    private static final byte[] RSA_ALGORITHM = {
        0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00
    };

    private final String section;
    private final String source;
    private final String password;

    /**
     * @param section  {@code keys}: where errors point
     * @param source   the file, quoted, for messages
     * @param password the password of encrypted keys, or null
     */
    PrivateKeyDecoder(String section, String source, String password)
    {
        this.section = section;
        this.source = source;
        this.password = password;
    }

    PrivateKey decode(PemBlock block)
    {
        return switch (block.label())
        {
            case "PRIVATE KEY" -> pkcs8(block.der());
            case "ENCRYPTED PRIVATE KEY" -> pkcs8(decrypt(block.der()));
            case "RSA PRIVATE KEY" -> pkcs8(wrapPkcs1(unencrypted(block)));
            default -> throw unsupported("a '" + block.label() + "' block");
        };
    }

    private byte[] unencrypted(PemBlock block)
    {
        if (block.headers())
        {
            throw unsupported("a legacy OpenSSL-encrypted RSA key (Proc-Type header)");
        }
        return block.der();
    }

    private byte[] decrypt(byte[] der)
    {
        if (password == null)
        {
            throw new ConfigValueException(section, "the private key in " + source + " is encrypted: give its password");
        }
        final EncryptedPrivateKeyInfo info;
        try
        {
            info = new EncryptedPrivateKeyInfo(der);
        }
        catch (IOException ex)
        {
            throw unsupported("an encrypted key whose scheme the JDK cannot read (" + ex.getMessage() + ")");
        }
        // with PBES2 the scheme is in the parameters (PBEWithHmacSHA256AndAES_256), not in the algorithm's name
        final String algorithm = "PBES2".equals(info.getAlgName()) && info.getAlgParameters() != null
            ? info.getAlgParameters().toString()
            : info.getAlgName();
        try
        {
            final SecretKeyFactory factory = SecretKeyFactory.getInstance(algorithm);
            final Cipher cipher = Cipher.getInstance(algorithm);
            cipher.init(Cipher.DECRYPT_MODE, factory.generateSecret(new PBEKeySpec(password.toCharArray())),
                info.getAlgParameters());
            return info.getKeySpec(cipher).getEncoded();
        }
        catch (NoSuchAlgorithmException ex)
        {
            throw unsupported("an encrypted key with " + algorithm);
        }
        catch (GeneralSecurityException ex)
        {
            throw new ConfigValueException(section + ".password", "cannot decrypt the private key in " + source
                + ": wrong password", ex);
        }
    }

    private PrivateKey pkcs8(byte[] der)
    {
        for (String algorithm : ALGORITHMS)
        {
            try
            {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            }
            catch (GeneralSecurityException ex)
            {
                // not this algorithm: try the next
            }
        }
        throw new ConfigValueException(section + ".store", source + " holds a private key that is none of "
            + String.join(", ", ALGORITHMS));
    }

    /** PrivateKeyInfo { version 0, rsaEncryption, OCTET STRING { the PKCS#1 RSAPrivateKey } }. */
    private static byte[] wrapPkcs1(byte[] pkcs1)
    {
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0x02, 0x01, 0x00});
        body.writeBytes(RSA_ALGORITHM);
        body.write(0x04);
        writeLength(body, pkcs1.length);
        body.writeBytes(pkcs1);

        final ByteArrayOutputStream info = new ByteArrayOutputStream();
        info.write(0x30);
        writeLength(info, body.size());
        info.writeBytes(body.toByteArray());
        return info.toByteArray();
    }

    private static void writeLength(ByteArrayOutputStream out, int length)
    {
        if (length < 0x80)
        {
            out.write(length);
        }
        else
        {
            final int bytes = length < 0x100 ? 1 : length < 0x10000 ? 2 : 3;
            out.write(0x80 | bytes);
            for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8)
            {
                out.write(length >>> shift & 0xff);
            }
        }
    }

    private ConfigValueException unsupported(String what)
    {
        return new ConfigValueException(section + ".store", source + " holds " + what
            + ": convert it to PKCS#8 with 'openssl pkcs8 -topk8 -v2 aes-256-cbc' (or -nocrypt)");
    }
}
