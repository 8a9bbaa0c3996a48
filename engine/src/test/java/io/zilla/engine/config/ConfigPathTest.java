/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The path a type's ConfigValueException gives, from the node it was given, as the source map knows it. */
class ConfigPathTest
{
    private final ConfigPath binding = ConfigPath.of("bindings", "north");

    @Test
    void shouldAppendDottedPropertyNames()
    {
        assertEquals(ConfigPath.of("bindings", "north", "options", "keys", "store"), binding.properties("options.keys.store"));
        assertEquals(binding, binding.properties(""));
    }

    @Test
    void shouldAppendTheIndexesWrittenAfterAName()
    {
        final ConfigPath exit = binding.properties("routes[2].exit");
        assertEquals(ConfigPath.of("bindings", "north", "routes", 2, "exit"), exit);
        assertEquals("bindings.north.routes[2].exit", exit.toString());
        assertEquals(ConfigPath.of("bindings", "north", "options", "matrix", 0, 11), binding.properties("options.matrix[0][11]"));
    }

    @Test
    void shouldKeepANameWhoseBracketsAreNotAnIndex()
    {
        assertEquals(ConfigPath.of("bindings", "north", "headers", "x[a]"), binding.properties("headers.x[a]"));
        assertEquals(ConfigPath.of("bindings", "north", "[0]"), binding.properties("[0]"));
    }
}
