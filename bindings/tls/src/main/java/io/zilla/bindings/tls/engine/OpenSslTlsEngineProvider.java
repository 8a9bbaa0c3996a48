/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import java.net.IDN;
import java.security.GeneralSecurityException;
import java.security.KeyManagementException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolConfig.Protocol;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectedListenerFailureBehavior;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectorFailureBehavior;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslCachingX509KeyManagerFactory;
import io.netty.handler.ssl.OpenSslServerSessionContext;
import io.netty.handler.ssl.OpenSslSessionTicketKey;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.internal.tcnative.SSL;
import io.netty.util.NetUtil;
import io.netty.util.ReferenceCounted;
import io.zilla.bindings.tls.config.TlsMutual;

/**
 * OpenSSL's engines: BoringSSL, statically linked into netty-tcnative-boringssl-static, behind netty's
 * {@code SSLEngine} (netty-handler). The only class of the binding that names netty: {@link TlsEngineProviders}
 * loads it by name, and only when OpenSSL is chosen, so a class path without netty runs on the JDK provider.
 *
 * <p>Netty configures ALPN per {@code SSL_CTX}, not per engine, while a tls server picks the protocol of each
 * connection from its ClientHello: so a server context keeps one netty context per protocol it was asked for (made
 * on first use, then shared), and a client context one per list of protocols offered. All of a server context's
 * netty contexts share one set of session ticket keys and one session id context, so a session made under one
 * protocol resumes under another.
 *
 * <p>The engines are netty's {@code OpenSslEngine}s: they take plain {@link java.nio.ByteBuffer}s through
 * {@code wrap}/{@code unwrap}, heap or direct (heap ones are copied through pooled direct buffers that netty
 * releases within the call). Each holds a native {@code SSL} until {@link #release(SSLEngine)} or, failing that,
 * until the garbage collector finalizes it.
 */
public final class OpenSslTlsEngineProvider implements TlsEngineProvider
{
    public static final String NAME = "openssl";

    /** TLS 1.3's suites (BoringSSL always enables all three), then TLS 1.2's ECDHE with AES-GCM or ChaCha20. */
    static final List<String> DEFAULT_CIPHER_SUITES = List.of(
        "TLS_AES_128_GCM_SHA256",
        "TLS_AES_256_GCM_SHA384",
        "TLS_CHACHA20_POLY1305_SHA256",
        "ECDHE-ECDSA-AES128-GCM-SHA256",
        "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305",
        "ECDHE-RSA-CHACHA20-POLY1305");

    private static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    private static final String ENDPOINT_IDENTIFICATION = "HTTPS";

    /**
     * The most netty contexts a server or client context keeps by ALPN protocol: a binding names a few protocols, but
     * should it pass on whatever clients offer, a protocol beyond these gets a context of its own per engine (slower,
     * still right) instead of growing the cache for anyone who makes up names.
     */
    static final int MAX_CACHED_CONTEXTS = 32;

    // OpenSSL's SSL_MAX_SID_CTX_LENGTH
    private static final int SESSION_ID_CONTEXT_LENGTH = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    // pooled: an engine given heap buffers copies through a direct buffer per call, taken and released within it
    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;

    /**
     * Fails, naming why, when netty's OpenSSL cannot be used here: the native library did not load (another
     * platform, a library that would not link) or it was turned off ({@code -Dio.netty.handler.ssl.noOpenSsl=true}).
     */
    public OpenSslTlsEngineProvider()
    {
        if (!OpenSsl.isAvailable())
        {
            final Throwable cause = OpenSsl.unavailabilityCause();
            throw new IllegalStateException(String.valueOf(cause), cause);
        }
    }

    @Override
    public String name()
    {
        return NAME;
    }

    /** The library behind the engines, for the startup line: {@code BoringSSL, netty-tcnative 2.0.84.Final}. */
    public String library()
    {
        final String tcnative = SSL.class.getPackage().getImplementationVersion();
        return OpenSsl.versionString() + (tcnative != null ? ", netty-tcnative " + tcnative : "");
    }

    @Override
    public TlsServerContext newServerContext(TlsServerSettings settings) throws GeneralSecurityException
    {
        return new ServerContext(settings);
    }

