/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.zilla.bindings.tcp.TcpBindingFactory;
import io.zilla.bindings.tls.config.TlsConditionConfig;
import io.zilla.bindings.tls.config.TlsMutual;
import io.zilla.bindings.tls.config.TlsOptionsConfig;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConfigError;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.vaults.filesystem.FileSystemVault;
import org.junit.jupiter.api.Test;

/** tls's part of zilla.yaml, read by the engine's config reader: its schema, and its options and conditions. */
class TlsConfigTest
{
    private final ConfigReader reader;

    TlsConfigTest()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final Map<String, Binding> bindings = Map.of(
            "tls", new TlsBindingFactory().create(configuration),
            "tcp", new TcpBindingFactory().create(configuration));
        this.reader = new ConfigReader(bindings, Map.of("filesystem", new FileSystemVault()), name -> null);
    }

    @Test
    void shouldBindProxyRoutes()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              proxy:
                type: tls
                kind: proxy
                routes:
                  - when:
                      - authority: "*.Example.com"
                        port: [ 443, "8443-8444" ]
                      - alpn: h2
                    exit: north
                exit: north
              north:
                type: tcp
                kind: client
                options:
                  host: localhost
                  port: 8443
            """, 1);

        final BindingConfig proxy = config.binding("proxy");
        assertEquals(KindConfig.PROXY, proxy.kind());
        assertNull(proxy.options());
        assertEquals(2, proxy.routes().size());
        final TlsConditionConfig first = (TlsConditionConfig) proxy.routes().get(0).when().get(0);
        assertEquals("*.example.com", first.authority());
        assertArrayEquals(new int[] {443, 8443, 8444}, first.ports());
        assertTrue(first.matches("www.example.com", List.of(), 8443));
        assertFalse(first.matches("www.example.com", List.of(), 8445));
        assertFalse(first.matches("a.www.example.com", List.of(), 443));
        assertFalse(first.matches(null, List.of(), 443));
        final TlsConditionConfig second = (TlsConditionConfig) proxy.routes().get(0).when().get(1);
        assertTrue(second.matches(null, List.of("http/1.1", "h2"), 0));
        assertFalse(second.matches("www.example.com", List.of("http/1.1"), 0));
    }

    @Test
    void shouldBindEveryOptionOfEachKind()
    {
        final TlsOptionsConfig server = (TlsOptionsConfig) reader.read("zilla.yaml", bindingWith("server", """
                options:
                  version: TLSv1.3
                  keys: [ localhost ]
                  signers: [ clientca ]
                  sni: [ localhost, "*.example.com" ]
                  alpn: [ h2, http/1.1 ]
                  mutual: requested
            """), 1).binding("tls").options();
        final TlsOptionsConfig client = (TlsOptionsConfig) reader.read("zilla.yaml", bindingWith("client", """
                options:
                  version: TLSv1.2
                  keys: [ client ]
                  trust: [ serverca ]
                  trustcacerts: true
                  sni: [ kafka.internal ]
                  alpn: [ h2 ]
            """), 1).binding("tls").options();

        assertEquals(new TlsOptionsConfig("TLSv1.3", List.of("localhost"), List.of(), List.of("clientca"), null,
            List.of("localhost", "*.example.com"), List.of("h2", "http/1.1"), TlsMutual.REQUESTED), server);
        assertEquals(new TlsOptionsConfig("TLSv1.2", List.of("client"), List.of("serverca"), List.of(), true,
            List.of("kafka.internal"), List.of("h2"), null), client);
    }

    @Test
    void shouldRefuseWhatKindProxyDoesNotUse()
    {
        final List<ConfigError> errors = errors(proxyWith("""
                vault: server
                options:
                  sni: [ localhost ]
                routes:
                  - when:
                      - authority: localhost
                    guarded:
                      jwt: [ read ]
                    exit: north
            """).replace("bindings:", "vaults:\n  server:\n    type: filesystem\nguards:\n  jwt:\n    type: jwt\nbindings:"));
        // the guarded route is refused through its guard: no guard type is installed (docs/config.md, "Fail closed")
        assertEquals(List.of(
            "8:11 guards.jwt.type: unknown guard type 'jwt' (installed: none)",
            "13:12 bindings.proxy.vault: kind proxy decrypts nothing and uses no vault",
            "14:5 bindings.proxy.options: kind proxy reads no options: it routes by the ClientHello, without keys or "
                + "certificates"),
            describe(errors));
    }

    @Test
    void shouldRefuseWhatKindServerDoesNotUse()
    {
        final List<ConfigError> errors = errors(bindingWith("server", """
                options:
                  trust: [ clientca ]
                  signers: [ clientca ]
                  trustcacerts: true
            """));
        // the error is at trust, the key that would be ignored, wherever it stands
        assertEquals(List.of(
            "8:7 bindings.tls.options.trust: kind server checks client certificates against signers, or trust when signers "
                + "is not given: give one of them, not both",
            "10:21 bindings.tls.options.trustcacerts: kind server checks client certificates against signers (or trust) only: "
                + "trustcacerts is for kind client"),
            describe(errors));
        final List<ConfigError> after = errors(bindingWith("server", """
                options:
                  signers: [ clientca ]
                  trust: [ clientca ]
            """));
        assertEquals(List.of(
            "9:7 bindings.tls.options.trust: kind server checks client certificates against signers, or trust when signers "
                + "is not given: give one of them, not both"),
            describe(after));
    }

    @Test
    void shouldRefuseWhatKindClientDoesNotUse()
    {
        final List<ConfigError> errors = errors(bindingWith("client", """
                options:
                  signers: [ clientca ]
                  mutual: required
                  sni: [ a.example.com, b.example.com ]
            """));
        assertEquals(List.of(
            "8:7 bindings.tls.options.signers: signers check the certificates of a server's clients: kind client checks "
                + "its server against trust",
            "9:15 bindings.tls.options.mutual: mutual is whether a server asks for client certificates: kind client "
                + "presents one of keys when asked",
            "10:7 bindings.tls.options.sni: kind client sends one server name (TLS allows one per connection)"),
            describe(errors));
    }

    @Test
    void shouldReportABadMutual()
    {
        final List<ConfigError> errors = errors(bindingWith("server", """
                options:
                  mutual: sometimes
            """));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.tls.options.mutual", errors.get(0).path());
        assertEquals(8, errors.get(0).line());
        assertEquals(15, errors.get(0).column());
        assertEquals("must be none, requested or required", errors.get(0).message());
    }

    @Test
    void shouldReportAnUnknownOption()
    {
        final List<ConfigError> errors = errors(bindingWith("server", """
                options:
                  ciphers: [ TLS_AES_128_GCM_SHA256 ]
            """));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.tls.options", errors.get(0).path());
        assertTrue(errors.get(0).message().contains("ciphers"), errors.get(0).toString());
    }

    @Test
    void shouldReportABadAlpnType()
    {
        final List<ConfigError> errors = errors(proxyWith("""
                routes:
                  - when:
                      - alpn: [ h2 ]
                    exit: north
            """));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.proxy.routes[0].when[0].alpn", errors.get(0).path());
        assertEquals(9, errors.get(0).line());
        assertEquals("must be a protocol name such as h2 or http/1.1", errors.get(0).message());
    }

    @Test
    void shouldRefuseKindsItDoesNotHave()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              tls_cache:
                type: tls
                kind: cache_server
                exit: north
              north:
                type: tcp
                kind: client
            """);
        assertTrue(errors.stream().anyMatch(error -> error.path().equals("bindings.tls_cache.kind")
            && error.message().contains("supported:") && error.message().contains("server")
            && error.message().contains("client")), errors.toString());
    }

    private static String proxyWith(String yaml)
    {
        return """
            ---
            name: test
            bindings:
              proxy:
                type: tls
                kind: proxy
            """ + yaml + """
                exit: north
              north:
                type: tcp
                kind: client
            """;
    }

    // a binding named tls of this kind, then yaml (its options at line 7), then its exit
    private static String bindingWith(String kind, String yaml)
    {
        return proxyWith(yaml).replace("  proxy:\n    type: tls\n    kind: proxy\n", "  tls:\n    type: tls\n    kind: " + kind
            + "\n");
    }

    private static List<String> describe(List<ConfigError> errors)
    {
        return errors.stream().map(error -> error.line() + ":" + error.column() + " " + error.path() + ": " + error.message())
            .toList();
    }

    private List<ConfigError> errors(String yaml)
    {
        return assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", yaml, 1)).errors();
    }
}
