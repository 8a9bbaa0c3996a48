/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One load generator run against one server: wrk for HTTP/1.1, h2load for h2c. Each parses what its tool prints
 * into a {@link Result}: requests answered with 2xx, those that were not (errors, non-2xx, timeouts), the run's
 * length, and the latency p50 / p99 (wrk's own percentiles; h2load's from its per-request log, as it prints none).
 */
final class HttpLoad
{
    private static final Pattern WRK_REQUESTS = Pattern.compile("(\\d+) requests in ([0-9.]+)(us|ms|s|m)");
    private static final Pattern WRK_PERCENTILE = Pattern.compile("^\\s*(50|99)(?:\\.000)?%\\s+([0-9.]+)(us|ms|s)\\s*$",
        Pattern.MULTILINE);
    private static final Pattern WRK_NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    private static final Pattern WRK_SOCKET_ERRORS = Pattern.compile(
        "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern H2LOAD_REQUESTS = Pattern.compile(
        "requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored, (\\d+) timeout");
    private static final Pattern H2LOAD_STATUS = Pattern.compile("status codes: (\\d+) 2xx, (\\d+) 3xx, (\\d+) 4xx, (\\d+) 5xx");
    private static final Pattern H2LOAD_FINISHED = Pattern.compile("finished in ([0-9.]+)(us|ms|s),");

    /** What one run measured; latencies in milliseconds. */
    record Result(long succeeded, long failed, double seconds, double p50, double p99, String output)
    {
        double rate()
        {
            return seconds > 0 ? succeeded / seconds : 0;
        }
    }

    private HttpLoad()
    {
    }

    /** wrk, one thread, {@code connections} keep-alive connections; a POST of {@code body} bytes when not 0. */
    static Result wrk(int port, int connections, int seconds, int body, Path scratch) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("wrk", "-t1", "-c" + connections, "-d" + seconds + "s",
            "--latency", "--timeout", "10s"));
        if (body > 0)
        {
            final Path script = scratch.resolve("post-" + body + ".lua");
            Files.writeString(script, String.join("\n",
                "wrk.method = \"POST\"",
                "wrk.body = string.rep(\"z\", " + body + ")",
                "wrk.headers[\"Content-Type\"] = \"application/octet-stream\"",
                ""));
            command.addAll(List.of("-s", script.toString()));
        }
        command.add("http://localhost:" + port + (body > 0 ? "/post" : "/get"));
        final String output = run(command, seconds + 30);

        final Matcher requests = WRK_REQUESTS.matcher(output);
        if (!requests.find())
        {
            throw new IOException("wrk printed no request count:\n" + output);
        }
        final long total = Long.parseLong(requests.group(1));
        final double length = seconds(Double.parseDouble(requests.group(2)), requests.group(3));
        long failed = 0;
        final Matcher non2xx = WRK_NON_2XX.matcher(output);
        if (non2xx.find())
        {
            failed += Long.parseLong(non2xx.group(1));
        }
        final Matcher socket = WRK_SOCKET_ERRORS.matcher(output);
        if (socket.find())
        {
            for (int group = 1; group <= 4; group++)
            {
                failed += Long.parseLong(socket.group(group));
            }
        }
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        final Matcher percentile = WRK_PERCENTILE.matcher(output);
        while (percentile.find())
        {
            final double millis = seconds(Double.parseDouble(percentile.group(2)), percentile.group(3)) * 1000.0;
            if ("50".equals(percentile.group(1)))
            {
                p50 = millis;
            }
            else
            {
                p99 = millis;
            }
        }
        return new Result(Math.max(0, total - failed), failed, length, p50, p99, output);
    }

    /** h2load over h2c: {@code connections} connections of up to {@code streams} concurrent streams each. */
    static Result h2load(int port, int connections, int streams, int seconds, int body, Path scratch)
        throws IOException, InterruptedException
    {
        final Path log = scratch.resolve("h2load-" + System.nanoTime() + ".log");
        final List<String> command = new ArrayList<>(List.of("h2load", "-c", String.valueOf(connections), "-m",
            String.valueOf(streams), "-D", String.valueOf(seconds), "--log-file=" + log));
        if (body > 0)
        {
            final Path data = scratch.resolve("body-" + body);
            if (!Files.exists(data))
            {
                final byte[] bytes = new byte[body];
                Arrays.fill(bytes, (byte) 'z');
                Files.write(data, bytes);
            }
            command.addAll(List.of("-d", data.toString()));
        }
        command.add("http://localhost:" + port + (body > 0 ? "/post" : "/get"));
        final String output = run(command, seconds + 30);

        final Matcher requests = H2LOAD_REQUESTS.matcher(output);
        final Matcher finished = H2LOAD_FINISHED.matcher(output);
        if (!requests.find() || !finished.find())
        {
            throw new IOException("h2load printed no request counts:\n" + output);
        }
        // h2load's own counts: succeeded (answered, 2xx or 3xx), failed (errored and timed out among them); the status
        // counts include answers whose body was still coming when -D ended, so only the 4xx and 5xx are taken from them
        final long succeeded = Long.parseLong(requests.group(4));
        long failed = Long.parseLong(requests.group(5));
        final Matcher status = H2LOAD_STATUS.matcher(output);
        if (status.find())
        {
            failed += Long.parseLong(status.group(3)) + Long.parseLong(status.group(4));
        }
        final double length = seconds(Double.parseDouble(finished.group(1)), finished.group(2));

        final long[] micros = Files.readAllLines(log, StandardCharsets.US_ASCII).stream()
            .map(line -> line.split("\t"))
            .filter(columns -> columns.length >= 3 && columns[1].startsWith("2"))
            .mapToLong(columns -> Long.parseLong(columns[2].trim()))
            .sorted()
            .toArray();
        Files.deleteIfExists(log);
        final double p50 = percentile(micros, 0.50) / 1000.0;
        final double p99 = percentile(micros, 0.99) / 1000.0;
        return new Result(succeeded, failed, length, p50, p99, output);
    }

    private static double percentile(long[] sorted, double quantile)
    {
        final int index = Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1);
        return sorted.length == 0 ? Double.NaN : sorted[index];
    }

    private static double seconds(double value, String unit)
    {
        return switch (unit.toLowerCase(Locale.ROOT))
        {
            case "us" -> value / 1_000_000.0;
            case "ms" -> value / 1000.0;
            case "m" -> value * 60.0;
            default -> value;
        };
    }

    private static String run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not end in " + timeoutSeconds + " s");
        }
        final String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0)
        {
            throw new IOException(String.join(" ", command) + " exited with " + process.exitValue() + ":\n" + text);
        }
        return text;
    }
}
