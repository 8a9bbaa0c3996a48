/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.ThreadStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Is the HTTP driver's client the bottleneck? Its closed-loop rate and CPU per request against nginx answering
 * {@code POST} of 1 KiB with 204 (one worker process, HTTP/1.1 and h2c on two ports), beside wrk (HTTP/1.1) and h2load
 * (h2c) with the same connections and requests in flight against the same nginx. A benchmark, not a test: it runs
 * only with {@code -Dhttp.client.bench=true} (docs/benchmarks.md, "http-kafka produce"):
 * <pre>
 * mvn -B -q -o -pl openmessaging-benchmark -am test -Dtest=HttpClientBench -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dhttp.client.bench=true
 * </pre>
 */
class HttpClientBench
{
    private static final int SECONDS = Integer.getInteger("http.client.bench.seconds", 10);
    private static final int BODY = 1024;
    private static final int H1_CONNECTIONS = 32;
    private static final int H2_STREAMS = 128;
    private static final Pattern WRK_REQUESTS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern H2LOAD_REQUESTS = Pattern.compile("finished in [0-9.]+s, ([0-9.]+) req/s");
    // bash's times: the shell's then its children's user and system time, as 0m1.234s 0m0.567s
    private static final Pattern TIMES = Pattern.compile("CPU\\s+\\S+ \\S+\\s+(\\d+)m([0-9.]+)s (\\d+)m([0-9.]+)s");

    @TempDir
    Path directory;

