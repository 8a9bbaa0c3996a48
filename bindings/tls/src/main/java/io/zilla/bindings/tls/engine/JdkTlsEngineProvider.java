/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import io.zilla.bindings.tls.config.TlsMutual;

/**
 * The JDK's own TLS ({@code SSLContext.getInstance("TLS")}, SunJSSE). One SSLContext per server key or per client
 * binding: it holds the session cache (and TLS 1.3 session tickets are sealed with its keys), so that a session
 * resumes on whichever worker the client's next connection lands.
 */
public final class JdkTlsEngineProvider implements TlsEngineProvider
{
    /** The versions spoken when {@code options.version} does not narrow them. */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /**
     * The modern default: the TLS 1.3 suites, and for TLS 1.2 only ECDHE (forward secrecy) with an AEAD cipher
     * (AES-GCM, ChaCha20-Poly1305): no CBC, no RSA key exchange, no SHA-1.
     */
    public static final List<String> DEFAULT_CIPHER_SUITES = List.of(
        "TLS_AES_128_GCM_SHA256",
        "TLS_AES_256_GCM_SHA384",
        "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    private static final Set<String> SUPPORTED_PROTOCOLS = Set.copyOf(DEFAULT_PROTOCOLS);

    @Override
    public String name()
    {
        return "jdk";
    }

    @Override
    public TlsServerContext newServerContext(TlsServerSettings settings) throws GeneralSecurityException
    {
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(settings.keys() != null ? settings.keys().getKeyManagers() : null,
            settings.signers() != null ? settings.signers().getTrustManagers() : null, null);
        final String[] protocols = protocols(settings.protocols());
        final String[] cipherSuites = cipherSuites(context, settings.cipherSuites());
        final TlsMutual mutual = settings.mutual() != null ? settings.mutual() : TlsMutual.NONE;
        return applicationProtocol ->
        {
            final SSLEngine engine = context.createSSLEngine();
            engine.setUseClientMode(false);
            final SSLParameters parameters = engine.getSSLParameters();
            parameters.setProtocols(protocols);
            parameters.setCipherSuites(cipherSuites);
            parameters.setUseCipherSuitesOrder(true);
            switch (mutual)
            {
                case REQUIRED -> parameters.setNeedClientAuth(true);
                case REQUESTED -> parameters.setWantClientAuth(true);
                default ->
                {
                    // no CertificateRequest
                }
            }
            engine.setSSLParameters(parameters);
            // the binding chose the protocol from the ClientHello before the engine existed; "" answers without ALPN
            final String selected = applicationProtocol != null ? applicationProtocol : "";
            engine.setHandshakeApplicationProtocolSelector((e, offered) -> offered.contains(selected) ? selected : "");
            return engine;
        };
    }

    @Override
    public TlsClientContext newClientContext(TlsClientSettings settings) throws GeneralSecurityException
    {
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(settings.keys() != null ? settings.keys().getKeyManagers() : null,
            settings.trust() != null ? settings.trust().getTrustManagers() : null, null);
        final String[] protocols = protocols(settings.protocols());
        final String[] cipherSuites = cipherSuites(context, settings.cipherSuites());
        return (serverName, port, applicationProtocols) ->
        {
            // with a peer host and port the context keeps the session for resumption under them
            final SSLEngine engine = serverName != null ? context.createSSLEngine(serverName, port) : context.createSSLEngine();
            engine.setUseClientMode(true);
            final SSLParameters parameters = engine.getSSLParameters();
            parameters.setProtocols(protocols);
            parameters.setCipherSuites(cipherSuites);
            if (serverName != null)
            {
                parameters.setServerNames(List.of(new SNIHostName(serverName)));
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
            }
            if (applicationProtocols != null && !applicationProtocols.isEmpty())
            {
                parameters.setApplicationProtocols(applicationProtocols.toArray(String[]::new));
            }
            engine.setSSLParameters(parameters);
            return engine;
        };
    }

    private static String[] protocols(List<String> requested)
    {
        final List<String> protocols = requested == null || requested.isEmpty() ? DEFAULT_PROTOCOLS : requested;
        for (String protocol : protocols)
        {
            if (!SUPPORTED_PROTOCOLS.contains(protocol))
            {
                throw new IllegalArgumentException("TLS version " + protocol + " is not supported (" + DEFAULT_PROTOCOLS
                    + ")");
            }
        }
        return protocols.toArray(String[]::new);
    }

    private static String[] cipherSuites(SSLContext context, List<String> requested)
    {
        final List<String> supported = Arrays.asList(context.getSupportedSSLParameters().getCipherSuites());
        final List<String> wanted = requested == null || requested.isEmpty() ? DEFAULT_CIPHER_SUITES : requested;
        final String[] suites = wanted.stream().filter(supported::contains).toArray(String[]::new);
        if (suites.length == 0)
        {
            throw new IllegalArgumentException("none of the cipher suites " + wanted + " is supported by the JDK");
        }
        return suites;
    }
}
