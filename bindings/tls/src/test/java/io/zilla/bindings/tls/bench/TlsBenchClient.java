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
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/** The bulk client of every target: one JDK SSLSocket that sends an HTTP/1.0 GET and reads the answer to its end. */
final class TlsBenchClient
{
    static final String RESPONSE_HEADER = "HTTP/1.0 200 ok\r\nContent-type: text/plain\r\n\r\n";

    private static final int BUFFER = 1024 * 1024;

    private TlsBenchClient()
    {
    }

    /** The bytes of the answer's body (after its header, as s_server -WWW and {@link SourceServer} write it). */
    static long download(SSLContext context, int port, String protocol, String request) throws IOException
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
            final InputStream in = socket.getInputStream();
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
}