    @Override
    public TlsClientContext newClientContext(TlsClientSettings settings) throws GeneralSecurityException
    {
        return new ClientContext(settings);
    }

    @Override
    public boolean resumed(SSLEngine engine, long handshakeStart)
    {
        // OpenSSL's session times are in seconds: a new session would look older than a handshake begun within its second
        return engine instanceof ReferenceCountedOpenSslEngine openssl ? SSL.isSessionReused(openssl.sslPointer())
            : TlsEngineProvider.super.resumed(engine, handshakeStart);
    }

    @Override
    public void release(SSLEngine engine)
    {
        // the last release frees the native SSL; a second call for the same engine is a no-op, not an exception
        if (engine instanceof ReferenceCounted counted && counted.refCnt() > 0)
        {
            counted.release();
        }
    }

    @Override
    public String toString()
    {
        return NAME + " (" + library() + ")";
    }

    private final class ServerContext implements TlsServerContext
    {
        private final TlsServerSettings settings;
        private final KeyManagerFactory keys;
        private final OpenSslSessionTicketKey ticketKey;
        private final byte[] sessionIdContext;
        private final SslContext withoutAlpn;
        private final ConcurrentMap<String, SslContext> byAlpn = new ConcurrentHashMap<>();

        ServerContext(TlsServerSettings settings) throws GeneralSecurityException
        {
            this.settings = settings;
            // netty otherwise re-encodes the key and its chain into native form on every handshake
            this.keys = new OpenSslCachingX509KeyManagerFactory(settings.keys());
            this.ticketKey = newTicketKey();
            this.sessionIdContext = randomBytes(SESSION_ID_CONTEXT_LENGTH);
            this.withoutAlpn = newContext(null);
        }

        @Override
        public SSLEngine newEngine(String applicationProtocol)
        {
            final SslContext context = applicationProtocol != null
                ? cached(byAlpn, applicationProtocol, this::newContextUnchecked)
                : withoutAlpn;
            return context.newEngine(allocator);
        }

        private SslContext newContextUnchecked(String applicationProtocol)
        {
            try
            {
                return newContext(applicationProtocol);
            }
            catch (GeneralSecurityException ex)
            {
                // the same settings made withoutAlpn already: only the protocol differs
                throw new IllegalStateException(ex);
            }
        }

        private SslContext newContext(String applicationProtocol) throws GeneralSecurityException
        {
            final TlsMutual mutual = settings.mutual() != null ? settings.mutual() : TlsMutual.NONE;
            final SslContextBuilder builder = SslContextBuilder.forServer(keys)
                .sslProvider(SslProvider.OPENSSL)
                .protocols(protocols(settings.protocols()))
                .ciphers(cipherSuites(settings.cipherSuites()))
                .clientAuth(clientAuth(mutual));
            if (settings.signers() != null)
            {
                builder.trustManager(settings.signers());
            }
            if (applicationProtocol != null)
            {
                // the binding chose it from the client's offer: NO_ADVERTISE answers without ALPN, not with an alert,
                // should the client not offer it after all
                builder.applicationProtocolConfig(new ApplicationProtocolConfig(Protocol.ALPN,
                    SelectorFailureBehavior.NO_ADVERTISE, SelectedListenerFailureBehavior.ACCEPT, applicationProtocol));
            }
            final SslContext context = build(builder);
            final OpenSslServerSessionContext sessions = (OpenSslServerSessionContext) context.sessionContext();
            // tickets are off in netty until keys are set; and netty salts each context's session id context at
            // random, so that OpenSSL resumes no session in a context other than its own: share both
            sessions.setTicketKeys(ticketKey);
            if (!sessions.setSessionIdContext(sessionIdContext))
            {
                throw new KeyManagementException("cannot set the session id context: " + SSL.getLastError());
            }
            return context;
        }
    }

    private final class ClientContext implements TlsClientContext
    {
        private final TlsClientSettings settings;
        private final KeyManagerFactory keys;
        private final SslContext withoutAlpn;
        private final ConcurrentMap<List<String>, SslContext> byAlpn = new ConcurrentHashMap<>();

        ClientContext(TlsClientSettings settings) throws GeneralSecurityException
        {
            this.settings = settings;
            this.keys = settings.keys() != null ? new OpenSslCachingX509KeyManagerFactory(settings.keys()) : null;
            this.withoutAlpn = newContext(List.of());
        }

