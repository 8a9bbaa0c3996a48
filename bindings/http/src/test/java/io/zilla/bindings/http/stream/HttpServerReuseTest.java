/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.connect;
import static io.zilla.bindings.http.stream.HttpPeers.read;
import static io.zilla.bindings.http.stream.HttpPeers.startServer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The objects a stream reuses (the connection's exchange, the echo's servers, the engine's stream pairs) serve many
 * connections at once without cross-talk: clients open and close connections, some abruptly in the middle of a
 * request, while others send requests of random bodies, and every response carries its own request's body back.
 */
class HttpServerReuseTest
{
    private static final int CLIENTS = 8;
    private static final int CONNECTIONS = 40;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpServerReuseTest.class);

    @Test
    void shouldAnswerEachRequestWithItsOwnBodyWhileStreamsComeAndGo() throws Exception
    {
        final int port = startServer(engine, 10000).http();
        final ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try
        {
            final List<Future<Integer>> results = new ArrayList<>();
            for (int client = 0; client < CLIENTS; client++)
            {
                final long seed = client;
                results.add(clients.submit(() -> connections(port, new Random(seed))));
            }
            int answered = 0;
            for (Future<Integer> result : results)
            {
                answered += result.get(60, TimeUnit.SECONDS);
            }
            // each client's last connection carries a request after all the others' aborts: the worker is still right
            try (Socket socket = connect(port))
            {
                final byte[] body = "still answering".getBytes(StandardCharsets.US_ASCII);
                assertArrayEquals(body, request(socket, body, false, true));
            }
            System.out.printf("http reuse: %d requests answered over %d connections%n", answered, CLIENTS * CONNECTIONS);
        }
        finally
        {
            clients.shutdownNow();
        }
    }

    private static int connections(int port, Random random) throws Exception
    {
        int answered = 0;
        for (int i = 0; i < CONNECTIONS; i++)
        {
            try (Socket socket = connect(port))
            {
                final int requests = 1 + random.nextInt(12);
                for (int r = 0; r < requests; r++)
                {
                    final byte[] body = new byte[random.nextInt(4) == 0 ? random.nextInt(200_000) : random.nextInt(64)];
                    random.nextBytes(body);
                    final boolean last = r == requests - 1;
                    if (last && random.nextInt(4) == 0)
                    {
                        // the client goes away in the middle of its request body: the exit's stream is aborted
                        final OutputStream out = socket.getOutputStream();
                        out.write(("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + (body.length + 10)
                            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(body);
                        out.flush();
                        socket.setSoLinger(true, 0);
                        break;
                    }
                    final byte[] echoed = request(socket, body, random.nextBoolean(), !last || random.nextBoolean());
                    assertArrayEquals(body, echoed, "the response of request " + r + " of connection " + i);
                    answered++;
                }
            }
        }
        return answered;
    }

    /** Sends one POST of {@code body}, with a length or chunked, and returns the body of its response. */
    private static byte[] request(Socket socket, byte[] body, boolean chunked, boolean keepAlive) throws Exception
    {
        final OutputStream out = socket.getOutputStream();
        final ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(("POST /echo HTTP/1.1\r\nHost: localhost\r\n" + (keepAlive ? "" : "Connection: close\r\n")
            + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n") + "\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        if (chunked)
        {
            for (int offset = 0; offset < body.length; offset += 10_000)
            {
                final int length = Math.min(10_000, body.length - offset);
                request.writeBytes((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                request.write(body, offset, length);
                request.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            request.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        else
        {
            request.writeBytes(body);
        }
        // written while the response is read: the echo sends the body back as it comes, within the client's credit
        final CompletableFuture<Void> written = CompletableFuture.runAsync(() ->
        {
            try
            {
                out.write(request.toByteArray());
                out.flush();
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        });
        final InputStream in = socket.getInputStream();
        final HttpPeers.Response response = read(in, false);
        written.get(10, TimeUnit.SECONDS);
        assertEquals(200, response.status());
        return response.body();
    }
}
