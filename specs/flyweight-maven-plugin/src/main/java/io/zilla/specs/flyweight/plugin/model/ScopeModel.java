/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

/** A scope: its {@code ::}-qualified name, the Java package it generates into, and its byte order. */
public record ScopeModel(String qualifiedName, String packageName, boolean nativeOrder)
{
}
