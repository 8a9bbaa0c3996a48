/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.store;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code -----BEGIN <label>-----} ... {@code -----END <label>-----} block of a PEM file (RFC 7468).
 *
 * @param label   such as {@code CERTIFICATE} or {@code PRIVATE KEY}
 * @param der     the decoded bytes
 * @param headers whether the block had RFC 1421 headers ({@code Proc-Type: 4,ENCRYPTED}): legacy OpenSSL encryption
 */
record PemBlock(String label, byte[] der, boolean headers)
{
    static final String CERTIFICATE = "CERTIFICATE";

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);

    /** The blocks of a PEM text, in order; text around them (comments, {@code openssl x509 -text}) is skipped. */
    static List<PemBlock> parse(String text)
    {
        final List<PemBlock> blocks = new ArrayList<>();
        final Matcher matcher = BLOCK.matcher(text);
        while (matcher.find())
        {
            final String body = matcher.group(2);
            // base64 has no ':': a header line means legacy encryption, whose body this reader never decrypts
            final boolean headers = body.contains(":");
            final byte[] der = headers ? new byte[0] : Base64.getMimeDecoder().decode(body.trim());
            blocks.add(new PemBlock(matcher.group(1), der, headers));
        }
        return blocks;
    }

    boolean isCertificate()
    {
        return CERTIFICATE.equals(label);
    }

    boolean isPrivateKey()
    {
        return label.endsWith("PRIVATE KEY");
    }
}
