/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.idl;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A recursive-descent parser for the IDL; docs/idl.md has the grammar. It stops at the first syntax error,
 * reported with its file, line and column.
 */
public final class IdlParser
{
    private static final Set<String> KEYWORDS = Set.of(
        "scope", "option", "struct", "union", "enum", "typedef", "extends", "switch", "case", "null");

    private static final Set<String> ARRAY_KINDS = Set.of("array8", "array16", "array32", "vararray");

    private final List<Token> tokens;
    private int index;

    private IdlParser(List<Token> tokens)
    {
        this.tokens = tokens;
    }

    /** Parses the text of one IDL file, named {@code file} in error messages. */
    public static Ast.File parse(String file, String text)
    {
        final IdlParser parser = new IdlParser(new IdlLexer(file, text).tokenize());
        return new Ast.File(file, parser.file());
    }

    private List<Ast.Scope> file()
    {
        final List<Ast.Scope> scopes = new ArrayList<>();
        while (peek().kind() != Token.Kind.END)
        {
            if (!peek().is("scope"))
            {
                throw error(peek(), "expected 'scope'");
            }
            scopes.add(scope());
        }
        return scopes;
    }

    private Ast.Scope scope()
    {
        final Position position = expect("scope").position();
        final String name = name("scope");
        expect("{");
        Ast.ByteOrderOption byteOrder = null;
        final List<Ast.Scope> scopes = new ArrayList<>();
        final List<Ast.Definition> definitions = new ArrayList<>();
        while (!peek().is("}"))
        {
            final Token token = peek();
            if (token.is("option"))
            {
                final Ast.ByteOrderOption option = option();
                if (byteOrder != null)
                {
                    throw new IdlException(option.position(), "byteorder is already set for scope '" + name + "'");
                }
                byteOrder = option;
            }
            else if (token.is("scope"))
            {
                scopes.add(scope());
            }
            else if (token.is("struct"))
            {
                definitions.add(struct());
            }
            else if (token.is("union"))
            {
                definitions.add(union());
            }
            else if (token.is("enum"))
            {
                definitions.add(enumeration());
            }
            else if (token.is("typedef"))
            {
                definitions.add(typedef());
            }
            else
            {
                throw error(token, "expected 'option', 'scope', 'struct', 'union', 'enum', 'typedef' or '}'");
            }
        }
        expect("}");
        return new Ast.Scope(position, name, byteOrder, scopes, definitions);
    }

    private Ast.ByteOrderOption option()
    {
        expect("option");
        final Token option = next();
        if (!option.is("byteorder"))
        {
            throw error(option, "expected option 'byteorder'");
        }
        final Token value = next();
        if (!value.is("network") && !value.is("native"))
        {
            throw error(value, "expected byteorder 'network' or 'native'");
        }
        expect(";");
        return new Ast.ByteOrderOption(option.position(), value.text());
    }

    private Ast.Typedef typedef()
    {
        final Position position = expect("typedef").position();
        final Ast.TypeRef type = type();
        final String name = name("typedef");
        expect(";");
        return new Ast.Typedef(position, type, name);
    }

    private Ast.Struct struct()
    {
        final Position position = expect("struct").position();
        final String name = name("struct");
        final Ast.TypeRef supertype = accept("extends") ? qualifiedName() : null;
        final Ast.Literal typeId = typeId();
        expect("{");
        final List<Ast.Field> fields = new ArrayList<>();
        while (!peek().is("}"))
        {
            fields.add(field());
        }
        expect("}");
        return new Ast.Struct(position, name, supertype, typeId, fields);
    }

    private Ast.Field field()
    {
        final Token start = peek();
        if (start.kind() != Token.Kind.IDENTIFIER || KEYWORDS.contains(start.text()))
        {
            throw error(start, "expected a field type or '}'");
        }
        final Ast.TypeRef type = type();
        final String name = name("field");
        final Ast.Literal defaultValue = accept("=") ? literal() : null;
        expect(";");
        return new Ast.Field(start.position(), type, name, defaultValue);
    }

    private Ast.Union union()
    {
        final Position position = expect("union").position();
        final String name = name("union");
        expect("switch");
        expect("(");
        final Ast.TypeRef discriminator = type();
        expect(")");
        final Ast.TypeRef supertype = accept("extends") ? qualifiedName() : null;
        final Ast.Literal typeId = typeId();
        expect("{");
        final List<Ast.Case> cases = new ArrayList<>();
        while (!peek().is("}"))
        {
            final Position casePosition = expect("case").position();
            final Ast.Literal label = peek().kind() == Token.Kind.IDENTIFIER ? identifierLiteral() : numberLiteral();
            expect(":");
            final Ast.TypeRef type = type();
            final String caseName = name("case");
            expect(";");
            cases.add(new Ast.Case(casePosition, label, type, caseName));
        }
        expect("}");
        return new Ast.Union(position, name, discriminator, supertype, typeId, cases);
    }

