/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.filesystem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A static site end to end, with real peers (curl and the JDK HttpClient): tcp server -> http server ->
 * http-filesystem -> filesystem server over a temporary directory; and a secret beside the directory that no path
 * may reach.
 */
class HttpFilesystemTest
{
    private static final String INDEX = "<!doctype html><title>zilla</title><p>hello</p>\n";
    private static final String SECRET = "secret-beside-the-location";

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @TempDir
    Path root;

    private Path web;
    private byte[] large;
    private String base;

    @BeforeEach
    void files() throws IOException
    {
        web = Files.createDirectories(root.resolve("web"));
        Files.writeString(web.resolve("index.html"), INDEX);
        Files.setLastModifiedTime(web.resolve("index.html"), FileTime.from(Instant.parse("2026-11-30T08:09:10.123Z")));
        Files.createDirectories(web.resolve("assets"));
        Files.writeString(web.resolve("assets/app.js"), "console.log('hi');\n");
        Files.writeString(web.resolve("%2e%2e"), "a file named so");
        large = new byte[6 * 1024 * 1024 + 12345];
        new Random(24).nextBytes(large);
        Files.write(web.resolve("large.bin"), large);
        Files.writeString(root.resolve("secret.txt"), SECRET);
        Files.createSymbolicLink(web.resolve("link-out.txt"), root.resolve("secret.txt"));
        Files.createSymbolicLink(web.resolve("linkdir"), root);
        Files.createSymbolicLink(web.resolve("link-in.html"), web.resolve("index.html"));
    }

