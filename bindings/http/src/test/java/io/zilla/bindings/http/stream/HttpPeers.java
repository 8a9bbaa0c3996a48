/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;

/** A raw HTTP/1.1 peer for tests: it writes requests as bytes and reads responses as the bytes say. */
final class HttpPeers
{
    static final String LOOPBACK = "127.0.0.1";

    private HttpPeers()
    {
    }

    static int freePort() throws IOException
    {
        return FreePorts.next();
    }

    /** The ports of server.yaml once started: the plain http server's and the cross-origin one's. */
    record Ports(int http, int cors)
    {
    }

    /** Starts server.yaml on free ports with the given header timeout. */
    static Ports startServer(EngineExtension engine, int headerTimeout) throws IOException
    {
        final Ports ports = new Ports(freePort(), freePort());
        engine.env("PORT", Integer.toString(ports.http()))
            .env("CORS_PORT", Integer.toString(ports.cors()))
            .env("HEADER_TIMEOUT", Integer.toString(headerTimeout))
            .start("server.yaml");
        return ports;
    }

    static Socket connect(int port) throws IOException
    {
        final Socket socket = new Socket(LOOPBACK, port);
        socket.setSoTimeout(10_000);
        return socket;
    }

    static void write(Socket socket, String text) throws IOException
    {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    /** One response: its status, its headers (names in lower case, last value wins) and its body, de-chunked. */
    record Response(int status, String statusLine, Map<String, String> headers, byte[] body)
    {
        String text()
        {
            return new String(body, StandardCharsets.ISO_8859_1);
        }

        String header(String name)
        {
            return headers.get(name);
        }
    }

    /** Reads one response; {@code head} says it answers a HEAD request (no body whatever the headers say). */
    static Response read(InputStream in, boolean head) throws IOException
    {
        final String statusLine = line(in);
        if (statusLine == null)
        {
            return null;
        }
        final Map<String, String> headers = new LinkedHashMap<>();
        for (String line = line(in); line != null && !line.isEmpty(); line = line(in))
        {
            final int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        final int status = Integer.parseInt(statusLine.split(" ")[1]);
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (head || status < 200 || status == 204 || status == 304)
        {
            return new Response(status, statusLine, headers, body.toByteArray());
        }
        if ("chunked".equals(headers.get("transfer-encoding")))
        {
            while (true)
            {
                final int size = Integer.parseInt(line(in).split(";")[0].trim(), 16);
                if (size == 0)
                {
                    for (String line = line(in); line != null && !line.isEmpty(); line = line(in))
                    {
                        final int colon = line.indexOf(':');
                        headers.put("trailer:" + line.substring(0, colon).toLowerCase(Locale.ROOT),
                            line.substring(colon + 1).trim());
                    }
                    break;
                }
                body.write(in.readNBytes(size));
                line(in);
            }
        }
        else if (headers.containsKey("content-length"))
        {
            body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
        }
        else
        {
            body.write(in.readAllBytes());
        }
        return new Response(status, statusLine, headers, body.toByteArray());
    }

    static Response read(Socket socket) throws IOException
    {
        return read(socket.getInputStream(), false);
    }

    /** Whether the server closed the connection: the next read sees the end of the stream. */
    static boolean closed(Socket socket) throws IOException
    {
        try
        {
            return socket.getInputStream().read() == -1;
        }
        catch (java.net.SocketException ex)
        {
            // reset by the server: closed too
            return true;
        }
    }

    private static String line(InputStream in) throws IOException
    {
        final StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != -1)
        {
            if (b == '\n')
            {
                final int length = line.length();
                return length > 0 && line.charAt(length - 1) == '\r' ? line.substring(0, length - 1) : line.toString();
            }
            line.append((char) b);
        }
        return line.isEmpty() ? null : line.toString();
    }

    /** Waits (10 s at most) until something listens on {@code port} of the loopback address. */
    static void awaitListening(int port) throws Exception
    {
        for (int i = 0; i < 200; i++)
        {
            try (java.net.Socket socket = new java.net.Socket(LOOPBACK, port))
            {
                return;
            }
            catch (IOException ex)
            {
                Thread.sleep(50);
            }
        }
        throw new AssertionError("nothing started listening on " + port);
    }
}
