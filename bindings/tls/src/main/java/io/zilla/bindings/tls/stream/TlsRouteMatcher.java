/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.util.List;
import java.util.function.Predicate;

import io.zilla.bindings.tls.config.TlsConditionConfig;
import io.zilla.engine.config.ConditionConfig;

/** Tests a binding's route conditions against one ClientHello; reused for every connection of the worker. */
final class TlsRouteMatcher implements Predicate<ConditionConfig>
{
    private String serverName;
    private List<String> protocols;
    private int port;

    TlsRouteMatcher with(String serverName, List<String> protocols, int port)
    {
        this.serverName = serverName;
        this.protocols = protocols;
        this.port = port;
        return this;
    }

    @Override
    public boolean test(ConditionConfig condition)
    {
        return condition instanceof TlsConditionConfig tls && tls.matches(serverName, protocols, port);
    }
}
