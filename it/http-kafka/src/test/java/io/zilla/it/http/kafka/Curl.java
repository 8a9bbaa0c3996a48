/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.http.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** curl as the examples' READMEs run it: {@code curl -s -i [options] url}, its answer parsed. */
final class Curl
{
    private static final int TIMEOUT_SECONDS = 90;

    private Curl()
    {
    }

    /** What curl printed: the final status line, its headers (names lower case) and the body. */
    record Response(String statusLine, int status, Map<String, String> headers, String body)
    {
        String header(String name)
        {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        @Override
        public String toString()
        {
            return statusLine + " " + headers + " " + body;
        }
    }

    /** Runs curl with {@code args} (options then the URL) and waits for its answer. */
    static Response run(String... args)
    {
        try
        {
            return start(args).get(TIMEOUT_SECONDS + 10, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        catch (Exception ex)
        {
            throw new IllegalStateException("curl " + Arrays.toString(args) + ": " + ex, ex);
        }
    }

    /** Starts curl with {@code args}: its answer once it exits. */
    static CompletableFuture<Response> start(String... args)
    {
        final List<String> command = new ArrayList<>(List.of("curl", "-s", "-i", "--max-time",
            Integer.toString(TIMEOUT_SECONDS)));
        command.addAll(List.of(args));
        try
        {
            final Process curl = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            curl.getOutputStream().close();
            return CompletableFuture.supplyAsync(() -> read(curl, command));
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static Response read(Process curl, List<String> command)
    {
        try
        {
            final String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            final int exit = curl.waitFor();
            if (exit != 0)
            {
                throw new IllegalStateException(command + " exited with " + exit + ": " + out);
            }
            return parse(out);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    // interim answers (100 Continue) come first, each a head of its own
    private static Response parse(String out)
    {
        String rest = out;
        while (true)
        {
            final int end = rest.indexOf("\r\n\r\n");
            final String head = end < 0 ? rest : rest.substring(0, end);
            final String body = end < 0 ? "" : rest.substring(end + 4);
            final String[] lines = head.split("\r\n");
            final int status = Integer.parseInt(lines[0].split(" ")[1]);
            if (status >= 200 || end < 0)
            {
                final Map<String, String> headers = new LinkedHashMap<>();
                for (int line = 1; line < lines.length; line++)
                {
                    final int colon = lines[line].indexOf(':');
                    if (colon > 0)
                    {
                        headers.put(lines[line].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            lines[line].substring(colon + 1).trim());
                    }
                }
                return new Response(lines[0], status, headers, body);
            }
            rest = body;
        }
    }
}
