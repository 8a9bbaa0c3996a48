/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import static io.zilla.bindings.sse.stream.SsePeers.curl;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.zilla.bindings.sse.stream.SsePeers.Curl;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * curl -> zilla (tcp -> http server -> sse server -> sse client -> http client -> tcp client) -> an upstream SSE server
 * written with the JDK's HttpServer, which writes a real text/event-stream: a BOM, comments, CRLF and LF lines, a
 * retry, an event split across writes, an id alone, an event left without its blank line.
 */
class SseClientTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(SseClientTest.class);

    private final List<String> lastIds = new CopyOnWriteArrayList<>();
    private final List<String> accepts = new CopyOnWriteArrayList<>();
    private final AtomicLong endless = new AtomicLong();
    private HttpServer upstream;

    @AfterEach
    void stop()
    {
        if (upstream != null)
        {
            upstream.stop(0);
        }
    }

    @Test
    void shouldProxyAnUpstreamEventStream() throws Exception
    {
        final int port = start();
        try (Curl curl = curl("-H", "Last-Event-ID: 3", "http://127.0.0.1:" + port + "/feed/a"))
        {
            assertEquals("retry: 1500\n\n"
                + "id: 1\nevent: greet\ndata: hello\ndata: world\n\n"
                + "data: x\n\n"
                + "data:  spaced\n\n"
                + "data: \n\n"
                + "id: 5\ndata: after\n\n", curl.awaitExit());
            assertEquals(0, curl.exitValue());
        }
        assertEquals(List.of("3"), lastIds);
        assertEquals(List.of("text/event-stream"), accepts);
    }

    @Test
    void shouldAnswerTheUpstreamsError() throws Exception
    {
        final int port = start();
        try (Curl curl = curl("-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:" + port + "/feed/missing"))
        {
            assertEquals("404", curl.awaitExit());
        }
        try (Curl curl = curl("-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:" + port + "/feed/plain"))
        {
            assertEquals("502", curl.awaitExit());
        }
        try (Curl curl = curl("-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:" + port + "/other"))
        {
            assertEquals("404", curl.awaitExit());
        }
    }

    @Test
    void shouldAbortAnEventLargerThanASlot() throws Exception
    {
        final int port = start();
        try (Curl curl = curl("http://127.0.0.1:" + port + "/feed/huge"))
        {
            // the first event goes; the second outgrows its slot: the subscription aborts (curl sees a broken body)
            assertEquals("retry: 1500\n\ndata: small\n\n", curl.awaitExit());
            assertEquals(true, curl.exitValue() != 0);
        }
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (engine.events().stream().noneMatch(e -> "sse.event.overflow".equals(e.event())) && System.nanoTime() < deadline)
        {
            SsePeers.sleep(10);
        }
        assertEquals(true, engine.events().stream().anyMatch(e -> "sse.event.overflow".equals(e.event())),
            engine.events().toString());
    }

    @Test
    void shouldStopTheUpstreamOfASubscriberThatStopsReading() throws Exception
    {
        final int port = start();
        try (Socket stalled = new Socket())
        {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new InetSocketAddress("127.0.0.1", port));
            stalled.getOutputStream().write("GET /feed/endless HTTP/1.1\r\nHost: localhost\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
            // the upstream writes until its writes block: what it got written is what the sockets and zilla hold
            long written = -1;
            for (int i = 0; i < 100 && endless.get() != written; i++)
            {
                written = endless.get();
                SsePeers.sleep(300);
            }
            assertEquals(written, endless.get(), "the upstream kept writing to a subscriber that reads nothing");
            System.out.printf("an upstream wrote %d bytes for a subscriber that reads nothing%n", written);
            assertEquals(true, written > 0 && written < 32L * 1024 * 1024, "written " + written);
        }
    }

    private int start() throws IOException
    {
        final int upstreamPort = FreePorts.next();
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", upstreamPort), 0);
        upstream.createContext("/feed/a", this::feed);
        upstream.createContext("/feed/missing", exchange ->
        {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        upstream.createContext("/feed/huge", exchange ->
        {
            exchange.getResponseHeaders().add("content-type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody())
            {
                write(out, "data: small\n\n");
                write(out, "data: " + "z".repeat(70 * 1024) + "\n\n");
                SsePeers.sleep(2000);
            }
            catch (IOException ex)
            {
                // zilla closed the connection, as it should
            }
        });
        upstream.createContext("/feed/endless", exchange ->
        {
            exchange.getResponseHeaders().add("content-type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            final byte[] event = ("data: " + "w".repeat(1000) + "\n\n").getBytes(StandardCharsets.US_ASCII);
            try (OutputStream out = exchange.getResponseBody())
            {
                while (true)
                {
                    out.write(event);
                    out.flush();
                    endless.addAndGet(event.length);
                }
            }
            catch (IOException ex)
            {
                // the subscriber went
            }
        });
        upstream.createContext("/feed/plain", exchange ->
        {
            exchange.getResponseHeaders().add("content-type", "text/plain");
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("hi".getBytes(StandardCharsets.US_ASCII));
            exchange.close();
        });
        upstream.start();
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).env("UPSTREAM_PORT", Integer.toString(upstreamPort)).start("client.yaml");
        return port;
    }

    private void feed(HttpExchange exchange) throws IOException
    {
        lastIds.add(String.valueOf(exchange.getRequestHeaders().getFirst("last-event-id")));
        accepts.add(String.valueOf(exchange.getRequestHeaders().getFirst("accept")));
        exchange.getResponseHeaders().add("content-type", "text/event-stream; charset=utf-8");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody())
        {
            write(out, "\ufeff: a comment\r\nretry: 10\r\n");
            write(out, "id: 1\r\nevent: greet\r\ndata: hello\r\ndata: world\r\n\r\n");
            write(out, "da");
            write(out, "ta: x\r");
            write(out, "\n\r\n");
            write(out, "data:  spaced\n\ndata\n\n");
            write(out, "id: 5\n\n");
            write(out, "data: after\n\n");
            write(out, "data: unterminated");
        }
    }

    private static void write(OutputStream out, String text) throws IOException
    {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
        SsePeers.sleep(20);
    }
}
