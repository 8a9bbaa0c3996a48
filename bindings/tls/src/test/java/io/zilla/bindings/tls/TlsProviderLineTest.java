/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

import io.zilla.bindings.tls.engine.TlsEngineProviders;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The line that tells which provider makes the engines' SSLEngines, once, when the first tls server or client attaches:
 * the binding's choice is {@code zilla.binding.tls.provider}'s ({@code TlsServerTest} and {@code TlsServerOpenSslTest}
 * run on each). A zilla.yaml without either prints nothing (the cli's tests hold zilla to an empty standard error).
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
    void shouldTellTheProviderOnceAsATlsClientAttaches(String provider, String line) throws IOException
    {
        final List<String> lines = providerLines(provider, ECHO + """
              tls_client:
                type: tls
                kind: client
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
                options:
                  host: 127.0.0.1
                  port: 9
            """);
        assertEquals(1, lines.size(), lines::toString);
        assertTrue(Pattern.matches(line, lines.get(0)), lines.get(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "openssl", "auto"})
    void shouldTellNothingWithoutATlsServerOrClient(String provider) throws IOException
    {
        assertEquals(List.of(), providerLines(provider, ECHO));
    }

    private static final String ECHO = """
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
        """;

    private List<String> providerLines(String provider, String template) throws IOException
    {
        final String yaml = template.formatted(freePort());
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
        return output.lines().filter(l -> l.startsWith("tls: provider")).toList();
    }

    private static int freePort() throws IOException
    {
        return FreePorts.next();
    }
}