    private Ast.Enum enumeration()
    {
        final Position position = expect("enum").position();
        final String name = name("enum");
        Ast.TypeRef underlying = null;
        if (accept("("))
        {
            underlying = type();
            expect(")");
        }
        expect("{");
        final List<Ast.Constant> constants = new ArrayList<>();
        do
        {
            if (peek().is("}") && !constants.isEmpty())
            {
                break;
            }
            final Token constant = peek();
            final String constantName = name("enum constant");
            Ast.Literal value = null;
            if (accept("("))
            {
                value = literal();
                expect(")");
            }
            constants.add(new Ast.Constant(constant.position(), constantName, value));
        }
        while (accept(","));
        expect("}");
        return new Ast.Enum(position, name, underlying, constants);
    }

    private Ast.Literal typeId()
    {
        if (!accept("["))
        {
            return null;
        }
        final Ast.Literal typeId = numberLiteral();
        expect("]");
        return typeId;
    }

    private Ast.TypeRef type()
    {
        final Token token = peek();
        if (token.is("octets"))
        {
            next();
            if (!accept("["))
            {
                return new Ast.OctetsType(token.position(), null, null);
            }
            final Token size = next();
            final Ast.OctetsType octets;
            if (size.kind() == Token.Kind.NUMBER)
            {
                octets = new Ast.OctetsType(token.position(), numberLiteral(size), null);
            }
            else if (size.kind() == Token.Kind.IDENTIFIER && !KEYWORDS.contains(size.text()))
            {
                octets = new Ast.OctetsType(token.position(), null, size.text());
            }
            else
            {
                throw error(size, "expected a size or the name of a size field");
            }
            expect("]");
            return octets;
        }
        if (token.kind() == Token.Kind.IDENTIFIER && ARRAY_KINDS.contains(token.text()))
        {
            next();
            expect("<");
            final Ast.TypeRef item = type();
            expect(">");
            return new Ast.ArrayType(token.position(), token.text(), item);
        }
        return qualifiedName();
    }

    private Ast.NamedType qualifiedName()
    {
        final Position position = peek().position();
        final StringBuilder name = new StringBuilder(name("type"));
        while (accept("::"))
        {
            name.append("::").append(name("type"));
        }
        return new Ast.NamedType(position, name.toString());
    }

    private Ast.Literal literal()
    {
        final Token token = peek();
        if (token.kind() == Token.Kind.STRING)
        {
            next();
            return new Ast.Literal(token.position(), Ast.LiteralKind.STRING, token.text(), null);
        }
        if (token.is("null"))
        {
            next();
            return new Ast.Literal(token.position(), Ast.LiteralKind.NULL, "null", null);
        }
        if (token.kind() == Token.Kind.IDENTIFIER)
        {
            return identifierLiteral();
        }
        return numberLiteral();
    }

    private Ast.Literal identifierLiteral()
    {
        final Token token = peek();
        final String name = name("constant");
        return new Ast.Literal(token.position(), Ast.LiteralKind.IDENTIFIER, name, null);
    }

    private Ast.Literal numberLiteral()
    {
        final Token first = next();
        if (first.is("-"))
        {
            final Token digits = next();
            if (digits.kind() != Token.Kind.NUMBER)
            {
                throw error(digits, "expected a number after '-'");
            }
            return new Ast.Literal(first.position(), Ast.LiteralKind.NUMBER, "-" + digits.text(), digits.number().negate());
        }
        if (first.kind() != Token.Kind.NUMBER)
        {
            throw error(first, "expected a number");
        }
        return numberLiteral(first);
    }

    private static Ast.Literal numberLiteral(Token token)
    {
        return new Ast.Literal(token.position(), Ast.LiteralKind.NUMBER, token.text(), token.number());
    }

    private String name(String what)
    {
        final Token token = next();
        if (token.kind() != Token.Kind.IDENTIFIER)
        {
            throw error(token, "expected " + withArticle(what) + " name");
        }
        if (KEYWORDS.contains(token.text()))
        {
            throw new IdlException(token.position(), "'" + token.text() + "' is a keyword and cannot be "
                + withArticle(what) + " name");
        }
        return token.text();
    }

    private static String withArticle(String noun)
    {
        return ("aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ") + noun;
    }

    private Token expect(String punctuationOrWord)
    {
        final Token token = next();
        if (!token.is(punctuationOrWord))
        {
            throw error(token, "expected '" + punctuationOrWord + "'");
        }
        return token;
    }

    private boolean accept(String punctuationOrWord)
    {
        if (peek().is(punctuationOrWord))
        {
            next();
            return true;
        }
        return false;
    }

    private Token peek()
    {
        return tokens.get(index);
    }

    private Token next()
    {
        final Token token = tokens.get(index);
        if (token.kind() != Token.Kind.END)
        {
            index++;
        }
        return token;
    }

    private static IdlException error(Token token, String expectation)
    {
        return new IdlException(token.position(), expectation + " but found " + token.describe());
    }
}
