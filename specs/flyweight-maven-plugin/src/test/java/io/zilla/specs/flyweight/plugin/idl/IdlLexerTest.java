/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.idl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.List;

import org.junit.jupiter.api.Test;

class IdlLexerTest
{
    @Test
    void shouldSplitIdentifiersNumbersStringsAndPunctuation()
    {
        final List<Token> tokens = new IdlLexer("t.idl", "core::stream::Frame x = -42;").tokenize();

        assertEquals(List.of("core", "::", "stream", "::", "Frame", "x", "=", "-", "42", ";", ""), texts(tokens));
        assertEquals(List.of(Token.Kind.IDENTIFIER, Token.Kind.PUNCTUATION, Token.Kind.IDENTIFIER, Token.Kind.PUNCTUATION,
            Token.Kind.IDENTIFIER, Token.Kind.IDENTIFIER, Token.Kind.PUNCTUATION, Token.Kind.PUNCTUATION, Token.Kind.NUMBER,
            Token.Kind.PUNCTUATION, Token.Kind.END), tokens.stream().map(Token::kind).toList());
        assertEquals(BigInteger.valueOf(42), tokens.get(8).number());
        assertNull(tokens.get(0).number());
    }

    @Test
    void shouldTellDoubleColonFromColon()
    {
        final List<Token> tokens = new IdlLexer("t.idl", "case 1: a::b : :").tokenize();

        assertEquals(List.of("case", "1", ":", "a", "::", "b", ":", ":", ""), texts(tokens));
    }

    @Test
    void shouldReadEveryPunctuationCharacter()
    {
        final List<Token> tokens = new IdlLexer("t.idl", "{}()[]<>;,=:-").tokenize();

        assertEquals(List.of("{", "}", "(", ")", "[", "]", "<", ">", ";", ",", "=", ":", "-", ""), texts(tokens));
    }

    @Test
    void shouldReadDecimalHexAndUnderscoredNumbers()
    {
        final List<Token> tokens = new IdlLexer("t.idl", "0 255 0xff 0XFF 0x7fff_ffff 1_000_000 9223372036854775808").tokenize();

        assertEquals(BigInteger.ZERO, tokens.get(0).number());
        assertEquals(BigInteger.valueOf(255), tokens.get(1).number());
        assertEquals(BigInteger.valueOf(255), tokens.get(2).number());
        assertEquals(BigInteger.valueOf(255), tokens.get(3).number());
        assertEquals(BigInteger.valueOf(0x7fff_ffffL), tokens.get(4).number());
        assertEquals("0x7fff_ffff", tokens.get(4).text());
        assertEquals(BigInteger.valueOf(1_000_000), tokens.get(5).number());
        assertEquals(new BigInteger("9223372036854775808"), tokens.get(6).number());
    }

    @Test
    void shouldUnescapeStrings()
    {
        final List<Token> tokens = new IdlLexer("t.idl", "\"a\\\"b\\\\c\\nd\\te\\rf\" \"\" \"é\"").tokenize();

        assertEquals(Token.Kind.STRING, tokens.get(0).kind());
        assertEquals("a\"b\\c\nd\te\rf", tokens.get(0).text());
        assertEquals("", tokens.get(1).text());
        assertEquals("é", tokens.get(2).text());
    }

    @Test
    void shouldSkipCommentsAndCountLinesAndColumns()
    {
        final String text = """
            // a line comment with "quotes" and /* a block */
            scope /* inline */ s
            /*
             * a block comment over lines, with // and * inside
             */
              {
            }""";

        final List<Token> tokens = new IdlLexer("t.idl", text).tokenize();

        assertEquals(List.of("scope", "s", "{", "}", ""), texts(tokens));
        assertEquals(new Position("t.idl", 2, 1), tokens.get(0).position());
        assertEquals(new Position("t.idl", 2, 20), tokens.get(1).position());
        assertEquals(new Position("t.idl", 6, 3), tokens.get(2).position());
        assertEquals(new Position("t.idl", 7, 1), tokens.get(3).position());
        assertEquals(new Position("t.idl", 7, 2), tokens.get(4).position());
    }

    @Test
    void shouldEndAtEndOfFileAfterTrailingComment()
    {
        final List<Token> tokens = new IdlLexer("t.idl", "scope\n// the end").tokenize();

        assertEquals(2, tokens.size());
        assertEquals(Token.Kind.END, tokens.get(1).kind());
        assertEquals(new Position("t.idl", 2, 11), tokens.get(1).position());
    }

    @Test
    void shouldDescribeTokensForErrorMessages()
    {
        final List<Token> tokens = new IdlLexer("t.idl", "name 0x1f \"text\" ;").tokenize();

        assertEquals("'name'", tokens.get(0).describe());
        assertEquals("number 0x1f", tokens.get(1).describe());
        assertEquals("string \"text\"", tokens.get(2).describe());
        assertEquals("';'", tokens.get(3).describe());
        assertEquals("end of file", tokens.get(4).describe());
    }

    @Test
    void shouldRejectUnexpectedCharacter()
    {
        final IdlException ex = assertThrows(IdlException.class, () -> new IdlLexer("t.idl", "scope s\n{ # }").tokenize());

        assertEquals("t.idl:2:3: unexpected character '#'", ex.getMessage());
        assertEquals(new Position("t.idl", 2, 3), ex.position());
    }

    private static List<String> texts(List<Token> tokens)
    {
        return tokens.stream().map(Token::text).toList();
    }
}