        @Override
        public SSLEngine newEngine(String serverName, int port, List<String> applicationProtocols)
        {
            final SslContext context = applicationProtocols == null || applicationProtocols.isEmpty()
                ? withoutAlpn
                : cached(byAlpn, List.copyOf(applicationProtocols), this::newContextUnchecked);
            if (serverName == null)
            {
                return context.newEngine(allocator);
            }
            // host and port key netty's client session cache, for resumption
            final SSLEngine engine = context.newEngine(allocator, serverName, port);
            final SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm(ENDPOINT_IDENTIFICATION);
            if (!NetUtil.isValidIpV4Address(serverName) && !NetUtil.isValidIpV6Address(serverName))
            {
                // named explicitly: netty sends on its own only names with a dot, and an IP address is no SNI
                parameters.setServerNames(List.of(new SNIHostName(IDN.toASCII(serverName))));
            }
            engine.setSSLParameters(parameters);
            return engine;
        }

        private SslContext newContextUnchecked(List<String> applicationProtocols)
        {
            try
            {
                return newContext(applicationProtocols);
            }
            catch (GeneralSecurityException ex)
            {
                throw new IllegalStateException(ex);
            }
        }

        private SslContext newContext(List<String> applicationProtocols) throws GeneralSecurityException
        {
            final SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(SslProvider.OPENSSL)
                .keyManager(keys)
                .trustManager(settings.trust())
                .protocols(protocols(settings.protocols()))
                .ciphers(cipherSuites(settings.cipherSuites()))
                // per engine instead: only engines given a server name can check the certificate against it
                .endpointIdentificationAlgorithm(null);
            if (!applicationProtocols.isEmpty())
            {
                builder.applicationProtocolConfig(new ApplicationProtocolConfig(Protocol.ALPN,
                    SelectorFailureBehavior.NO_ADVERTISE, SelectedListenerFailureBehavior.ACCEPT, applicationProtocols));
            }
            return build(builder);
        }
    }

    private static <K> SslContext cached(ConcurrentMap<K, SslContext> contexts, K key, Function<K, SslContext> factory)
    {
        // get first: computeIfAbsent may lock its bin even when the key is there
        SslContext context = contexts.get(key);
        if (context == null)
        {
            context = contexts.size() < MAX_CACHED_CONTEXTS ? contexts.computeIfAbsent(key, factory) : factory.apply(key);
        }
        return context;
    }

    private static SslContext build(SslContextBuilder builder) throws GeneralSecurityException
    {
        try
        {
            return builder.build();
        }
        catch (SSLException | IllegalArgumentException ex)
        {
            // an unknown cipher suite, a key OpenSSL cannot use...: refused where the binding attaches
            throw new KeyManagementException(ex.getMessage(), ex);
        }
    }

    private static List<String> protocols(List<String> configured) throws GeneralSecurityException
    {
        if (configured == null || configured.isEmpty())
        {
            return PROTOCOLS;
        }
        final List<String> protocols = new ArrayList<>();
        for (String protocol : configured)
        {
            if (!PROTOCOLS.contains(protocol))
            {
                throw new KeyManagementException("unsupported protocol " + protocol + " (supported: " + PROTOCOLS + ")");
            }
            protocols.add(protocol);
        }
        return protocols;
    }

    private static List<String> cipherSuites(List<String> configured)
    {
        return configured == null || configured.isEmpty() ? DEFAULT_CIPHER_SUITES : configured;
    }

    private static ClientAuth clientAuth(TlsMutual mutual)
    {
        return switch (mutual)
        {
            case NONE -> ClientAuth.NONE;
            case REQUESTED -> ClientAuth.OPTIONAL;
            case REQUIRED -> ClientAuth.REQUIRE;
        };
    }

    private static OpenSslSessionTicketKey newTicketKey()
    {
        return new OpenSslSessionTicketKey(randomBytes(OpenSslSessionTicketKey.NAME_SIZE),
            randomBytes(OpenSslSessionTicketKey.HMAC_KEY_SIZE), randomBytes(OpenSslSessionTicketKey.AES_KEY_SIZE));
    }

    private static byte[] randomBytes(int length)
    {
        final byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
