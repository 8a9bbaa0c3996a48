/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import java.util.List;
import java.util.Map;

import io.zilla.bindings.tcp.config.TcpCidr;
import io.zilla.bindings.tcp.config.TcpConditionConfig;
import io.zilla.bindings.tcp.config.TcpOptionsConfig;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.test.FreePorts;

/**
 * Configs for the stream tests, built as the config reader would bind them: binding ids are
 * {@code namespaceId << 32 | (index + 1)} for the binding at {@code index}.
 */
final class TcpTestConfigs
{
    static final String LOOPBACK = "127.0.0.1";

    private TcpTestConfigs()
    {
    }

    static long id(int index)
    {
        return 1L << 32 | (index + 1);
    }

    static BindingConfig binding(int index, String name, String type, KindConfig kind, OptionsConfig options,
        RouteConfig... routes)
    {
        return new BindingConfig(id(index), name, type, kind, null, options, List.of(routes));
    }

    static RouteConfig route(int order, String exit, int exitIndex, ConditionConfig... when)
    {
        return new RouteConfig(order, List.of(when), null, exit, id(exitIndex), Map.of());
    }

    static NamespaceConfig namespace(BindingConfig... bindings)
    {
        return new NamespaceConfig("test", List.of(bindings), List.of(), List.of(), TelemetryConfig.EMPTY);
    }

    static TcpOptionsConfig serverOptions(int... ports)
    {
        return new TcpOptionsConfig(LOOPBACK, ports, 1024, true, false, 0L);
    }

    static TcpOptionsConfig clientOptions(String host, int port, long timeout)
    {
        return new TcpOptionsConfig(host, port != 0 ? new int[] {port} : null, 0, true, false, timeout);
    }

    static TcpConditionConfig cidr(String cidr)
    {
        return new TcpConditionConfig(TcpCidr.parse(cidr), null, null);
    }

    /** tcp server {@code net} on {@code port} to echo {@code app}. */
    static NamespaceConfig echo(int... ports)
    {
        return namespace(
            binding(0, "net", "tcp", KindConfig.SERVER, serverOptions(ports), route(0, "app", 1)),
            binding(1, "app", "echo", KindConfig.SERVER, null));
    }

    /** A port nobody listens on now (there is a race with other processes, small enough for tests). */
    static int freePort()
    {
        return FreePorts.next();
    }
}
