/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.idl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A syntax error stops the parse at its first problem, reported as {@code file:line:column: message}. */
class IdlParserErrorTest
{
    @Test
    void shouldReportMissingSemicolon()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    int32 x
                }
            }
            """, 6, 5, "expected ';' but found '}'");
    }

    @Test
    void shouldReportMissingClosingBraceOfScope()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    int32 x;
                }
            """, 7, 1, "expected 'option', 'scope', 'struct', 'union', 'enum', 'typedef' or '}' but found end of file");
    }

    @Test
    void shouldReportEndOfFileInsideStruct()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    int32 x;
            """, 6, 1, "expected a field type or '}' but found end of file");
    }

    @Test
    void shouldReportEndOfFileAfterMinus()
    {
        assertParseError("scope s\n{\n    struct A\n    {\n        int32 x = -", 5, 20,
            "expected a number after '-' but found end of file");
    }

    @Test
    void shouldReportUnterminatedStringAtItsStart()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    string8 x = "abc
                }
            }
            """, 5, 21, "unterminated string");
    }

    @Test
    void shouldReportStringUnterminatedAtEndOfFile()
    {
        assertParseError("scope s\n{\n    struct A\n    {\n        string8 s = \"abc", 5, 21, "unterminated string");
    }

    @Test
    void shouldReportUnterminatedCommentAtItsStart()
    {
        assertParseError("""
            scope s
            {
                /* never closed
                struct A
                {
                }
            }
            """, 3, 5, "unterminated comment");
    }

    @Test
    void shouldReportUnknownEscape()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    string8 x = "a\\qb";
                }
            }
            """, 5, 24, "unknown escape '\\q' (use \\\", \\\\, \\n, \\r or \\t)");
    }

    @Test
    void shouldReportUnexpectedCharacter()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    int32 x @;
                }
            }
            """, 5, 17, "unexpected character '@'");
    }

    @Test
    void shouldReportUnknownOption()
    {
        assertParseError("""
            scope s
            {
                option endian native;
            }
            """, 3, 12, "expected option 'byteorder' but found 'endian'");
    }

    @Test
    void shouldReportUnknownByteOrder()
    {
        assertParseError("""
            scope s
            {
                option byteorder little;
            }
            """, 3, 22, "expected byteorder 'network' or 'native' but found 'little'");
    }

    @Test
    void shouldReportDuplicateByteOrder()
    {
        assertParseError("""
            scope s
            {
                option byteorder native;
                option byteorder network;
            }
            """, 4, 12, "byteorder is already set for scope 's'");
    }

    @Test
    void shouldReportMinusNotFollowedByNumber()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    int32 x = - y;
                }
            }
            """, 5, 21, "expected a number after '-' but found 'y'");
    }

    @Test
    void shouldReportMalformedHexNumber()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    int32 x = 0xZZ;
                }
            }
            """, 5, 19, "malformed number '0xZZ' (decimal digits or 0x and hex digits, "
            + "with single '_' only between digits)");
    }

    @Test
    void shouldReportNumberRunningIntoLetters()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    int32 x = 12ab;
                }
            }
            """, 5, 19, "malformed number '12ab' (decimal digits or 0x and hex digits, "
            + "with single '_' only between digits)");
    }

    @Test
    void shouldReportDefinitionOutsideScope()
    {
        assertParseError("""
            // a comment first
            struct A
            {
            }
            """, 2, 1, "expected 'scope' but found 'struct'");
    }

    @Test
    void shouldReportTypeIdThatIsNotNumber()
    {
        assertParseError("""
            scope s
            {
                struct A [x]
                {
                }
            }
            """, 3, 15, "expected a number but found 'x'");
    }

    @Test
    void shouldReportMissingColonAfterCaseLabel()
    {
        assertParseError("""
            scope s
            {
                union U switch (uint8)
                {
                    case 1 int32 x;
                }
            }
            """, 5, 16, "expected ':' but found 'int32'");
    }

    @Test
    void shouldReportStringCaseLabel()
    {
        assertParseError("""
            scope s
            {
                union U switch (uint8)
                {
                    case "a": int32 x;
                }
            }
            """, 5, 14, "expected a number but found string \"a\"");
    }

    @Test
    void shouldReportMissingSwitch()
    {
        assertParseError("""
            scope s
            {
                union U (uint8)
                {
                }
            }
            """, 3, 13, "expected 'switch' but found '('");
    }

    @Test
    void shouldReportEmptyOctetsSize()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    octets[] x;
                }
            }
            """, 5, 16, "expected a size or the name of a size field but found ']'");
    }

    @Test
    void shouldReportUnclosedArrayItem()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    array8<Point x;
                }
            }
            """, 5, 22, "expected '>' but found 'x'");
    }

    @Test
    void shouldReportFieldStartingWithKeyword()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    struct B;
                }
            }
            """, 5, 9, "expected a field type or '}' but found 'struct'");
    }

    @Test
    void shouldReportMissingFieldName()
    {
        assertParseError("""
            scope s
            {
                struct A
                {
                    int32 = 1;
                }
            }
            """, 5, 15, "expected a field name but found '='");
    }

    @Test
    void shouldReportMissingScopeBody()
    {
        assertParseError("scope s;", 1, 8, "expected '{' but found ';'");
    }

    @Test
    void shouldReportBackslashAtEndOfLineAsUnterminatedString()
    {
        assertParseError("scope s\n{\n    struct S { string8 s = \"abc\\\n\"; }\n}\n", 3, 28, "unterminated string");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1_", "0x_ff", "1__0", "0x", "0xff_", "0x1g"})
    void shouldReportMisplacedUnderscoresAndEmptyDigits(String number)
    {
        final String text = "scope s\n{\n    struct S { int32 x = " + number + "; }\n}\n";
        assertParseError(text, 3, 26, "malformed number '" + number + "' (decimal digits or 0x and hex digits, "
            + "with single '_' only between digits)");
    }

    @Test
    void shouldAcceptUnderscoresBetweenDigits()
    {
        final String text = "scope s\n{\n    struct S { int32 x = 0x7f_ff; int32 y = 1_000; }\n}\n";
        final Ast.File file = IdlParser.parse("file.idl", text);

        final Ast.Struct struct = (Ast.Struct) file.scopes().get(0).definitions().get(0);
        assertEquals(BigInteger.valueOf(0x7fff), struct.fields().get(0).defaultValue().number());
        assertEquals(BigInteger.valueOf(1000), struct.fields().get(1).defaultValue().number());
    }

    @Test
    void shouldRejectNonAsciiDigits()
    {
        assertParseError("scope s\n{\n    struct S { int32 x = \u0661; }\n}\n", 3, 26, "unexpected character '\u0661'");
    }

    @Test
    void shouldNameKeywordUsedAsName()
    {
        assertParseError("""
            scope s
            {
                struct S
                {
                    int32 case;
                }
            }
            """, 5, 15, "'case' is a keyword and cannot be a field name");
    }

    @Test
    void shouldUseAnArticleBeforeVowels()
    {
        assertParseError("scope s\n{\n    enum 1 { A }\n}\n", 3, 10, "expected an enum name but found number 1");
    }

    private static void assertParseError(String text, int line, int column, String message)
    {
        final IdlException ex = assertThrows(IdlException.class, () -> IdlParser.parse("file.idl", text));

        assertEquals("file.idl:" + line + ":" + column + ": " + message, ex.getMessage());
        assertEquals(new Position("file.idl", line, column), ex.position());
    }
}
