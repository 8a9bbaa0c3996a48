/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * The bulk client of every target, sending an HTTP/1.0 GET and reading the answer to its end: {@code openssl s_client}
 * (the default: a C client in its own process, whose output this JVM only counts) or one JDK SSLSocket.
 */
final class TlsBenchClient
{
    static final String RESPONSE_HEADER = "HTTP/1.0 200 ok\r\nContent-type: text/plain\r\n\r\n";

    private static final int BUFFER = 1024 * 1024;

    private TlsBenchClient()
    {
    }

    /** What one download read, and how it was protected. */
    record Download(long body, String suite)
    {
    }

    /** The bytes of the answer's body (after its header, as s_server -WWW and {@link SourceServer} write it). */
    static Download download(SSLContext context, int port, String protocol, String request) throws IOException
    {
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port))
        {
            socket.setSoTimeout(120_000);
            socket.setReceiveBufferSize(4 * BUFFER);
            final SSLParameters parameters = socket.getSSLParameters();
            parameters.setProtocols(new String[] {protocol});
            parameters.setServerNames(List.of(new SNIHostName("localhost")));
            socket.setSSLParameters(parameters);
            final OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            final long body = readBody(socket.getInputStream());
            return new Download(body, "jdk " + socket.getSession().getProtocol() + " " + socket.getSession().getCipherSuite());
        }
    }

    /** As {@link #download(SSLContext, int, String, String)}, by {@code openssl s_client -quiet}. */
    static Download downloadByOpenssl(int port, String version, String request) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder("openssl", "s_client", "-connect", "127.0.0.1:" + port, "-servername",
            "localhost", "-quiet", "TLSv1.2".equals(version) ? "-tls1_2" : "-tls1_3")
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try
        {
            final OutputStream out = process.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // stdin stays open: s_client ends when the server closes
            final long body = readBody(process.getInputStream());
            process.waitFor(60, TimeUnit.SECONDS);
            return new Download(body, "s_client " + version);
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    private static long readBody(InputStream in) throws IOException
    {
        final byte[] buffer = new byte[BUFFER];
        long body = 0;
        int matched = 0;
        boolean header = true;
        for (int read = in.read(buffer); read != -1; read = in.read(buffer))
        {
            int offset = 0;
            while (header && offset < read)
            {
                // the header ends at the first CRLF CRLF
                final byte b = buffer[offset++];
                matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
                header = matched < 4;
            }
            body += read - offset;
        }
        return body;
    }
}
