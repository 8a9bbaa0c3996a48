/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.vaults.filesystem;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/** A real TLS handshake between two JDK sockets over 127.0.0.1, each side built from a vault's factories. */
final class Handshakes
{
    private static final int TIMEOUT_MILLIS = 10_000;

    /** What each side saw of the other once the handshake was done. */
    record Result(Principal serverSeen, Principal clientSeen, String protocol)
    {
    }

    private Handshakes()
    {
    }

    static SSLContext context(KeyManagerFactory keys, TrustManagerFactory trust) throws GeneralSecurityException
    {
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys != null ? keys.getKeyManagers() : null, trust != null ? trust.getTrustManagers() : null, null);
        return context;
    }

    /**
     * The client connects to {@code localhost} and checks that the server's certificate is for it (HTTPS endpoint
     * identification); the server asks for the client's certificate when {@code needClientAuth}.
     *
     * @throws IOException when either side refuses the handshake
     */
    static Result handshake(SSLContext server, boolean needClientAuth, SSLContext client) throws Exception
    {
        final ExecutorService acceptor = Executors.newSingleThreadExecutor();
        try (SSLServerSocket listening = (SSLServerSocket) server.getServerSocketFactory()
            .createServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            listening.setNeedClientAuth(needClientAuth);
            listening.setSoTimeout(TIMEOUT_MILLIS);
            final Future<Principal> accepted = acceptor.submit(() ->
            {
                try (SSLSocket socket = (SSLSocket) listening.accept())
                {
                    socket.setSoTimeout(TIMEOUT_MILLIS);
                    socket.startHandshake();
                    // the client's byte, echoed: the session carries data both ways
                    socket.getOutputStream().write(socket.getInputStream().read());
                    return needClientAuth ? socket.getSession().getPeerPrincipal() : null;
                }
            });

            final Principal clientSeen;
            final String protocol;
            try (Socket plain = new Socket())
            {
                plain.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), listening.getLocalPort()), TIMEOUT_MILLIS);
                plain.setSoTimeout(TIMEOUT_MILLIS);
                try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(plain, "localhost",
                    listening.getLocalPort(), true))
                {
                    final SSLParameters parameters = socket.getSSLParameters();
                    parameters.setEndpointIdentificationAlgorithm("HTTPS");
                    socket.setSSLParameters(parameters);
                    socket.startHandshake();
                    socket.getOutputStream().write(42);
                    final int echoed = socket.getInputStream().read();
                    if (echoed != 42)
                    {
                        throw new IOException("the server echoed " + echoed + ", not 42");
                    }
                    clientSeen = socket.getSession().getPeerPrincipal();
                    protocol = socket.getSession().getProtocol();
                }
            }
            // once the client has closed: the server's close waits for the client's close_notify
            return new Result(accepted.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), clientSeen, protocol);
        }
        finally
        {
            acceptor.shutdownNow();
            acceptor.awaitTermination(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        }
    }
}
