/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.TestVault;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBindingType;
import io.zilla.engine.vault.VaultHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A binding finds, on its worker, the handler of the vault it names, attached when the namespace attached. */
class EngineVaultTest
{
    private static final Map<String, VaultHandler> SEEN = new ConcurrentHashMap<>();
    private static final VaultHandler NONE = new TestVault.Handler(null);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension()
        .vault(new TestVault("secrets"))
        .binding(new ProbeBindingFactory());

    @Test
    void shouldSupplyTheVaultThatABindingNames()
    {
        SEEN.clear();
        engine.startText("zilla.yaml", """
            name: example
            vaults:
              server:
                type: secrets
                options:
                  file: server.p12
              client:
                type: secrets
                options:
                  file: client.p12
            bindings:
              with_vault:
                type: probe
                kind: server
                vault: client
              without_vault:
                type: probe
                kind: server
            """);

        final VaultHandler handler = SEEN.get("with_vault");
        assertTrue(handler instanceof TestVault.Handler, String.valueOf(handler));
        assertEquals("client", ((TestVault.Handler) handler).vault().name());
        assertEquals(NONE, SEEN.get("without_vault"));
        assertNull(((TestVault.Handler) NONE).vault());
    }

    /** A binding type that, as it attaches, records what {@code supplyVault} gives it. */
    private static final class ProbeBindingFactory extends TestBindingType
    {
        ProbeBindingFactory()
        {
            super("probe", KindConfig.SERVER);
        }

        @Override
        public BindingContext supply(EngineContext context)
        {
            return new BindingContext()
            {
                @Override
                public BindingHandler attach(BindingConfig binding)
                {
                    final VaultHandler vault = context.supplyVault(binding.id());
                    SEEN.put(binding.name(), vault != null ? vault : NONE);
                    return (msgTypeId, buffer, index, length, sender) -> null;
                }

                @Override
                public void detach(BindingConfig binding)
                {
                }
            };
        }
    }
}
