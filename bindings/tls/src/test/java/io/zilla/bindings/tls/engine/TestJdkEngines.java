/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import java.security.GeneralSecurityException;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import io.zilla.bindings.tls.config.TlsMutual;

/**
 * The JDK peer of the OpenSSL tests: plain SSLContexts, as little as the tests need. Not the binding's JDK provider
 * (JdkTlsEngineProvider), which is built elsewhere; this one only has to be a correct, independent TLS peer.
 */
final class TestJdkEngines implements TlsEngineProvider
{
    @Override
    public String name()
    {
        return "jdk";
    }

    @Override
    public TlsServerContext newServerContext(TlsServerSettings settings) throws GeneralSecurityException
    {
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(settings.keys().getKeyManagers(),
            settings.signers() != null ? settings.signers().getTrustManagers() : null, null);
        return applicationProtocol ->
        {
            final SSLEngine engine = context.createSSLEngine();
            engine.setUseClientMode(false);
            final SSLParameters parameters = engine.getSSLParameters();
            parameters.setProtocols(protocols(settings.protocols()));
            parameters.setNeedClientAuth(settings.mutual() == TlsMutual.REQUIRED);
            if (settings.mutual() == TlsMutual.REQUESTED)
            {
                parameters.setWantClientAuth(true);
            }
            parameters.setApplicationProtocols(applicationProtocol != null ? new String[] {applicationProtocol}
                : new String[0]);
            engine.setSSLParameters(parameters);
            return engine;
        };
    }

    @Override
    public TlsClientContext newClientContext(TlsClientSettings settings) throws GeneralSecurityException
    {
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(settings.keys() != null ? settings.keys().getKeyManagers() : null,
            settings.trust().getTrustManagers(), null);
        return (serverName, port, applicationProtocols) ->
        {
            final SSLEngine engine = serverName != null ? context.createSSLEngine(serverName, port)
                : context.createSSLEngine();
            engine.setUseClientMode(true);
            final SSLParameters parameters = engine.getSSLParameters();
            parameters.setProtocols(protocols(settings.protocols()));
            parameters.setApplicationProtocols(applicationProtocols.toArray(String[]::new));
            if (serverName != null)
            {
                parameters.setServerNames(List.of(new SNIHostName(serverName)));
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
            }
            engine.setSSLParameters(parameters);
            return engine;
        };
    }

    private static String[] protocols(List<String> protocols)
    {
        return protocols.isEmpty() ? new String[] {"TLSv1.3", "TLSv1.2"} : protocols.toArray(String[]::new);
    }
}
