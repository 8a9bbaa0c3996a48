/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.awaitListening;
import static io.zilla.bindings.http.stream.HttpPeers.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * h2spec (github.com/summerwind/h2spec, a Go program:
 * {@code go install github.com/summerwind/h2spec/cmd/h2spec@v2.2.1+incompatible}, as {@code .ci/run} does) against the
 * http server. Without h2spec on the PATH or in ~/go/bin the tests fail, saying how to install it.
 *
 * <p>Against examples/http.echo over h2c (its own zilla.yaml, h2spec on localhost so that the example's route takes
 * the requests to the echo) no case may fail, and only the four that need a response body to a GET are skipped (h2spec
 * skips them itself: the echo's GET has no body). 5.1.2/1, the concurrent stream limit, passes because the END_STREAM
 * of a response waits for a positive stream window (h2spec gives none), so the streams stay open and counted. Through
 * the http client to Python's http.server, whose GET has a body, none is skipped and every case must pass, over TLS
 * (ALPN h2) and over h2c, and so through the HTTP/2 client to nghttpd over h2c. (3.5/2, an invalid
 * preface on a port that speaks HTTP/1.1 too, passes because a request line whose version is not HTTP's is closed
 * without an answer; 6.9.2/2, a window made negative and then 1 byte allowed, also checks the http client: Python
 * closes its connection while the client still holds most of the body for want of credit, and the body must still
 * reach h2spec whole.)
 */
class Http2SpecTest
{
    private static final Path EXAMPLE = Path.of("..", "..", "examples", "http.echo");
    private static final Pattern SUMMARY = Pattern.compile("(\\d+) tests, (\\d+) passed, (\\d+) skipped, (\\d+) failed");
    private static final Pattern FAILED = Pattern.compile("\u00d7 (\\d+): (.+)");
    /** The cases h2spec skips when the response to a GET has no body: 6.5.3/1, 6.9.1/1, 6.9.2/1 and 6.9.2/2. */
    private static final int BODY_CASES = 4;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(Http2SpecTest.class);

    @TempDir
    Path directory;

    @Test
    void shouldPassH2specOnTheExampleOverH2c() throws Exception
    {
        final int port = freePort();
        final String yaml = Files.readString(EXAMPLE.resolve("zilla.yaml")).replace("7114", Integer.toString(port));
        engine.startText("zilla.yaml", yaml);
        // localhost, so that :authority is the example's localhost:<port> and the requests reach the echo
        final Summary summary = h2spec(List.of("-h", "localhost", "-p", Integer.toString(port), "-P", "/"));
        assertEquals(Set.of(), summary.failed(), summary.output());
        // the cases that need a response body to a GET are skipped by h2spec itself: the echo's GET has none
        assertEquals(BODY_CASES, summary.skipped(), summary.output());
        assertEquals(summary.tests() - BODY_CASES, summary.passed(), summary.output());
    }

    @Test
    void shouldPassH2specOverTlsWithBodies() throws Exception
    {
        final Summary summary = withUpstream(ports ->
            h2spec(List.of("-h", "127.0.0.1", "-p", Integer.toString(ports.tls()), "-P", "/", "-t", "-k")));
        assertEquals(Set.of(), summary.failed(), summary.output());
        assertEquals(0, summary.skipped(), summary.output());
    }

    @Test
    void shouldPassH2specOverH2cWithBodies() throws Exception
    {
        final Summary summary = withUpstream(ports ->
            h2spec(List.of("-h", "127.0.0.1", "-p", Integer.toString(ports.clear()), "-P", "/")));
        assertEquals(Set.of(), summary.failed(), summary.output());
        assertEquals(0, summary.skipped(), summary.output());
    }

    @Test
    void shouldPassH2specOverH2cThroughTheHttp2Client() throws Exception
    {
        final Summary summary = withUpstream("h2spec-h2.yaml", upstream -> List.of("nghttpd", "--no-tls", "-a", "127.0.0.1",
            "-d", directory.toString(), Integer.toString(upstream)), ports ->
            h2spec(List.of("-h", "127.0.0.1", "-p", Integer.toString(ports.clear()), "-P", "/")));
        assertEquals(Set.of(), summary.failed(), summary.output());
        assertEquals(0, summary.skipped(), summary.output());
    }

    @FunctionalInterface
    private interface Run
    {
        Summary run(Http2Peers.Ports ports) throws Exception;
    }

    // h2spec.yaml in front of Python's http.server serving an index of a few KiB
    private Summary withUpstream(Run run) throws Exception
    {
        return withUpstream("h2spec.yaml", upstream -> List.of("python3", "-m", "http.server", "--bind", "127.0.0.1",
            Integer.toString(upstream), "--directory", directory.toString()), run);
    }

    // the yaml in front of an upstream (started by the command for its port) serving an index of a few KiB
    private Summary withUpstream(String yaml, IntFunction<List<String>> command, Run run)
        throws Exception
    {
        Files.writeString(directory.resolve("index.html"), "<html><body>" + "zilla ".repeat(2000) + "</body></html>\n");
        final int upstream = freePort();
        final Process process = new ProcessBuilder(command.apply(upstream)).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try
        {
            awaitListening(upstream);
            final Http2Peers.Ports ports = new Http2Peers.Ports(freePort(), freePort());
            engine.env("PORT", Integer.toString(ports.clear()))
                .env("TLS_PORT", Integer.toString(ports.tls()))
                .env("UPSTREAM_PORT", Integer.toString(upstream))
                .env("KEYS", Http2Peers.keys().toString())
                .start(yaml);
            return run.run(ports);
        }
        finally
        {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** What h2spec said: the counts, and the descriptions of the cases that failed. */
    record Summary(int tests, int passed, int skipped, Set<String> failed, String output)
    {
    }

    private static Summary h2spec(List<String> arguments) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(binary(), "-o", "5"));
        command.addAll(arguments);
        final Http2Peers.Result result = Http2Peers.run(command, 600);
        // h2spec writes UTF-8 (its marks are not ASCII)
        final String output = new String(result.out().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
            java.nio.charset.StandardCharsets.UTF_8);
        final Matcher summary = SUMMARY.matcher(output);
        assertTrue(summary.find(), output + result.err());
        // the failures are listed twice: as they run, then after "Failures:"
        final Set<String> failed = new TreeSet<>();
        final int failures = output.indexOf("Failures:");
        if (failures >= 0)
        {
            final Matcher each = FAILED.matcher(output.substring(failures));
            while (each.find())
            {
                failed.add(each.group(2).trim());
            }
        }
        System.out.println("h2spec " + arguments + ": " + summary.group() + (failed.isEmpty() ? "" : ", failed: " + failed));
        assertEquals(Integer.parseInt(summary.group(4)), failed.size(), output);
        return new Summary(Integer.parseInt(summary.group(1)), Integer.parseInt(summary.group(2)),
            Integer.parseInt(summary.group(3)), failed, output);
    }

    static String binary()
    {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        {
            final Path candidate = Path.of(directory, "h2spec");
            if (Files.isExecutable(candidate))
            {
                return candidate.toString();
            }
        }
        final Path gobin = Path.of(System.getProperty("user.home"), "go", "bin", "h2spec");
        if (Files.isExecutable(gobin))
        {
            return gobin.toString();
        }
        return fail("h2spec is not on the PATH nor in ~/go/bin: install it with "
            + "`go install github.com/summerwind/h2spec/cmd/h2spec@v2.2.1+incompatible` (as .ci/run does)");
    }
}
