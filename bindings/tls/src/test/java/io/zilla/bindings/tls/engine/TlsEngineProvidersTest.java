/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.netty.handler.ssl.OpenSsl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How {@code zilla.binding.tls.provider} picks the engines' provider, and the line it tells. OpenSSL loads here
 * (linux-x86_64, the pom's native jar); it is made unavailable in child JVMs, with netty's own switch
 * ({@code -Dio.netty.handler.ssl.noOpenSsl=true}) or with no netty on the class path.
 */
class TlsEngineProvidersTest
{
    private static final String PREFIX = "log: ";

    private final List<String> lines = new ArrayList<>();
    private final TlsEngineProvider jdk = new TestJdkEngines();

    @BeforeAll
    static void requireOpenSsl()
    {
        final boolean linuxX64 = System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
            && List.of("amd64", "x86_64").contains(System.getProperty("os.arch"));
        assumeTrue(linuxX64 || OpenSsl.isAvailable(), "no netty-tcnative native library for this platform");
        assertTrue(OpenSsl.isAvailable(), () -> "OpenSSL did not load: " + OpenSsl.unavailabilityCause());
    }

    @Test
    void shouldChooseOpenSslByDefaultWhenItLoads()
    {
        for (String configured : new String[] {null, "auto", " AUTO "})
        {
            lines.clear();
            final TlsEngineProvider provider = TlsEngineProviders.select(configured, unexpectedJdk(), lines::add);

            assertInstanceOf(OpenSslTlsEngineProvider.class, provider);
            assertEquals(1, lines.size(), lines::toString);
            assertTrue(lines.get(0).matches("tls: provider openssl \\(BoringSSL, netty-tcnative 2\\.0\\.\\d+\\.Final\\)"),
                lines::toString);
        }
    }

    @Test
    void shouldChooseJdkWhenConfigured()
    {
        final TlsEngineProvider provider = TlsEngineProviders.select("jdk", () -> jdk, lines::add);

        assertSame(jdk, provider);
        assertEquals(List.of("tls: provider jdk (zilla.binding.tls.provider=jdk)"), lines);
    }

    @Test
    void shouldChooseOpenSslWhenConfigured()
    {
        final TlsEngineProvider provider = TlsEngineProviders.select("OpenSSL", unexpectedJdk(), lines::add);

        assertEquals("openssl", provider.name());
        assertEquals(1, lines.size(), lines::toString);
        assertTrue(lines.get(0).startsWith("tls: provider openssl (BoringSSL, netty-tcnative ")
            && lines.get(0).endsWith(") (zilla.binding.tls.provider=openssl)"), lines::toString);
    }

    @Test
    void shouldRefuseUnknownProvider()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> TlsEngineProviders.select("boringssl", unexpectedJdk(), lines::add));

        assertEquals("zilla.binding.tls.provider must be auto, jdk or openssl, not 'boringssl'", refused.getMessage());
        assertTrue(lines.isEmpty(), lines::toString);
    }

    @Test
    void shouldFallBackToJdkWhenOpenSslIsTurnedOff() throws Exception
    {
        final List<String> output = select("auto", true, classPath());

        assertEquals(2, output.size(), output::toString);
        assertTrue(output.get(0).startsWith(PREFIX + "tls: provider jdk (OpenSSL not available: ")
            && output.get(0).contains("io.netty.handler.ssl.noOpenSsl=true"), output::toString);
        assertEquals("chose: jdk", output.get(1));
    }

    @Test
    void shouldFailWhenOpenSslIsConfiguredAndTurnedOff() throws Exception
    {
        final List<String> output = select("openssl", true, classPath());

        assertEquals(1, output.size(), output::toString);
        assertTrue(output.get(0).startsWith("failed: IllegalStateException: zilla.binding.tls.provider=openssl: "
            + "OpenSSL is not available: ") && output.get(0).contains("io.netty.handler.ssl.noOpenSsl=true"),
            output::toString);
    }

    @Test
    void shouldFallBackToJdkWithoutNettyOnTheClassPath() throws Exception
    {
        final String withoutNetty = withoutNetty(classPath());

        final List<String> output = select(null, false, withoutNetty);

        assertEquals(2, output.size(), output::toString);
        assertTrue(output.get(0).startsWith(PREFIX + "tls: provider jdk (OpenSSL not available: netty-handler or "
            + "netty-tcnative is not on the class path"), output::toString);
        assertEquals("chose: jdk", output.get(1));

        final List<String> forced = select("openssl", false, withoutNetty);
        assertEquals(1, forced.size(), forced::toString);
        assertTrue(forced.get(0).startsWith("failed: IllegalStateException: zilla.binding.tls.provider=openssl: "
            + "OpenSSL is not available: netty-handler or netty-tcnative is not on the class path"), forced::toString);
    }

    private static Supplier<TlsEngineProvider> unexpectedJdk()
    {
        return () ->
        {
            throw new AssertionError("the JDK provider was made though OpenSSL was chosen");
        };
    }

    private static String classPath()
    {
        // surefire hands its forked JVM a manifest-only jar; the real class path is in this property
        final String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isEmpty() ? surefire : System.getProperty("java.class.path");
    }

    private static String withoutNetty(String classPath)
    {
        final String[] entries = classPath.split(File.pathSeparator);
        final String kept = Stream.of(entries)
            .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("netty-"))
            .collect(Collectors.joining(File.pathSeparator));
        assertTrue(Stream.of(entries).anyMatch(entry -> entry.contains("netty-tcnative")), classPath);
        return kept;
    }

    private static List<String> select(String configured, boolean openSslOff, String classPath) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (openSslOff)
        {
            command.add("-Dio.netty.handler.ssl.noOpenSsl=true");
        }
        command.add("-cp");
        command.add(classPath);
        command.add(TlsEngineProvidersMain.class.getName());
        if (configured != null)
        {
            command.add(configured);
        }
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child JVM ended");
        assertEquals(0, process.exitValue(), output);
        // netty may warn through slf4j's fallback: keep the child's own lines
        return output.lines()
            .filter(line -> line.startsWith(PREFIX) || line.startsWith("chose: ") || line.startsWith("failed: "))
            .toList();
    }
}
