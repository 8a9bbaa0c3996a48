/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.http.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** kcat (librdkafka) on the Kafka side of an example, as its README runs it. */
final class Kcat
{
    private Kcat()
    {
    }

    /** {@code kcat -C -b bootstrap -t topic -e -q -f format}: every record of the topic, formatted. */
    static String consume(String bootstrap, String topic, String format) throws Exception
    {
        return run(null, "-C", "-b", bootstrap, "-t", topic, "-e", "-q", "-f", format);
    }

    /** {@code kcat -P -b bootstrap -t topic -k key -H h...}: produces {@code value} as one record. */
    static void produce(String bootstrap, String topic, String key, String value, String... headers) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("-P", "-b", bootstrap, "-t", topic, "-k", key));
        for (String header : headers)
        {
            args.add("-H");
            args.add(header);
        }
        run(value, args.toArray(String[]::new));
    }

    private static String run(String input, String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("kcat"));
        command.addAll(List.of(args));
        final Process kcat = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = kcat.getOutputStream())
        {
            if (input != null)
            {
                in.write(input.getBytes(StandardCharsets.UTF_8));
            }
        }
        final String out = new String(kcat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!kcat.waitFor(60, TimeUnit.SECONDS) || kcat.exitValue() != 0)
        {
            kcat.destroyForcibly();
            throw new IllegalStateException(command + " failed: " + out);
        }
        return out;
    }
}
