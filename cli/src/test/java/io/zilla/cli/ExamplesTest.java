/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Every example under examples/ is a valid zilla.yaml, and the demo runs the kafka.proxy example as shipped. */
class ExamplesTest
{
    // tests run in the module directory
    private static final Path EXAMPLES = Path.of("..", "examples");

    // the variables the examples' READMEs ask for
    private static final Map<String, String> ENVIRONMENT = Map.of("KAFKA_BOOTSTRAP_SERVER", "localhost:19092",
        "KEYSTORE_PASSWORD", "examples-test");

    @TempDir
    Path keys;

    @Test
    void shouldValidateEveryExample() throws Exception
    {
        final List<Path> configs;
        try (Stream<Path> examples = Files.list(EXAMPLES))
        {
            configs = examples.map(example -> example.resolve("zilla.yaml")).filter(Files::exists).sorted()
                .collect(Collectors.toList());
        }
        assertTrue(configs.contains(EXAMPLES.resolve("tcp.echo/zilla.yaml")), configs.toString());
        assertTrue(configs.contains(EXAMPLES.resolve("http.echo/zilla.yaml")), configs.toString());
        assertTrue(configs.contains(EXAMPLES.resolve("kafka.proxy/zilla.yaml")), configs.toString());

        for (Path example : configs)
        {
            final Path config = withKeys(example);
            final StringWriter out = new StringWriter();
            final StringWriter err = new StringWriter();
            final CommandLine validate = new CommandLine(new ValidateCommand(ENVIRONMENT::get));
            validate.setOut(new PrintWriter(out, true));
            validate.setErr(new PrintWriter(err, true));

            assertEquals(0, validate.execute("-c", config.toString()), err.toString());

            assertEquals(config + " is valid\n", out.toString());
        }
    }

    // an example whose key is made on the user's machine (keystore.sh, never committed) is validated in a copy that
    // has one, made by that script
    private Path withKeys(Path config) throws Exception
    {
        final Path script = config.resolveSibling("keystore.sh");
        if (!Files.exists(script))
        {
            return config;
        }
        final Path copy = keys.resolve(config.getParent().getFileName().toString());
        Files.createDirectories(copy);
        final ProcessBuilder keystore = new ProcessBuilder("sh", script.toString(), copy.resolve("tls").toString())
            .redirectErrorStream(true);
        keystore.environment().put("KEYSTORE_PASSWORD", ENVIRONMENT.get("KEYSTORE_PASSWORD"));
        keystore.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
        final Process process = keystore.start();
        final String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, output);
        return Files.copy(config, copy.resolve("zilla.yaml"));
    }

    @Test
    void shouldRejectKafkaProxyExampleWithoutBootstrapServer()
    {
        final Path config = EXAMPLES.resolve("kafka.proxy/zilla.yaml");
        final StringWriter err = new StringWriter();
        final CommandLine validate = new CommandLine(new ValidateCommand(name -> null));
        validate.setErr(new PrintWriter(err, true));

        assertEquals(1, validate.execute("-c", config.toString()));

        assertTrue(err.toString().matches("(?s).*bootstrap\\[0\\]: environment variable KAFKA_BOOTSTRAP_SERVER is not set\\R"),
            err.toString());
    }

    @Test
    void shouldPackageKafkaProxyExampleForDemo() throws IOException
    {
        assertEquals(Files.readString(EXAMPLES.resolve("kafka.proxy/zilla.yaml")), DemoCommand.example());
    }

    @Test
    void shouldMoveDemoPortsTogether()
    {
        final String moved = DemoCommand.onPorts(DemoCommand.example(), 30000);

        assertFalse(moved.matches("(?s).*\\b909[2-5]\\b.*"), moved);
        assertTrue(moved.contains("bootstrap_port: 30000\n"), moved);
        assertTrue(moved.contains("\"1\": 30001\n"), moved);
        assertTrue(moved.contains("\"3\": 30003\n"), moved);
        assertTrue(moved.contains("- 30000\n        - 30001\n        - 30002\n        - 30003\n"), moved);
        assertEquals(DemoCommand.example(), DemoCommand.onPorts(DemoCommand.example(), DemoCommand.DEFAULT_PORT));
    }
}
