/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.http.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.zilla.engine.Engine;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.kafka.embedded.EmbeddedKafka;

/**
 * One of examples/http.kafka.* as shipped, on a free port instead of 7114 and on topics of the test's own instead of
 * the example's (tests share one broker), in front of the shared broker.
 */
final class HttpKafkaExample
{
    // tests run in the module directory
    private static final Path EXAMPLES = Path.of("..", "..", "examples").toAbsolutePath().normalize();

    final String name;
    final int port;
    final EmbeddedKafka kafka;
    private final Map<String, String> topics = new LinkedHashMap<>();

    HttpKafkaExample(String name, EmbeddedKafka kafka)
    {
        this.name = name;
        this.kafka = kafka;
        this.port = FreePorts.next();
    }

    /** Uses {@code topic} wherever the example names {@code exampleTopic} (a route's topic or reply-to, a bootstrap). */
    HttpKafkaExample topic(String exampleTopic, String topic)
    {
        topics.put(exampleTopic, topic);
        return this;
    }

    Path file()
    {
        return EXAMPLES.resolve(name).resolve("zilla.yaml");
    }

    /** The example's zilla.yaml with this port and these topics. */
    String config()
    {
        try
        {
            String yaml = Files.readString(file()).replace("7114", Integer.toString(port));
            for (Map.Entry<String, String> topic : topics.entrySet())
            {
                final Pattern named = Pattern.compile("(topic: |reply-to: |- )" + Pattern.quote(topic.getKey()) + "$",
                    Pattern.MULTILINE);
                yaml = named.matcher(yaml).replaceAll("$1" + Matcher.quoteReplacement(topic.getValue()));
            }
            return yaml;
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    Engine start(EngineExtension engine)
    {
        engine.env("KAFKA_BOOTSTRAP_SERVER", kafka.bootstrapServers());
        return engine.startText(file().toString(), config());
    }

    String url(String path)
    {
        return "http://localhost:" + port + path;
    }
}