    private void start(String symlinks)
    {
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).env("WEB", web.toString()).env("SYMLINKS", symlinks);
        engine.anchor(HttpFilesystemTest.class).start("web.yaml");
        base = "http://127.0.0.1:" + port;
    }

    @Test
    void shouldServeAFileWithItsHeaders() throws Exception
    {
        start("ignore");
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(base + "/index.html")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertEquals(INDEX, response.body());
        assertEquals("text/html; charset=utf-8", response.headers().firstValue("content-type").orElseThrow());
        assertEquals(Integer.toString(INDEX.length()), response.headers().firstValue("content-length").orElseThrow());
        assertEquals("Mon, 30 Nov 2026 08:09:10 GMT", response.headers().firstValue("last-modified").orElseThrow());
        final String etag = response.headers().firstValue("etag").orElseThrow();
        assertTrue(etag.matches("\"[0-9a-f]+-[0-9a-f]+\""), etag);
        // the worker's file reader, where the file was read
        assertTrue(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("zilla-filesystem-0")));

        // the route for / names the index file
        final HttpResponse<String> slash = client.send(HttpRequest.newBuilder(URI.create(base + "/")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, slash.statusCode());
        assertEquals(INDEX, slash.body());

        final HttpResponse<String> js = client.send(HttpRequest.newBuilder(URI.create(base + "/assets/app.js")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, js.statusCode());
        assertEquals("console.log('hi');\n", js.body());
        assertEquals("text/javascript; charset=utf-8", js.headers().firstValue("content-type").orElseThrow());
    }

    @Test
    void shouldAnswerNotModifiedForItsTag() throws Exception
    {
        start("ignore");
        final Curl first = curl("-sS", "-i", base + "/index.html");
        final String etag = header(first.out, "etag");

        final Curl again = curl("-sS", "-i", "-H", "If-None-Match: " + etag, base + "/index.html");
        assertTrue(again.out.startsWith("HTTP/1.1 304"), again.out);
        assertEquals(etag, header(again.out, "etag"));
        assertTrue(again.out.endsWith("\r\n\r\n"), "no body: " + again.out);

        final Curl weak = curl("-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: W/" + etag,
            base + "/index.html");
        assertEquals("304", weak.out);
        final Curl list = curl("-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H",
            "If-None-Match: \"other\", " + etag, base + "/index.html");
        assertEquals("304", list.out);
        final Curl star = curl("-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: *",
            base + "/index.html");
        assertEquals("304", star.out);

        final Curl other = curl("-sS", "-H", "If-None-Match: \"other\"", base + "/index.html");
        assertEquals(INDEX, other.out);

        // the file changes: its tag does, and the old one gets the new file
        Files.writeString(web.resolve("index.html"), INDEX + "<p>more</p>\n");
        final Curl changed = curl("-sS", "-i", "-H", "If-None-Match: " + etag, base + "/index.html");
        assertTrue(changed.out.startsWith("HTTP/1.1 200"), changed.out);
        assertFalse(etag.equals(header(changed.out, "etag")));
        assertTrue(changed.out.endsWith(INDEX + "<p>more</p>\n"));
    }

    @Test
    void shouldAnswerHeadWithoutBody() throws Exception
    {
        start("ignore");
        final Curl head = curl("-sS", "-I", base + "/large.bin");
        assertTrue(head.out.startsWith("HTTP/1.1 200"), head.out);
        assertEquals(Integer.toString(large.length), header(head.out, "content-length"));
        assertEquals("application/octet-stream", header(head.out, "content-type"));
        assertTrue(head.out.endsWith("\r\n\r\n"), head.out);

        final Curl post = curl("-sS", "-i", "-d", "x", base + "/index.html");
        assertTrue(post.out.startsWith("HTTP/1.1 405"), post.out);
        assertEquals("GET, HEAD", header(post.out, "allow"));
    }

    @Test
    void shouldServeALargeFileIntactOverHttp1AndHttp2() throws Exception
    {
        start("ignore");
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(URI.create(base + "/large.bin")).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode());
        assertArrayEquals(large, response.body());

        final Path out = root.resolve("large.h2");
        final Curl h2 = curl("-sS", "--http2-prior-knowledge", "-o", out.toString(), "-w", "%{http_version} %{http_code}",
            base + "/large.bin");
        assertEquals("2 200", h2.out);
        assertArrayEquals(large, Files.readAllBytes(out));

        final Curl h2index = curl("-sS", "--http2-prior-knowledge", "-i", base + "/index.html");
        assertTrue(h2index.out.startsWith("HTTP/2 200"), h2index.out);
        assertTrue(h2index.out.endsWith(INDEX), h2index.out);
    }

    @Test
    void shouldServeConcurrentRequestsOnOneConnection() throws Exception
    {
        start("ignore");
        // HTTP/2 (h2c by Upgrade): the streams share the connection's window
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        final List<java.util.concurrent.CompletableFuture<HttpResponse<byte[]>>> responses = new ArrayList<>();
        for (int i = 0; i < 8; i++)
        {
            final String path = i % 2 == 0 ? "/large.bin" : "/index.html";
            responses.add(client.sendAsync(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofByteArray()));
        }
        for (int i = 0; i < responses.size(); i++)
        {
            final HttpResponse<byte[]> response = responses.get(i).get(60, TimeUnit.SECONDS);
            assertEquals(200, response.statusCode());
            assertEquals(HttpClient.Version.HTTP_2, response.version());
            assertArrayEquals(i % 2 == 0 ? large : INDEX.getBytes(StandardCharsets.UTF_8), response.body());
        }
    }

    @Test
    void shouldStopReadingForAClientThatLeaves() throws Exception
    {
        start("ignore");
        final int port = Integer.parseInt(base.substring(base.lastIndexOf(':') + 1));
        for (int i = 0; i < 20; i++)
        {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port))
            {
                socket.getOutputStream().write("GET /large.bin HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                final byte[] some = socket.getInputStream().readNBytes(i * 4096 + 16);
                assertTrue(new String(some, 0, 12, StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200"));
            }
        }
        // the streams of the clients that left are gone, and their state serves the next ones
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 3; i++)
        {
            final HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(URI.create(base + "/large.bin")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
            assertArrayEquals(large, response.body());
        }
    }

    @Test
    void shouldRefuseEveryPathOutOfTheLocation() throws Exception
    {
        start("ignore");
        final List<String> escapes = List.of(
            "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/..%2fsecret.txt", "/assets/../../secret.txt",
            "/assets/%2e%2e/%2e%2e/secret.txt", "//" + root.resolve("secret.txt"), "/%2F" + root.resolve("secret.txt"),
            "/link-out.txt", "/linkdir/secret.txt", "/link-in.html", "/index.html%00.txt", "/%00", "/..", "/%2e%2e",
            "/assets", "/assets/", "/missing.html", "/%zz", "/%252e%252e/secret.txt", "/..%5csecret.txt");
        final List<String> served = new ArrayList<>();
        for (String escape : escapes)
        {
            final Curl attempt = curl("-sS", "--path-as-is", "-w", "\n%{http_code}", base + escape);
            final String code = attempt.out.substring(attempt.out.lastIndexOf('\n') + 1);
            if (attempt.out.contains(SECRET) || !("404".equals(code) || "400".equals(code)))
            {
                served.add(escape + " -> " + code);
            }
            if (!escape.equals("/%zz"))
            {
                assertEquals("404", code, escape);
            }
        }
        assertEquals(List.of(), served);
        assertEquals("400", curl("-sS", "--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", base + "/%zz").out);

        // a file literally named %2e%2e is a file: %252e%252e decodes once to its name
        assertEquals("a file named so", curl("-sS", "--path-as-is", base + "/%252e%252e").out);
        // and the site still serves
        assertEquals(INDEX, curl("-sS", base + "/index.html").out);
    }

    @Test
    void shouldFollowSymlinksWhenTold() throws Exception
    {
        start("follow");
        assertEquals(SECRET, curl("-sS", base + "/link-out.txt").out);
        assertEquals(INDEX, curl("-sS", base + "/link-in.html").out);
        assertEquals("404", curl("-sS", "--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", base + "/../secret.txt").out);
    }

    @Test
    void shouldResolveARelativeLocationFromTheConfigsDirectory() throws Exception
    {
        final int port = FreePorts.next();
        final Path yaml = root.resolve("zilla.yaml");
        Files.writeString(yaml, Files.readString(Path.of("src/test/resources/io/zilla/bindings/http/filesystem/web.yaml"))
            .replace("${{env.PORT}}", Integer.toString(port))
            .replace("${{env.WEB}}", "web/")
            .replace("${{env.SYMLINKS}}", "ignore"));
        engine.startWatching(yaml);
        assertEquals(INDEX, curl("-sS", "http://127.0.0.1:" + port + "/index.html").out);
    }

    private static String header(String response, String name)
    {
        for (String line : response.split("\r\n"))
        {
            final int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name))
            {
                return line.substring(colon + 1).trim();
            }
        }
        throw new AssertionError("no " + name + " in " + response);
    }

    record Curl(int exit, String out, String err)
    {
    }

    static Curl curl(String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("curl", "--max-time", "20"));
        command.addAll(List.of(args));
        final Path err = Files.createTempFile("curl", ".err");
        final Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
        final byte[] out = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        final String error = Files.readString(err);
        Files.delete(err);
        assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + error);
        return new Curl(process.exitValue(), new String(out, StandardCharsets.ISO_8859_1), error);
    }

    static String httpDate(Instant instant)
    {
        return DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC)
            .format(instant);
    }
}