    @Test
    void shouldMeasureTheClientAgainstNginx() throws Exception
    {
        assumeTrue(Boolean.getBoolean("http.client.bench"), "a benchmark: -Dhttp.client.bench=true runs it");
        ThreadStats.enable();
        final int h1Port = FreePorts.next();
        final int h2Port = FreePorts.next();
        final Process nginx = nginx(h1Port, h2Port);
        try
        {
            Thread.sleep(500);
            final List<String> lines = new ArrayList<>();
            for (int round = 0; round < 2; round++)
            {
                lines.add(ours("omb http/1.1", "http://127.0.0.1:" + h1Port + "/{topic}", false, H1_CONNECTIONS, 1));
                lines.add(tool("wrk", List.of("wrk", "-t1", "-c" + H1_CONNECTIONS, "-d" + SECONDS + "s", "-s",
                    wrkScript().toString(), "http://127.0.0.1:" + h1Port + "/topic"), WRK_REQUESTS));
                lines.add(ours("omb h2c", "http://127.0.0.1:" + h2Port + "/{topic}", true, 1, H2_STREAMS));
                lines.add(tool("h2load", List.of("h2load", "-c1", "-m" + H2_STREAMS, "-t1", "-D" + SECONDS, "-d",
                    body().toString(), "http://127.0.0.1:" + h2Port + "/topic"), H2LOAD_REQUESTS));
            }
            lines.forEach(System.out::println);
        }
        finally
        {
            nginx.destroy();
            nginx.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The driver's producer in a closed loop: {@code sendAsync} as fast as the pending requests let it. */
    private String ours(String name, String url, boolean h2c, int connections, int streams) throws Exception
    {
        final int inFlight = h2c ? streams : connections;
        final AtomicLong answered = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        try (HttpLoadClient client = new HttpLoadClient(1, line -> { }))
        {
            final HttpProducer producer = new HttpProducer(client, HttpTarget.of(url, "topic"), h2c, connections, streams,
                inFlight, null, new HttpProducer.HttpStatusCounts());
            final byte[] payload = new byte[BODY];
            final long warm = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (System.nanoTime() < warm)
            {
                producer.sendAsync(Optional.empty(), payload);
            }
            final ThreadStats selectorBefore = ThreadStats.of("omb-http-selector");
            final ThreadStats loadBefore = ThreadStats.of(Thread.currentThread().getName());
            final long start = System.nanoTime();
            final long end = start + TimeUnit.SECONDS.toNanos(SECONDS);
            final AtomicReference<Throwable> cause = new AtomicReference<>();
            while (System.nanoTime() < end)
            {
                producer.sendAsync(Optional.empty(), payload).whenComplete((v, ex) ->
                {
                    (ex == null ? answered : failed).incrementAndGet();
                    if (ex != null)
                    {
                        cause.set(ex);
                    }
                });
            }
            final double seconds = (System.nanoTime() - start) / 1e9;
            // the selector thread and this one, the load thread
            final ThreadStats spent = ThreadStats.of("omb-http-selector").minus(selectorBefore)
                .plus(ThreadStats.of(Thread.currentThread().getName()).minus(loadBefore));
            producer.close();
            return String.format(Locale.ROOT, "%-14s %,10.0f req/s  client CPU %5.2f us/req (%.2f cores), %,.0f B/req, "
                + "%d failed%s", name, answered.get() / seconds, spent.cpuNanos() / 1e3 / answered.get(),
                spent.cpuNanos() / 1e9 / seconds, (double) spent.allocated() / answered.get(), failed.get(),
                cause.get() != null ? " (" + cause.get() + ")" : "");
        }
    }

    /** A load tool in a child process, its CPU from the shell's {@code times} of its children. */
    private String tool(String name, List<String> command, Pattern rate) throws IOException, InterruptedException
    {
        // times in this shell, not in a subshell or a pipe: its second line is the children's user and system time
        final String script = String.join(" ", command) + "; echo CPU; times";
        final Process process = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes());
        process.waitFor();
        final Matcher requests = rate.matcher(output);
        final Matcher times = TIMES.matcher(output);
        if (!requests.find())
        {
            return name + ": no rate in\n" + output;
        }
        final double perSecond = Double.parseDouble(requests.group(1));
        double cpu = Double.NaN;
        if (times.find())
        {
            cpu = Double.parseDouble(times.group(1)) * 60 + Double.parseDouble(times.group(2))
                + Double.parseDouble(times.group(3)) * 60 + Double.parseDouble(times.group(4));
        }
        return String.format(Locale.ROOT, "%-14s %,10.0f req/s  client CPU %5.2f us/req (%.2f cores)", name, perSecond,
            cpu * 1e6 / (perSecond * SECONDS), cpu / SECONDS);
    }

    private Path body() throws IOException
    {
        final Path file = directory.resolve("body");
        if (!Files.exists(file))
        {
            Files.write(file, new byte[BODY]);
        }
        return file;
    }

    private Path wrkScript() throws IOException
    {
        final Path script = directory.resolve("post.lua");
        Files.writeString(script, String.join("\n",
            "wrk.method = \"POST\"",
            "wrk.body = string.rep(\"z\", " + BODY + ")",
            "wrk.headers[\"Content-Type\"] = \"application/octet-stream\"",
            ""));
        return script;
    }

    private Process nginx(int h1Port, int h2Port) throws IOException
    {
        Files.createDirectories(directory.resolve("logs"));
        Files.writeString(directory.resolve("nginx.conf"), String.join("\n",
            "load_module /usr/lib/nginx/modules/ngx_http_echo_module.so;",
            "daemon off;",
            "master_process off;",
            "worker_processes 1;",
            "error_log " + directory.resolve("logs/error.log") + " warn;",
            "pid " + directory.resolve("nginx.pid") + ";",
            "events { worker_connections 4096; }",
            "http {",
            "  access_log off;",
            "  client_body_temp_path " + directory.resolve("client_body") + ";",
            "  proxy_temp_path " + directory.resolve("proxy") + ";",
            "  fastcgi_temp_path " + directory.resolve("fastcgi") + ";",
            "  uwsgi_temp_path " + directory.resolve("uwsgi") + ";",
            "  scgi_temp_path " + directory.resolve("scgi") + ";",
            "  keepalive_requests 1000000000;",
            "  http2_max_concurrent_streams " + H2_STREAMS + ";",
            "  client_body_buffer_size 128k;",
            // the body read before the 204 (the echo module, as the http bench's nginx): nginx's h2 answering a POST
            // with return 204 resets the stream whose body it did not read, and h2load's rate falls to a few thousand
            "  server { listen 127.0.0.1:" + h1Port + "; location / { echo_status 204; echo_read_request_body; } }",
            "  server { listen 127.0.0.1:" + h2Port + " http2; location / { echo_status 204; echo_read_request_body; } }",
            "}",
            ""));
        return new ProcessBuilder("nginx", "-p", directory.toString(), "-c", "nginx.conf")
            .redirectErrorStream(true).redirectOutput(directory.resolve("nginx.log").toFile()).start();
    }
}
