/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Real TLS peers for the proxy tests: a self-signed key made by keytool when the tests start (never committed),
 * TLS servers made with the JDK, JDK and openssl clients, and a plain relay that trickles bytes one at a time.
 */
final class TlsPeers
{
    static final String LOOPBACK = "127.0.0.1";
    static final char[] PASSWORD = "changeit".toCharArray();

    private TlsPeers()
    {
    }

    /** A PKCS12 key store holding one fresh self-signed EC key for localhost, made by the JDK's keytool. */
    static TlsKeys selfSigned(Path directory) throws Exception
    {
        final Path store = directory.resolve("test.p12");
        final String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        final Process process = new ProcessBuilder(keytool, "-genkeypair", "-alias", "test", "-keyalg", "EC",
            "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "san=dns:localhost", "-validity", "2",
            "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", new String(PASSWORD))
            .redirectErrorStream(true)
            .start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            throw new IllegalStateException("keytool failed: " + output);
        }
        final KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store))
        {
            keys.load(in, PASSWORD);
        }
        final KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, PASSWORD);
        final TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(keys);
        return new TlsKeys(keyManagers.getKeyManagers(), trustManagers.getTrustManagers());
    }

    /**
     * The test key, as the JDK's managers. Every connection gets its own SSLContext: all the backends share the key,
     * so a client that kept sessions would resume one backend's session at another.
     */
    record TlsKeys(KeyManager[] keyManagers, TrustManager[] trustManagers)
    {
        SSLContext freshContext()
        {
            try
            {
                final SSLContext context = SSLContext.getInstance("TLS");
                context.init(keyManagers, trustManagers, null);
                return context;
            }
            catch (GeneralSecurityException ex)
            {
                throw new IllegalStateException(ex);
            }
        }
    }

    /**
     * A TLS server that greets each connection with {@code <name> sni=<server name> alpn=<protocol>\n} and then
     * echoes whatever it receives.
     */
    static final class Backend implements AutoCloseable
    {
        private final String name;
        private final SSLServerSocket server;
        private final List<Socket> accepted = new ArrayList<>();
        private final Thread acceptor;

        Backend(TlsKeys keys, String name) throws IOException
        {
            this.name = name;
            this.server = (SSLServerSocket) keys.freshContext().getServerSocketFactory().createServerSocket(0, 50,
                InetAddress.getByName(LOOPBACK));
            final SSLParameters parameters = server.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2", "http/1.1"});
            server.setSSLParameters(parameters);
            this.acceptor = new Thread(this::accept, "backend-" + name);
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port()
        {
            return server.getLocalPort();
        }

        private void accept()
        {
            try
            {
                while (true)
                {
                    final SSLSocket socket = (SSLSocket) server.accept();
                    synchronized (accepted)
                    {
                        accepted.add(socket);
                    }
                    final Thread serve = new Thread(() -> serve(socket), "backend-" + name + "-connection");
                    serve.setDaemon(true);
                    serve.start();
                }
            }
            catch (IOException ex)
            {
                // closed
            }
        }

        private void serve(SSLSocket socket)
        {
            try (socket)
            {
                socket.startHandshake();
                final List<SNIServerName> names = ((ExtendedSSLSession) socket.getSession()).getRequestedServerNames();
                final String sni = names.isEmpty() ? "-" : ((SNIHostName) names.get(0)).getAsciiName();
                final String alpn = socket.getApplicationProtocol() == null || socket.getApplicationProtocol().isEmpty()
                    ? "-" : socket.getApplicationProtocol();
                final OutputStream out = socket.getOutputStream();
                out.write((name + " sni=" + sni + " alpn=" + alpn + "\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                final InputStream in = socket.getInputStream();
                final byte[] buffer = new byte[16384];
                for (int read = in.read(buffer); read != -1; read = in.read(buffer))
                {
                    out.write(buffer, 0, read);
                }
                socket.shutdownOutput();
            }
            catch (IOException ex)
            {
                // the client went away
            }
        }

        @Override
        public void close() throws IOException
        {
            server.close();
            synchronized (accepted)
            {
                for (Socket socket : accepted)
                {
                    socket.close();
                }
            }
        }
    }

    /** A JDK TLS client connected through the proxy, handshake done. */
    static SSLSocket connect(TlsKeys keys, int port, String serverName, String... protocols) throws IOException
    {
        final SSLSocket socket = (SSLSocket) keys.freshContext().getSocketFactory().createSocket(LOOPBACK, port);
        socket.setSoTimeout(20_000);
        final SSLParameters parameters = socket.getSSLParameters();
        if (serverName != null)
        {
            parameters.setServerNames(List.of(new SNIHostName(serverName)));
        }
        if (protocols.length > 0)
        {
            parameters.setApplicationProtocols(protocols);
        }
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    /** Connects with the JDK, returns the backend's greeting line and closes. */
    static String greeting(TlsKeys keys, int port, String serverName, String... protocols) throws IOException
    {
        try (SSLSocket socket = connect(keys, port, serverName, protocols))
        {
            return readLine(socket.getInputStream());
        }
    }

    static String readLine(InputStream in) throws IOException
    {
        final ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != -1 && b != '\n'; b = in.read())
        {
            line.write(b);
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    /** The output of {@code openssl s_client} run against the proxy: stdout, then stderr, then the exit code. */
    static String[] openssl(int port, String serverName, String alpn) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", LOOPBACK + ":" + port,
            "-quiet", "-no_ign_eof"));
        if (serverName != null)
        {
            command.addAll(List.of("-servername", serverName));
        }
        else
        {
            command.add("-noservername");
        }
        if (alpn != null)
        {
            command.addAll(List.of("-alpn", alpn));
        }
        final Process process = new ProcessBuilder(command).start();
        final CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> firstLine(process.getInputStream()));
        final CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> all(process.getErrorStream()));
        try
        {
            final String line = stdout.get(20, TimeUnit.SECONDS);
            // the backend answered (or the proxy closed): close stdin so that s_client ends
            process.getOutputStream().close();
            if (!process.waitFor(20, TimeUnit.SECONDS))
            {
                process.destroyForcibly().waitFor();
            }
            return new String[] {line, stderr.get(20, TimeUnit.SECONDS), String.valueOf(process.exitValue())};
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    private static String firstLine(InputStream in)
    {
        try
        {
            final String line = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII)).readLine();
            return line != null ? line : "";
        }
        catch (IOException ex)
        {
            return "";
        }
    }

    private static String all(InputStream in)
    {
        try
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex)
        {
            return ex.toString();
        }
    }

    /**
     * A plain TCP relay in front of the proxy that passes the client's first {@code trickle} bytes one byte per
     * write, with a pause after each, so that the proxy sees them in as many Data frames; the rest and the other
     * direction pass in bulk.
     */
    static final class TrickleRelay implements AutoCloseable
    {
        private final ServerSocket server;
        private final int target;
        private final int trickle;
        private final List<Socket> sockets = new ArrayList<>();

        TrickleRelay(int target, int trickle) throws IOException
        {
            this.server = new ServerSocket(0, 50, InetAddress.getByName(LOOPBACK));
            this.target = target;
            this.trickle = trickle;
            final Thread acceptor = new Thread(this::accept, "trickle-relay");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port()
        {
            return server.getLocalPort();
        }

        private void accept()
        {
            try
            {
                while (true)
                {
                    final Socket client = server.accept();
                    final Socket proxy = new Socket(LOOPBACK, target);
                    proxy.setTcpNoDelay(true);
                    synchronized (sockets)
                    {
                        sockets.add(client);
                        sockets.add(proxy);
                    }
                    start(() -> copy(client, proxy, trickle));
                    start(() -> copy(proxy, client, 0));
                }
            }
            catch (IOException ex)
            {
                // closed
            }
        }

        private static void start(Runnable task)
        {
            final Thread thread = new Thread(task, "trickle-relay-copy");
            thread.setDaemon(true);
            thread.start();
        }

        private static void copy(Socket from, Socket to, int trickle)
        {
            try
            {
                final InputStream in = from.getInputStream();
                final OutputStream out = to.getOutputStream();
                final byte[] buffer = new byte[16384];
                int left = trickle;
                for (int read = in.read(buffer); read != -1; read = in.read(buffer))
                {
                    int offset = 0;
                    for (; offset < read && left > 0; offset++, left--)
                    {
                        out.write(buffer[offset]);
                        out.flush();
                        Thread.sleep(1);
                    }
                    out.write(buffer, offset, read - offset);
                    out.flush();
                }
                to.shutdownOutput();
            }
            catch (IOException | InterruptedException ex)
            {
                try
                {
                    to.close();
                }
                catch (IOException closed)
                {
                    // closing anyway
                }
            }
        }

        @Override
        public void close() throws IOException
        {
            server.close();
            synchronized (sockets)
            {
                for (Socket socket : sockets)
                {
                    socket.close();
                }
            }
        }
    }

    /** Reads a byte, treating a reset like the end of stream: a refused connection may be closed either way. */
    static int readOrEnd(InputStream in) throws IOException
    {
        try
        {
            return in.read();
        }
        catch (SocketException ex)
        {
            return -1;
        }
    }
}
