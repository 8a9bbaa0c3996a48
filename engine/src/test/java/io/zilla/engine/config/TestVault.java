/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.net.URL;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.vault.Vault;
import io.zilla.engine.vault.VaultFactorySpi;
import io.zilla.engine.vault.VaultHandler;

/**
 * A vault type for engine tests: its options name a {@code file}, resolved against the zilla.yaml's directory; a
 * file named {@code missing} is refused at {@code options.file}, as a vault refuses a store it cannot load.
 */
public final class TestVault implements Vault, VaultFactorySpi
{
    private final String type;

    public TestVault(String type)
    {
        this.type = type;
    }

    /** A vault's bound options: the file, resolved. */
    public record FileOptions(Path file) implements OptionsConfig
    {
    }

    /** The handler of a vault: it has nothing but its name and options. */
    public record Handler(ComponentConfig vault) implements VaultHandler
    {
        @Override
        public KeyManagerFactory keys(List<String> aliases)
        {
            return null;
        }

        @Override
        public TrustManagerFactory trust(List<String> aliases)
        {
            return null;
        }

        @Override
        public TrustManagerFactory signers(List<String> aliases)
        {
            return null;
        }

        @Override
        public Map<String, List<String>> keyNames()
        {
            return Map.of();
        }
    }

    @Override
    public String type()
    {
        return type;
    }

    @Override
    public Vault create(EngineConfiguration configuration)
    {
        return this;
    }

    @Override
    public URL schema()
    {
        return TestVault.class.getResource("/io/zilla/engine/config/" + type + ".schema.json");
    }

    @Override
    public OptionsConfig options(JsonNode options, Path directory)
    {
        final String file = options.path("file").textValue();
        if ("missing".equals(file))
        {
            throw new ConfigValueException("file", "'" + directory.resolve(file) + "' does not exist");
        }
        return new FileOptions(directory.resolve(file));
    }

    @Override
    public VaultHandler attach(ComponentConfig vault)
    {
        return new Handler(vault);
    }
}
