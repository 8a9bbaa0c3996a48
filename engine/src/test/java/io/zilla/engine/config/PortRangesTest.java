/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PortRangesTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldParseAPort() throws Exception
    {
        assertArrayEquals(new int[] {8080}, PortRanges.parse(json("8080")));
        assertArrayEquals(new int[] {8080}, PortRanges.parse(json("\"8080\"")));
        assertArrayEquals(new int[] {0}, PortRanges.parse(json("0")));
        assertArrayEquals(new int[] {65535}, PortRanges.parse(json("65535")));
    }

    @Test
    void shouldParseARangeWithBothEnds() throws Exception
    {
        assertArrayEquals(new int[] {8000, 8001, 8002}, PortRanges.parse(json("\"8000-8002\"")));
        assertArrayEquals(new int[] {7}, PortRanges.parse("7-7"));
    }

    @Test
    void shouldParseAListSortedWithoutDuplicates() throws Exception
    {
        assertArrayEquals(new int[] {80, 443, 8000, 8001}, PortRanges.parse(json("[8001, \"443\", 80, \"8000-8001\", 443]")));
    }

    @Test
    void shouldParseNothingToNull() throws Exception
    {
        assertNull(PortRanges.parse((JsonNode) null));
        assertNull(PortRanges.parse(json("null")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "65536", "\"http\"", "\"9000-8000\"", "\"1-2-3\"", "true", "1.5", "[]", "[[80]]", "{}",
        "\"1-65535\""})
    void shouldRefuse(String value)
    {
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> PortRanges.parse(json(value)));
        assertTrue(failure.getMessage().startsWith(PortRanges.MESSAGE), failure.getMessage());
    }

    private static JsonNode json(String text) throws Exception
    {
        return JSON.readTree(text);
    }
}
