/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.freePort;
import static io.zilla.bindings.http.stream.HttpServerClientsTest.curl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import io.zilla.bindings.http.stream.HttpServerClientsTest.Curl;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** examples/http.echo as shipped (on a free port instead of 7114), driven by curl as its README says. */
class HttpEchoExampleTest
{
    // tests run in the module directory
    private static final Path EXAMPLE = Path.of("..", "..", "examples", "http.echo");

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @Test
    void shouldEchoThroughTheExample() throws Exception
    {
        final int port = freePort();
        final String yaml = Files.readString(EXAMPLE.resolve("zilla.yaml")).replace("7114", Integer.toString(port));
        engine.startText("zilla.yaml", yaml);
        final String base = "http://localhost:" + port;

        final Curl post = curl("--http1.1", "-d", "Hello, world", base + "/");
        assertEquals(0, post.exit(), post.err());
        assertEquals("Hello, world", post.out());

        final Curl get = curl("--http1.1", "-i", base + "/");
        assertTrue(get.out().startsWith("HTTP/1.1 200 OK\r\n"), get.out());

        // another authority matches no route
        final Curl other = curl("--http1.1", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:" + port + "/");
        assertEquals("404", other.out());

        // HTTP/2 with prior knowledge (h2c)
        final Curl h2 = curl("--http2-prior-knowledge", "-i", "-d", "Hello, h2", base + "/");
        assertEquals(0, h2.exit(), h2.err());
        assertTrue(h2.out().startsWith("HTTP/2 200"), h2.out());
        assertTrue(h2.out().endsWith("Hello, h2"), h2.out());
    }
}
