/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

import io.zilla.bindings.tls.engine.TlsEngineProviders;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The line that tells which provider makes the engines' SSLEngines, as the engine starts: the binding's choice is
 * {@code zilla.binding.tls.provider}'s ({@code TlsServerTest} and {@code TlsServerOpenSslTest} run on each).
 */
class TlsProviderLineTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "jdk     | tls: provider jdk \\(zilla.binding.tls.provider=jdk\\)",
        "openssl | tls: provider openssl \\(BoringSSL, netty-tcnative [0-9.]+Final\\) \\(zilla.binding.tls.provider=openssl\\)",
        // this module ships the linux-x86_64 library, where the tests run: auto takes OpenSSL
        "auto    | tls: provider openssl \\(BoringSSL, netty-tcnative [0-9.]+Final\\)"})
    void shouldTellTheProviderOnceAsTheEngineStarts(String provider, String line) throws IOException
    {
        final String yaml = """
            ---
            name: test
            bindings:
              net:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: %d
                exit: echo
              echo:
                type: echo
                kind: server
            """.formatted(freePort());
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream err = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try
        {
            engine.property(TlsEngineProviders.PROVIDER, provider).startText("test.yaml", yaml);
        }
        finally
        {
            System.setErr(err);
        }
        final String output = captured.toString(StandardCharsets.UTF_8);
        err.print(output);
        final List<String> lines = output.lines().filter(l -> l.startsWith("tls: provider")).toList();
        assertEquals(1, lines.size(), output);
        assertTrue(Pattern.matches(line, lines.get(0)), lines.get(0));
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1")))
        {
            return socket.getLocalPort();
        }
    }
}
