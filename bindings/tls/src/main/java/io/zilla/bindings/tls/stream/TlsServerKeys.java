/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.TrustManagerFactory;

import io.zilla.bindings.tls.config.TlsMutual;
import io.zilla.bindings.tls.config.TlsOptionsConfig;
import io.zilla.bindings.tls.engine.TlsEngineProvider;
import io.zilla.bindings.tls.engine.TlsServerContext;
import io.zilla.bindings.tls.engine.TlsServerSettings;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.vault.VaultHandler;

/**
 * The server contexts of one tls server binding, one per key it presents, and how a ClientHello's server name
 * chooses among them: the key whose certificate names it exactly, then one whose certificate names
 * {@code *.<the rest>}, else the first of {@code options.keys}. Immutable, shared by the binding's workers.
 */
final class TlsServerKeys
{
    private final Map<String, TlsServerContext> byName;
    private final TlsServerContext fallback;
    private final TlsMutual mutual;

    private TlsServerKeys(Map<String, TlsServerContext> byName, TlsServerContext fallback, TlsMutual mutual)
    {
        this.byName = byName;
        this.fallback = fallback;
        this.mutual = mutual;
    }

    /** The context whose key suits {@code serverName} (null: none was sent), or the first key's. */
    TlsServerContext select(String serverName)
    {
        TlsServerContext context = null;
        if (serverName != null)
        {
            final String name = serverName.toLowerCase(Locale.ROOT);
            context = byName.get(name);
            final int dot = name.indexOf('.');
            if (context == null && dot > 0)
            {
                context = byName.get("*" + name.substring(dot));
            }
        }
        return context != null ? context : fallback;
    }

    TlsMutual mutual()
    {
        return mutual;
    }

    /**
     * Makes the contexts of a tls server binding, when it attaches.
     *
     * @throws IllegalArgumentException naming the binding when its vault or keys are missing
     */
    static TlsServerKeys of(TlsEngineProvider provider, BindingConfig binding, VaultHandler vault)
        throws GeneralSecurityException
    {
        final TlsOptionsConfig options = binding.options() instanceof TlsOptionsConfig tls ? tls
            : new TlsOptionsConfig(null, null, null, null, null, null, null, null);
        if (vault == null)
        {
            throw new IllegalArgumentException("bindings." + binding.name() + ": a tls server needs a vault with its keys");
        }
        final Map<String, List<String>> keyNames = vault.keyNames();
        final List<String> aliases = options.keys().isEmpty() ? new ArrayList<>(keyNames.keySet()) : options.keys();
        if (aliases.isEmpty())
        {
            throw new IllegalArgumentException("bindings." + binding.name() + ": vault '" + binding.vault()
                + "' holds no keys");
        }

        // Zilla's rule: the client's certificate is checked against signers (or trust), and then required by default
        TrustManagerFactory signers = null;
        if (!options.signers().isEmpty())
        {
            signers = vault.signers(options.signers());
        }
        else if (!options.trust().isEmpty())
        {
            signers = vault.trust(options.trust());
        }
        final TlsMutual mutual = options.mutual() != null ? options.mutual()
            : signers != null ? TlsMutual.REQUIRED : TlsMutual.NONE;
        if (mutual != TlsMutual.NONE && signers == null)
        {
            throw new IllegalArgumentException("bindings." + binding.name() + ": mutual " + mutual.yamlName()
                + " needs signers (or trust) to check client certificates against");
        }
        final List<String> protocols = options.version() != null ? List.of(options.version()) : List.of();

        final Map<String, TlsServerContext> byName = new LinkedHashMap<>();
        TlsServerContext first = null;
        for (String alias : aliases)
        {
            final TlsServerContext context = provider.newServerContext(
                new TlsServerSettings(TlsKeySnapshot.of(vault.keys(List.of(alias))), signers, mutual, protocols, List.of()));
            first = first != null ? first : context;
            for (String name : keyNames.getOrDefault(alias, List.of()))
            {
                byName.putIfAbsent(name.toLowerCase(Locale.ROOT), context);
            }
        }
        return new TlsServerKeys(Map.copyOf(byName), first, mutual);
    }
}
