/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem.config;

import java.nio.file.Path;

/**
 * One of {@code keys}, {@code trust} or {@code signers}, as zilla.yaml says it.
 *
 * @param section  {@code keys}, {@code trust} or {@code signers}: where errors point
 * @param store    the file or directory, resolved against the zilla.yaml's directory
 * @param type     its format
 * @param password its password, or null; never printed
 */
public record StoreConfig(String section, Path store, StoreType type, String password)
{
    /** The password as the JDK takes it: null when none was given. */
    public char[] passwordChars()
    {
        return password != null ? password.toCharArray() : null;
    }

    @Override
    public String toString()
    {
        // a record would print the password
        return section + " " + type.yamlName() + " " + store + (password != null ? " (with a password)" : "");
    }
}
