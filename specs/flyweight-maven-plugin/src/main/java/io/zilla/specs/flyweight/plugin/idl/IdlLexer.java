/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.idl;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits IDL text into tokens: identifiers, decimal and hexadecimal integers, double-quoted strings and
 * punctuation ({@code :: { } ( ) [ ] < > ; , = : -}). Comments are {@code //} to the end of the line
 * and {@code /* ... *}{@code /}.
 */
public final class IdlLexer
{
    private static final Pattern DECIMAL = Pattern.compile("[0-9]+(_[0-9]+)*");
    private static final Pattern HEX = Pattern.compile("0[xX][0-9a-fA-F]+(_[0-9a-fA-F]+)*");

    private final String file;
    private final String text;

    private int index;
    private int line = 1;
    private int column = 1;

    public IdlLexer(String file, String text)
    {
        this.file = file;
        this.text = text;
    }

    public List<Token> tokenize()
    {
        final List<Token> tokens = new ArrayList<>();
        Token token;
        do
        {
            token = next();
            tokens.add(token);
        }
        while (token.kind() != Token.Kind.END);
        return tokens;
    }

    private Token next()
    {
        skipSpaceAndComments();
        final Position position = position();
        if (index >= text.length())
        {
            return new Token(Token.Kind.END, "", null, position);
        }
        final char c = text.charAt(index);
        final Token token;
        if (Character.isJavaIdentifierStart(c))
        {
            token = new Token(Token.Kind.IDENTIFIER, take(this::isIdentifierPart), null, position);
        }
        else if (isAsciiDigit(c))
        {
            token = number(position);
        }
        else if (c == '"')
        {
            token = string(position);
        }
        else if (c == ':' && peek(1) == ':')
        {
            advance();
            advance();
            token = new Token(Token.Kind.PUNCTUATION, "::", null, position);
        }
        else if ("{}()[]<>;,=:-".indexOf(c) >= 0)
        {
            advance();
            token = new Token(Token.Kind.PUNCTUATION, String.valueOf(c), null, position);
        }
        else
        {
            throw new IdlException(position, "unexpected character '" + c + "'");
        }
        return token;
    }

    private Token number(Position position)
    {
        // take everything an identifier could hold, so that 12ab or 1_ is one malformed number, not two tokens
        final String digits = take(this::isIdentifierPart);
        final BigInteger value;
        if (HEX.matcher(digits).matches())
        {
            value = new BigInteger(digits.substring(2).replace("_", ""), 16);
        }
        else if (DECIMAL.matcher(digits).matches())
        {
            value = new BigInteger(digits.replace("_", ""), 10);
        }
        else
        {
            throw new IdlException(position, "malformed number '" + digits + "' (decimal digits or 0x and hex digits, "
                + "with single '_' only between digits)");
        }
        return new Token(Token.Kind.NUMBER, digits, value, position);
    }

    private static boolean isAsciiDigit(char c)
    {
        return c >= '0' && c <= '9';
    }

    private Token string(Position position)
    {
        advance();
        final StringBuilder value = new StringBuilder();
        while (true)
        {
            if (index >= text.length() || text.charAt(index) == '\n')
            {
                throw new IdlException(position, "unterminated string");
            }
            final char c = text.charAt(index);
            advance();
            if (c == '"')
            {
                break;
            }
            if (c == '\\')
            {
                value.append(escape(position));
            }
            else
            {
                value.append(c);
            }
        }
        return new Token(Token.Kind.STRING, value.toString(), null, position);
    }

    private char escape(Position stringPosition)
    {
        if (index >= text.length() || text.charAt(index) == '\n')
        {
            throw new IdlException(stringPosition, "unterminated string");
        }
        final Position position = position();
        final char c = text.charAt(index);
        advance();
        return switch (c)
        {
            case '"', '\\' -> c;
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            default -> throw new IdlException(position, "unknown escape '\\" + c + "' (use \\\", \\\\, \\n, \\r or \\t)");
        };
    }

    private void skipSpaceAndComments()
    {
        while (index < text.length())
        {
            final char c = text.charAt(index);
            if (Character.isWhitespace(c))
            {
                advance();
            }
            else if (c == '/' && peek(1) == '/')
            {
                while (index < text.length() && text.charAt(index) != '\n')
                {
                    advance();
                }
            }
            else if (c == '/' && peek(1) == '*')
            {
                final Position start = position();
                advance();
                advance();
                while (!(peek(0) == '*' && peek(1) == '/'))
                {
                    if (index >= text.length())
                    {
                        throw new IdlException(start, "unterminated comment");
                    }
                    advance();
                }
                advance();
                advance();
            }
            else
            {
                break;
            }
        }
    }

    private boolean isIdentifierPart(char c)
    {
        return Character.isJavaIdentifierPart(c);
    }

    private String take(CharTest test)
    {
        final int start = index;
        while (index < text.length() && test.test(text.charAt(index)))
        {
            advance();
        }
        return text.substring(start, index);
    }

    private char peek(int ahead)
    {
        final int at = index + ahead;
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void advance()
    {
        if (text.charAt(index) == '\n')
        {
            line++;
            column = 1;
        }
        else
        {
            column++;
        }
        index++;
    }

    private Position position()
    {
        return new Position(file, line, column);
    }

    @FunctionalInterface
    private interface CharTest
    {
        boolean test(char c);
    }
}
