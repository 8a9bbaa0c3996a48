/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HostPatternTest
{
    @Test
    void shouldMatchExactNamesIgnoringCase()
    {
        assertTrue(HostPattern.matches("broker-1.example.com", "Broker-1.Example.COM"));
        assertFalse(HostPattern.matches("broker-1.example.com", "broker-1.example.co"));
        assertFalse(HostPattern.matches("broker-1.example.com", "broker-1.example.com."));
    }

    @Test
    void shouldLetAStarStandForPartOfOneLabelOnly()
    {
        assertTrue(HostPattern.matches("*.example.com", "www.example.com"));
        assertTrue(HostPattern.matches("broker-*.example.com", "broker-12.example.com"));
        assertTrue(HostPattern.matches("broker-*.example.com", "broker-.example.com"));
        assertFalse(HostPattern.matches("*.example.com", "a.b.example.com"));
        assertFalse(HostPattern.matches("*.example.com", "example.com"));
        assertTrue(HostPattern.matches("*.*.example.com", "a.b.example.com"));
    }
}
