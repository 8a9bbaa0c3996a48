/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.tls.config.TlsConditionConfig;
import io.zilla.bindings.tls.config.TlsMutual;
import io.zilla.bindings.tls.config.TlsOptionsConfig;
import io.zilla.bindings.tls.stream.TlsBindingContext;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.engine.config.PortRanges;

/**
 * The tls binding type. Kind {@code proxy} routes each TLS connection by its ClientHello (server name, ALPN
 * protocols, port) without decrypting it; kinds {@code server} and {@code client} are in the schema but not built
 * yet. See docs/bindings/tls.md.
 */
public final class TlsBinding implements Binding
{
    public static final String NAME = "tls";

    /** The type id that would tag tls's frame extensions: the type name's {@link String#hashCode()}, as tcp's. */
    public static final int TYPE_ID = NAME.hashCode();

    /** Engine property: how long a proxy waits for a whole ClientHello before it closes the connection, in ms. */
    public static final String HELLO_TIMEOUT = "zilla.binding.tls.hello.timeout";

    public static final int DEFAULT_HELLO_TIMEOUT = 10_000;

    private static final String SCHEMA = "/io/zilla/specs/tls/schema/tls.schema.json";

    private final long helloTimeout;

    public TlsBinding(EngineConfiguration configuration)
    {
        this.helloTimeout = configuration.intValue(HELLO_TIMEOUT, DEFAULT_HELLO_TIMEOUT);
    }

    @Override
    public String type()
    {
        return NAME;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        // the schema already describes server and client; until they are built a config naming them is refused
        // at validation ("supported: proxy"), not when a worker attaches it
        return Set.of(KindConfig.PROXY);
    }

    @Override
    public URL schema()
    {
        return TlsBinding.class.getResource(SCHEMA);
    }

    @Override
    public OptionsConfig options(KindConfig kind, JsonNode options)
    {
        if (options == null || options.isMissingNode() || options.isNull())
        {
            return null;
        }
        final JsonNode trustcacerts = options.get("trustcacerts");
        return new TlsOptionsConfig(
            text(options.get("version")),
            names(options.get("keys")),
            names(options.get("trust")),
            names(options.get("signers")),
            trustcacerts != null && trustcacerts.isBoolean() ? trustcacerts.booleanValue() : null,
            names(options.get("sni")),
            names(options.get("alpn")),
            TlsMutual.of(text(options.get("mutual"))));
    }

    @Override
    public ConditionConfig condition(KindConfig kind, JsonNode condition)
    {
        return new TlsConditionConfig(
            text(condition.get("authority")),
            text(condition.get("alpn")),
            PortRanges.parse(condition.get("port")));
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new TlsBindingContext(context, helloTimeout);
    }

    /** How long a proxy waits for a whole ClientHello, in milliseconds. */
    public long helloTimeout()
    {
        return helloTimeout;
    }

    private static String text(JsonNode node)
    {
        return node != null && node.isTextual() ? node.textValue() : null;
    }

    private static List<String> names(JsonNode node)
    {
        final List<String> names = new ArrayList<>();
        if (node != null && node.isArray())
        {
            node.forEach(name -> names.add(name.asText()));
        }
        return names;
    }
}
