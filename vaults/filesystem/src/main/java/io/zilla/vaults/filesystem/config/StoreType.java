/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.config;

import java.util.Locale;

/** The format of a store: what its {@code type} says in zilla.yaml. */
public enum StoreType
{
    PKCS12("PKCS12"),
    JKS("JKS"),
    PEM(null);

    private final String keyStoreType;

    StoreType(String keyStoreType)
    {
        this.keyStoreType = keyStoreType;
    }

    /** The JDK's KeyStore type that reads it, or null for PEM, which the vault reads itself. */
    public String keyStoreType()
    {
        return keyStoreType;
    }

    /** The name zilla.yaml uses, such as {@code pkcs12}. */
    public String yamlName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code pkcs12} when absent, as in Zilla. */
    public static StoreType of(String yamlName)
    {
        return yamlName == null ? PKCS12 : valueOf(yamlName.toUpperCase(Locale.ROOT));
    }
}
