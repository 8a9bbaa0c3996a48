/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.bench;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.ThreadStats;

/**
 * A server under load: zilla's http.echo graph in this JVM (tcp server -> http server -> echo, one worker), or a
 * reference server as a child process: nginx (with its echo module) for HTTP/1.1 and nghttpd for h2c. Every target
 * answers {@code GET /get} with an empty 200 and {@code POST /post} with the bytes posted (zilla's echo binding,
 * nginx's echo module, nghttpd's {@code --echo-upload}).
 */
abstract class HttpBenchTarget implements Closeable
{
    static final String ZILLA = "zilla";
    /**
     * zilla with every http.* and stream.* metric recorded on its tcp and http bindings, the http histograms by method
     * and status: what metrics cost.
     */
    static final String ZILLA_METRICS = "zilla-metrics";
    static final String REFERENCE = "reference";

    private static final String WORKER_PREFIX = "zilla-worker-";
    private static final long CLOCK_TICKS_PER_SECOND = 100;

    /** CPU time so far (ns) and bytes allocated by the server's threads so far (zilla only, else 0). */
    record Usage(long cpuNanos, long allocated)
    {
    }

    final String name;
    final int port;

    HttpBenchTarget(String name, int port)
    {
        this.name = name;
        this.port = port;
    }

    abstract Usage usage() throws IOException;

    static HttpBenchTarget zilla(Path directory) throws IOException
    {
        return new Zilla(ZILLA, freePort(), directory, false);
    }

    static HttpBenchTarget zillaWithMetrics(Path directory) throws IOException
    {
        return new Zilla(ZILLA_METRICS, freePort(), directory, true);
    }

    static HttpBenchTarget nginx(Path directory) throws IOException, InterruptedException
    {
        return new Nginx(freePort(), directory);
    }

    static HttpBenchTarget nghttpd(Path directory) throws IOException, InterruptedException
    {
        return new Nghttpd(freePort(), directory);
    }

    private static int freePort() throws IOException
    {
        return FreePorts.next();
    }

    private static final class Zilla extends HttpBenchTarget
    {
        private final Engine engine;

        Zilla(String name, int port, Path directory, boolean metrics) throws IOException
        {
            super(name, port);
            // the http binding's histograms labelled by method and status, as a user asking for everything would
            final String telemetry = metrics ? "    telemetry:\n      metrics:\n        - http.*\n        - stream.*\n"
                + "      attributes:\n        method: ${http.request.method}\n        status: ${http.response.status}" : "";
            final String tcpTelemetry = metrics ? "    telemetry:\n      metrics:\n        - stream.*" : "";
            final String yaml = String.join("\n",
                "---",
                "name: http-bench",
                metrics ? "telemetry:\n  metrics:\n    - http.*\n    - stream.*" : "",
                "bindings:",
                "  net:",
                "    type: tcp",
                "    kind: server",
                "    options:",
                "      host: 127.0.0.1",
                "      port: " + port,
                tcpTelemetry,
                "    exit: http",
                "  http:",
                "    type: http",
                "    kind: server",
                "    options:",
                "      versions:",
                "        - http/1.1",
                "        - h2",
                telemetry,
                "    exit: echo",
                "  echo:",
                "    type: echo",
                "    kind: server",
                "");
            final EngineConfiguration configuration = new EngineConfiguration()
                .with(EngineConfiguration.WORKERS, 1)
                .with(EngineConfiguration.DIRECTORY, Files.createDirectories(directory.resolve("engine-" + name)));
            engine = Engine.builder().configuration(configuration).config("http-bench.zilla.yaml", yaml).build();
            engine.start();
        }

        @Override
        Usage usage()
        {
            final ThreadStats worker = ThreadStats.of(WORKER_PREFIX);
            return new Usage(worker.cpuNanos(), worker.allocated());
        }

        @Override
        public void close()
        {
            engine.close();
        }
    }

    /** A child process whose CPU time is read from /proc (all its threads). */
    private abstract static class Child extends HttpBenchTarget
    {
        private final Process process;

        Child(String name, int port, List<String> command, Path log) throws IOException, InterruptedException
        {
            super(name, port);
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!listening(port))
            {
                if (!process.isAlive() || System.nanoTime() > deadline)
                {
                    process.destroyForcibly();
                    throw new IOException(name + " did not start: " + String.join(" ", command) + "\n"
                        + Files.readString(log));
                }
                Thread.sleep(50);
            }
        }

        @Override
        Usage usage() throws IOException
        {
            // utime and stime, fields 14 and 15, after the command name in parentheses
            final String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            final long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return new Usage(ticks * 1_000_000_000L / CLOCK_TICKS_PER_SECOND, 0);
        }

        @Override
        public void close() throws IOException
        {
            process.destroy();
            try
            {
                if (!process.waitFor(5, TimeUnit.SECONDS))
                {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }

        private static boolean listening(int port)
        {
            boolean listening;
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port))
            {
                listening = socket.isConnected();
            }
            catch (IOException ex)
            {
                listening = false;
            }
            return listening;
        }
    }

    /** nginx, one process (no master), one worker connection table, no access log, HTTP/1.1 keep-alive. */
    private static final class Nginx extends Child
    {
        private static final String ECHO_MODULE = "/usr/lib/nginx/modules/ngx_http_echo_module.so";

        Nginx(int port, Path directory) throws IOException, InterruptedException
        {
            super(REFERENCE, port, List.of("nginx", "-p", prepare(directory, port).toString(), "-c", "nginx.conf"),
                directory.resolve("nginx.log"));
        }

        private static Path prepare(Path directory, int port) throws IOException
        {
            final Path www = Files.createDirectories(directory.resolve("www"));
            Files.write(www.resolve("get"), new byte[0]);
            Files.createDirectories(directory.resolve("logs"));
            Files.writeString(directory.resolve("nginx.conf"), String.join("\n",
                "load_module " + ECHO_MODULE + ";",
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
                "  keepalive_requests 100000000;",
                "  server {",
                "    listen 127.0.0.1:" + port + ";",
                "    root " + www + ";",
                "    client_body_buffer_size 128k;",
                // the echo module (Debian's nginx-light has it) sends back the body it read, as zilla's echo does
                "    location = /post { echo_read_request_body; echo_request_body; }",
                "  }",
                "}",
                ""));
            return directory;
        }
    }

    /** nghttpd over h2c, one worker thread, echoing uploads. */
    private static final class Nghttpd extends Child
    {
        Nghttpd(int port, Path directory) throws IOException, InterruptedException
        {
            super(REFERENCE, port, List.of("nghttpd", "--no-tls", "--echo-upload", "-n", "1", "-a", "127.0.0.1",
                "-d", prepare(directory).toString(), String.valueOf(port)), directory.resolve("nghttpd.log"));
        }

        private static Path prepare(Path directory) throws IOException
        {
            final Path www = Files.createDirectories(directory.resolve("www-h2"));
            Files.write(www.resolve("get"), new byte[0]);
            return www;
        }
    }
}
