/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.kafka.tls;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Runs kcat (librdkafka) with a hosts file of its own: librdkafka resolves names with getaddrinfo, which reads
 * /etc/hosts, and tests may not change the machine's. {@code unshare --user --map-root-user --mount} gives kcat a
 * private mount namespace where the hosts file is bind-mounted over /etc/hosts; nothing outside it changes.
 * kcat must be installed ({@code .ci/run} installs it): without it the test fails. Where user namespaces are not
 * allowed (some containers), the test is skipped, saying so.
 */
final class Kcat
{
    private static final long TIMEOUT_SECONDS = 60;

    private final Path kcat;
    private final Path hosts;

    private Kcat(Path kcat, Path hosts)
    {
        this.kcat = kcat;
        this.hosts = hosts;
    }

    /** kcat with {@code names} resolving to 127.0.0.1. */
    static Kcat withHosts(Path directory, List<String> names) throws Exception
    {
        final Path hosts = directory.resolve("hosts");
        Files.writeString(hosts, "127.0.0.1 localhost " + String.join(" ", names) + "\n", StandardCharsets.US_ASCII);
        final Kcat kcat = new Kcat(executable(), hosts);
        final Result probe = kcat.run(null, "getent", "hosts", names.get(0));
        assumeTrue(probe.exit == 0 && probe.out.startsWith("127.0.0.1"),
            () -> "no private mount namespace here (unshare --user --mount refused): " + probe);
        return kcat;
    }

    /** kcat's output (stdout), with stdin given (or none), failing the test when kcat fails. */
    String kcat(String stdin, String... arguments) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(kcat.toString()));
        command.addAll(List.of(arguments));
        final Result result = run(stdin, command.toArray(String[]::new));
        if (result.exit != 0)
        {
            fail("kcat " + command + " exited " + result.exit + ": " + result);
        }
        return result.out;
    }

    /** The arguments every call shares, then these. */
    static String[] with(String[] common, String... arguments)
    {
        final List<String> all = new ArrayList<>(List.of(common));
        all.addAll(List.of(arguments));
        return all.toArray(String[]::new);
    }

    record Result(int exit, String out, String err)
    {
    }

    private Result run(String stdin, String... command) throws Exception
    {
        final List<String> wrapped = new ArrayList<>(List.of("unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
            "mount --bind \"$0\" /etc/hosts && exec \"$@\"", hosts.toString()));
        wrapped.addAll(List.of(command));
        final Process process = new ProcessBuilder(wrapped).start();
        final CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        final CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        try (OutputStream in = process.getOutputStream())
        {
            if (stdin != null)
            {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            fail(command[0] + " did not finish in " + TIMEOUT_SECONDS + " s: " + wrapped);
        }
        return new Result(process.exitValue(), out.get(), err.get());
    }

    private static String read(InputStream in)
    {
        try
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex)
        {
            return ex.toString();
        }
    }

    private static Path executable()
    {
        final String path = System.getenv().getOrDefault("PATH", "");
        for (String entry : path.split(Pattern.quote(File.pathSeparator)))
        {
            final Path candidate = Path.of(entry.isEmpty() ? "." : entry, "kcat");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        return fail("kcat is not installed (not found on PATH=" + path + "), and this test needs it: "
            + "apt-get install kcat (.ci/run installs it when missing)");
    }
}
