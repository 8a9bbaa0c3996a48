/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import io.zilla.specs.flyweight.plugin.idl.IdlParser;
import org.junit.jupiter.api.Test;

/** How the resolver reports: every problem in one run, in file, line and column order. */
class ErrorReportingTest
{
    @Test
    void shouldReportLayoutErrorsTogetherWithUnresolvedNames()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    Missing m;
                    octets rest;
                    int32 after;
                }
            }
            """,
            "file.idl:5:9: unknown type 'Missing'",
            "file.idl:6:9: 'rest' (octets) takes the rest of the bytes, so it must be the last field of A");
    }

    @Test
    void shouldListErrorsInPositionOrder()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    octets rest;
                    int32 after;
                    Missing m;
                }
            }
            """,
            "file.idl:5:9: 'rest' (octets) takes the rest of the bytes, so it must be the last field of A",
            "file.idl:7:9: unknown type 'Missing'");
    }

    private static void assertErrors(String text, String... expected)
    {
        final IdlErrors ex = assertThrows(IdlErrors.class, () -> Resolver.resolve(List.of(IdlParser.parse("file.idl", text)),
            List.of(), Resolver.DEFAULT_PACKAGE_PREFIX));

        assertEquals(List.of(expected), ex.errors());
    }
}
