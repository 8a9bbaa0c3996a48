/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import java.util.function.Predicate;

import io.zilla.bindings.tcp.config.TcpConditionConfig;
import io.zilla.engine.config.ConditionConfig;

/** Tests a binding's route conditions against one connection; reused for every connection, so routing allocates nothing. */
final class TcpRouteMatcher implements Predicate<ConditionConfig>
{
    private byte[] address;
    private String authority;
    private int port;

    TcpRouteMatcher with(byte[] address, String authority, int port)
    {
        this.address = address;
        this.authority = authority;
        this.port = port;
        return this;
    }

    @Override
    public boolean test(ConditionConfig condition)
    {
        return condition instanceof TcpConditionConfig tcp && tcp.matches(address, authority, port);
    }
}
