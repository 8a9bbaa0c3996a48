/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.connect;
import static io.zilla.bindings.http.stream.HttpPeers.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.zilla.engine.Engine;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.TestBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A route that names roles is never matched while no guard is installed to check them: a file with one is refused,
 * and one in a config built in code serves nobody, so the request goes on to the next route.
 */
class HttpServerGuardedRouteTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @Test
    void shouldNeverMatchAGuardedRoute() throws Exception
    {
        final int port = FreePorts.next();
        final NamespaceConfig read = new ConfigReader(Engine.builder().bindingTypes(), name -> null).read("zilla.yaml", """
            name: test
            bindings:
              net:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: %d
                exit: http
              http:
                type: http
                kind: server
                routes:
                  - when:
                      - headers:
                          :path: /secret
                    exit: secret
                exit: public
              secret:
                type: test
                kind: server
              public:
                type: test
                kind: server
            """.formatted(port), 1);
        engine.start(guardFirstRoute(read, "http"));

        try (Socket socket = connect(port))
        {
            write(socket, "GET /secret HTTP/1.1\r\nHost: localhost\r\n\r\n");
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (TestBinding.server("public").streams().isEmpty() && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
        }
        assertEquals(1, TestBinding.server("public").streams().size(), "the request went past the guarded route");
        assertTrue(TestBinding.server("secret").streams().isEmpty(), "the guarded route served the request");
    }

    /** The config with the first route of {@code name} guarded, as only a config built in code can be. */
    private static NamespaceConfig guardFirstRoute(NamespaceConfig namespace, String name)
    {
        final List<BindingConfig> bindings = new ArrayList<>();
        for (BindingConfig binding : namespace.bindings())
        {
            if (binding.name().equals(name))
            {
                final List<RouteConfig> routes = new ArrayList<>(binding.routes());
                final RouteConfig first = routes.get(0);
                routes.set(0, new RouteConfig(first.order(), first.when(), first.with(), first.exit(), first.exitId(),
                    Map.of("jwt0", List.of("read:secret"))));
                binding = new BindingConfig(binding.id(), binding.name(), binding.type(), binding.kind(), binding.vault(),
                    binding.options(), routes);
            }
            bindings.add(binding);
        }
        return new NamespaceConfig(namespace.name(), bindings, namespace.vaults(), namespace.guards(), namespace.telemetry());
    }
}
