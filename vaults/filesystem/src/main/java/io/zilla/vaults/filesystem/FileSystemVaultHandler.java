/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem;

import java.security.GeneralSecurityException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

import io.zilla.engine.vault.VaultHandler;
import io.zilla.vaults.filesystem.config.FileSystemOptionsConfig;
import io.zilla.vaults.filesystem.store.StoreContents;

/** A filesystem vault's loaded stores, as the factories of an SSLContext. */
final class FileSystemVaultHandler implements VaultHandler
{
    // PKIX rather than SunX509: it chooses among several keys by the handshake's key type and algorithm constraints
    private static final String ALGORITHM = "PKIX";
    private static final int SUBJECT_ALT_NAME_DNS = 2;

    private final String name;
    private final FileSystemOptionsConfig options;
    private final Map<String, List<String>> keyNames;

    FileSystemVaultHandler(String name, FileSystemOptionsConfig options)
    {
        this.name = name;
        this.options = options;
        this.keyNames = options.keys() != null ? names(options.keys()) : Map.of();
    }

    @Override
    public KeyManagerFactory keys(List<String> aliases)
    {
        final StoreContents keys = options.keys();
        if (keys == null)
        {
            return null;
        }
        try
        {
            final KeyManagerFactory factory = KeyManagerFactory.getInstance(ALGORITHM);
            factory.init(keys.select(name, aliases), keys.entryPassword());
            return factory;
        }
        catch (GeneralSecurityException ex)
        {
            throw new IllegalStateException("vault '" + name + "': cannot use its keys: " + ex.getMessage(), ex);
        }
    }

    @Override
    public TrustManagerFactory trust(List<String> aliases)
    {
        return trustManagers(options.trust(), aliases);
    }

    @Override
    public TrustManagerFactory signers(List<String> aliases)
    {
        return trustManagers(options.signers(), aliases);
    }

    @Override
    public Map<String, List<String>> keyNames()
    {
        return keyNames;
    }

    private TrustManagerFactory trustManagers(StoreContents certificates, List<String> aliases)
    {
        if (certificates == null)
        {
            return null;
        }
        try
        {
            final TrustManagerFactory factory = TrustManagerFactory.getInstance(ALGORITHM);
            factory.init(certificates.select(name, aliases));
            return factory;
        }
        catch (GeneralSecurityException ex)
        {
            throw new IllegalStateException("vault '" + name + "': cannot use its " + certificates.section() + ": "
                + ex.getMessage(), ex);
        }
    }

    private static Map<String, List<String>> names(StoreContents keys)
    {
        final Map<String, List<String>> names = new LinkedHashMap<>();
        for (String alias : keys.aliases())
        {
            names.put(alias, dnsNames(keys.certificate(alias)));
        }
        return Collections.unmodifiableMap(names);
    }

    /** The subject's CN, then each subjectAltName of type DNS. */
    static List<String> dnsNames(X509Certificate certificate)
    {
        final Set<String> names = new LinkedHashSet<>();
        try
        {
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns())
            {
                if ("CN".equalsIgnoreCase(rdn.getType()))
                {
                    names.add(rdn.getValue().toString());
                }
            }
        }
        catch (InvalidNameException ex)
        {
            // an RFC 2253 name from the JDK always parses; without a CN, the subjectAltNames still count
        }
        try
        {
            final Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
            for (List<?> alternative : alternatives != null ? alternatives : List.<List<?>>of())
            {
                if (alternative.get(0) instanceof Integer type && type == SUBJECT_ALT_NAME_DNS)
                {
                    names.add(alternative.get(1).toString());
                }
            }
        }
        catch (CertificateParsingException ex)
        {
            // an extension the JDK cannot parse: keep the CN
        }
        return List.copyOf(names);
    }
}
