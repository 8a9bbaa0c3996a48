/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real browser's EventSource (headless Chromium, Debian's chromium-headless-shell) on the example: it receives the
 * topic's records, loses its connection when zilla stops, reconnects by itself once zilla is back, sending its last
 * event id, and gets exactly the records produced meanwhile, none twice. The page (browser.html) is served by a JDK
 * HTTP server of the test, which also takes the page's reports; the page's EventSource is cross-origin to zilla, as the
 * example's http server allows.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class SseBrowserTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CHROMIUM = "/usr/bin/chromium-headless-shell";

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(2);

    @TempDir
    Path profile;

    private final List<Map<String, String>> reports = new ArrayList<>();
    private HttpServer pages;
    private Process browser;

    @AfterEach
    void stop() throws InterruptedException
    {
        if (browser != null)
        {
            // its zygote, renderer, gpu and network processes too: killing the first alone left them running
            browser.descendants().forEach(ProcessHandle::destroyForcibly);
            browser.destroyForcibly();
            browser.waitFor(10, TimeUnit.SECONDS);
        }
        if (pages != null)
        {
            pages.stop(0);
        }
    }

    @Test
    void shouldReconnectWithTheLastEventIdAndMissNothing(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        assertTrue(Files.isExecutable(Path.of(CHROMIUM)), CHROMIUM + " is missing: .ci/run installs it "
            + "(apt-get install chromium-headless-shell)");
        final FanoutExample example = new FanoutExample(kafka, topics.create(2));
        example.start(engine);
        servePages();
        browser = new ProcessBuilder(CHROMIUM, "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--user-data-dir=" + profile, "http://127.0.0.1:" + pages.getAddress().getPort() + "/browser.html?src="
            + example.url())
            .redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile()).start();

        awaitReports("open", 1);
        Thread.sleep(500);
        example.produceRange(0, 5);
        awaitReports("message", 5);

        // zilla stops: the browser sees an error and keeps trying; meanwhile five more records
        engine.engine().close();
        awaitReports("error", 1);
        example.produceRange(5, 10);
        example.start(engine);

        awaitReports("message", 10);
        Thread.sleep(1000);
        final List<String> data = new ArrayList<>();
        synchronized (reports)
        {
            for (Map<String, String> report : reports)
            {
                if ("message".equals(report.get("kind")))
                {
                    data.add(report.get("data"));
                }
            }
        }
        final List<String> sorted = new ArrayList<>(data);
        sorted.sort(null);
        assertEquals(List.of("value-0", "value-1", "value-2", "value-3", "value-4", "value-5", "value-6", "value-7",
            "value-8", "value-9"), sorted, "the browser got " + data);
        assertTrue(count("open") >= 2, reports.toString());
    }

    private void servePages() throws IOException
    {
        pages = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        pages.createContext("/browser.html", exchange ->
        {
            try (InputStream page = SseBrowserTest.class.getResourceAsStream("browser.html"))
            {
                respond(exchange, 200, "text/html; charset=utf-8", page.readAllBytes());
            }
        });
        pages.createContext("/report", exchange ->
        {
            final Map<String, String> report = new HashMap<>();
            for (String pair : exchange.getRequestURI().getRawQuery().split("&"))
            {
                final int equals = pair.indexOf('=');
                report.put(pair.substring(0, equals), URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
            synchronized (reports)
            {
                reports.add(report);
                reports.notifyAll();
            }
            respond(exchange, 204, null, null);
        });
        pages.start();
    }

    private static void respond(HttpExchange exchange, int status, String type, byte[] body) throws IOException
    {
        if (type != null)
        {
            exchange.getResponseHeaders().add("content-type", type);
        }
        exchange.sendResponseHeaders(status, body != null ? body.length : -1);
        if (body != null)
        {
            try (OutputStream out = exchange.getResponseBody())
            {
                out.write(body);
            }
        }
        exchange.close();
    }

    private void awaitReports(String kind, int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        synchronized (reports)
        {
            while (count(kind) < count && System.nanoTime() < deadline)
            {
                reports.wait(100);
            }
            assertTrue(count(kind) >= count, "waiting for " + count + " " + kind + ": " + reports);
        }
    }

    private int count(String kind)
    {
        synchronized (reports)
        {
            return (int) reports.stream().filter(report -> kind.equals(report.get("kind"))).count();
        }
    }
}
