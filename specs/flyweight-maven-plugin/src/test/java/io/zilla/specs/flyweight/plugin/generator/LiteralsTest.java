/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;

import org.junit.jupiter.api.Test;

class LiteralsTest
{
    @Test
    void shouldSpellIntegersOfJavaType()
    {
        assertEquals("-128", Literals.integer(BigInteger.valueOf(-128), "int"));
        assertEquals("4294967295L", Literals.integer(BigInteger.valueOf(0xffff_ffffL), "long"));
        assertEquals("-9223372036854775808L", Literals.integer(BigInteger.valueOf(Long.MIN_VALUE), "long"));
    }

    @Test
    void shouldEscapeStrings()
    {
        assertEquals("\"plain\"", Literals.string("plain"));
        assertEquals("\"say \\\"hi\\\" \\\\ \\n\\r\\t\"", Literals.string("say \"hi\" \\ \n\r\t"));
        assertEquals("\"b\\u00e9ta \\u0001\"", Literals.string("béta \u0001"));
        assertEquals("\"\"", Literals.string(""));
    }
}
