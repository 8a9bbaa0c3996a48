/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.flyweight.plugin.model.ArrayModel;
import io.zilla.specs.flyweight.plugin.model.DefaultValue;
import io.zilla.specs.flyweight.plugin.model.EnumModel;
import io.zilla.specs.flyweight.plugin.model.JavaNames;
import io.zilla.specs.flyweight.plugin.model.NamedModel;
import io.zilla.specs.flyweight.plugin.model.OctetsModel;
import io.zilla.specs.flyweight.plugin.model.Primitive;
import io.zilla.specs.flyweight.plugin.model.StringKind;
import io.zilla.specs.flyweight.plugin.model.Type;

/**
 * Writes the code of one member, whatever holds it (a struct's field, a union's case): its reader
 * declarations, its decode step, its accessor, and its builder state, setters and default.
 */
final class MemberWriter
{
    private final CodeContext context;

    MemberWriter(CodeContext context)
    {
        this.context = context;
    }

    // ---- the reader -------------------------------------------------------------------------------------------

    /** Declares the flyweight that reads a variable-size member in place. */
    void declareReader(JavaWriter out, Member member)
    {
        if (!member.isInline())
        {
            final String type = readerType(member.type, member.nativeOrder);
            out.line("private final " + type + " " + member.ro() + " = " + newReader(member.type, member.nativeOrder) + ";");
        }
    }

    /**
     * Decodes a variable-size member at the local {@code limit} and moves {@code limit} past it, returning
     * the failure status from {@code decode} when it is truncated or malformed.
     */
    void decodeFlyweight(JavaWriter out, Member member)
    {
        switch (member.kind)
        {
            case OCTETS_FIXED ->
            {
                final int size = ((OctetsModel) member.type).fixedSize();
                out.guard("maxLimit - limit < " + size, "return TRUNCATED;");
                out.line("limit = " + member.ro() + ".decode(buffer, limit, limit + " + size + ");");
            }
            case OCTETS_SIZED ->
            {
                final String size = member.name + "Size";
                out.line("final long " + size + " = " + sizeValue(member.sizeField, true) + ";");
                if (member.sizeField.integer().isSigned())
                {
                    out.guard(size + " < -1", "return MALFORMED;");
                }
                out.guard(size + " > maxLimit - limit", "return TRUNCATED;");
                out.line("limit = " + member.ro() + ".decode(buffer, limit, limit + (int) Math.max(" + size + ", 0L));");
            }
            default ->
            {
                out.line("limit = " + member.ro() + ".decode(buffer, limit, maxLimit);");
                out.guard("limit < 0", "return limit;");
            }
        }
    }

    /** Rejects a numeric enum whose value at {@code position} is not one of its constants. */
    void validateInline(JavaWriter out, Member member, String position)
    {
        if (member.kind == Member.Kind.ENUM)
        {
            final String value = context.read(member.integer(), "buffer", position, member.nativeOrder);
            out.guard(context.enumType((EnumModel) member.type) + ".valueOf(" + value + ") == null", "return MALFORMED;");
        }
    }

    /** Writes the accessor; {@code guard}, when not null, is written first (a union case checks its kind). */
    void accessor(JavaWriter out, Member member, List<String> guard)
    {
        out.blank();
        out.open("public " + accessorType(member) + " " + member.name + "()");
        if (guard != null)
        {
            guard.forEach(out::line);
        }
        out.line("return " + accessorValue(member) + ";");
        out.close();
    }

    /** The accessor's value, as {@code toString} prints it. */
    String describe(Member member)
    {
        return "\"" + member.name + "=\" + " + member.name + "()";
    }

    // ---- the builder ------------------------------------------------------------------------------------------

    /** Declares the builder state a member needs: the builder of a nested value, or where its size goes. */
    void declareBuilder(JavaWriter out, Member member)
    {
        switch (member.kind)
        {
            case STRING, STRING_ENUM, NESTED, ARRAY ->
            {
                final String type = builderType(member);
                out.line("private final " + type + " " + member.rw() + " = " + newBuilder(member) + ";");
            }
            default ->
            {
            }
        }
        if (member.kind == Member.Kind.STRING && member.defaultValue != null
            && member.defaultValue.kind() == DefaultValue.Kind.STRING)
        {
            out.line("private static final " + context.use("org.agrona.DirectBuffer") + " " + defaultConstant(member) + " =");
            out.line("    new " + context.use("org.agrona.concurrent.UnsafeBuffer") + "("
                + Literals.string(member.defaultValue.text()) + ".getBytes("
                + context.use("java.nio.charset.StandardCharsets") + ".UTF_8));");
        }
        if (member.sizedField != null && !member.integer().isVarint())
        {
            out.line("private int " + sizePosition(member) + ";");
        }
    }

    /**
     * Writes the setters of a member. Each checks the order, writes {@code preamble} (a union's kind), then
     * the value, and marks the member set. A size field has none: its octets field writes it.
     */
    void setters(JavaWriter out, Member member, List<String> preamble)
    {
        if (member.sizedField != null)
        {
            return;
        }
        switch (member.kind)
        {
            case INTEGER -> integerSetter(out, member, preamble);
            case ENUM ->
            {
                final String write = context.write(member.integer(), "buffer()", "claim(" + member.inlineSize() + ")",
                    "value.value()", member.nativeOrder);
                setter(out, member, context.enumType((EnumModel) member.type) + " value", null, preamble, List.of(write));
            }
            case VARINT -> varintSetter(out, member, preamble);
            case STRING -> stringSetters(out, member, preamble);
            case STRING_ENUM ->
            {
                final String set = ".set(value.encoded(), 0, value.encoded().capacity())";
                setter(out, member, context.enumType((EnumModel) member.type) + " value", null, preamble,
                    List.of("limit(" + member.rw() + ".wrap(buffer(), limit(), maxLimit())" + set + ".limit());"));
            }
            case OCTETS_FIXED, OCTETS_SIZED, OCTETS_TRAILING -> octetsSetters(out, member, preamble);
            case NESTED -> nestedSetters(out, member, preamble);
            case ARRAY -> arraySetter(out, member);
            default -> throw new IllegalStateException(member.kind.toString());
        }
    }

    /** Writes the {@code fillDefault} case of a member that has a default, or that a later member sizes. */
    void fillDefault(JavaWriter out, Member member)
    {
        final List<String> statements = defaultStatements(member);
        if (statements != null)
        {
            out.label("case " + member.indexConstant + ":");
            statements.forEach(out::line);
            out.line("break;");
            out.endLabel();
        }
    }

    private List<String> defaultStatements(Member member)
    {
        final DefaultValue value = member.defaultValue;
        final String set = "fieldSet(" + member.indexConstant + ");";
        if (member.sizedField != null)
        {
            return sizeFieldDefault(member, set);
        }
        if (member.kind == Member.Kind.ARRAY)
        {
            final String wrap = member.rw() + ".wrap(buffer(), limit(), maxLimit())" + (value != null ? ".setNull()" : "") + ";";
            return List.of(wrap, "limit(" + member.rw() + ".limit());", set);
        }
        if (value == null)
        {
            return null;
        }
        final List<String> statements;
        switch (value.kind())
        {
            case NUMBER -> statements = List.of(member.name + "(" + Literals.integer(value.number(), setterType(member)) + ");");
            case CONSTANT -> statements = List.of(member.name + "(" + context.enumType((EnumModel) member.type) + "."
                + value.constant().name() + ");");
            case STRING -> statements = List.of(member.name + "(" + defaultConstant(member) + ", 0, "
                + defaultConstant(member) + ".capacity());");
            default -> statements = nullDefault(member, set);
        }
        return statements;
    }

    private List<String> nullDefault(Member member, String set)
    {
        final List<String> statements;
        if (member.kind == Member.Kind.STRING)
        {
            statements = List.of(member.name + "((String) null);");
        }
        else if (member.kind == Member.Kind.OCTETS_SIZED && member.sizeField.integer().isVarint())
        {
            statements = List.of(putVarint(member.sizeField.integer(), "-1"), set);
        }
        else
        {
            // a trailing octets is empty; a sized one's size field already holds -1
            statements = List.of(set);
        }
        return statements;
    }

    private List<String> sizeFieldDefault(Member member, String set)
    {
        if (member.integer().isVarint())
        {
            // written with its octets, right after it, once the size is known
            return List.of(set);
        }
        final String placeholder = member.sizedField.defaultValue != null ? "-1" : "0";
        return List.of(sizePosition(member) + " = claim(" + member.inlineSize() + ");",
            context.write(member.integer(), "buffer()", sizePosition(member), placeholder, member.nativeOrder), set);
    }

    private void integerSetter(JavaWriter out, Member member, List<String> preamble)
    {
        final Primitive type = member.integer();
        final List<String> check = type.needsRangeCheck()
            ? rangeCheck(member.name, "value", type.min(), type.max(), type)
            : null;
        final String write = context.write(type, "buffer()", "claim(" + type.size() + ")", "value", member.nativeOrder);
        setter(out, member, type.setterType() + " value", check, preamble, List.of(write));
    }

    private void varintSetter(JavaWriter out, Member member, List<String> preamble)
    {
        final Primitive type = member.integer();
        final List<String> check = type == Primitive.VARUINT32
            ? rangeCheck(member.name, "value", type.min(), type.max(), type)
            : null;
        setter(out, member, type.setterType() + " value", check, preamble, List.of(putVarint(type, "value")));
    }

    private String putVarint(Primitive type, String value)
    {
        final String varints = context.runtime("Varints");
        final String raw = switch (type)
        {
            case VARINT32 -> varints + ".zigZag32(" + value + ")";
            case VARINT64 -> varints + ".zigZag64(" + value + ")";
            default -> "(long) " + value;
        };
        return varints + ".putUnsigned(buffer(), claim(" + varints + ".sizeofUnsigned(" + raw + ")), " + raw + ");";
    }

    private void stringSetters(JavaWriter out, Member member, List<String> preamble)
    {
        final String wrap = member.rw() + ".wrap(buffer(), limit(), maxLimit())";
        setter(out, member, "String value", null, preamble, List.of("limit(" + wrap + ".set(value).limit());"));
        setter(out, member, context.use("org.agrona.DirectBuffer") + " value, int index, int length", null, preamble,
            List.of("limit(" + wrap + ".set(value, index, length).limit());"));
        setter(out, member, context.runtime("StringFW") + " value", null, preamble,
            List.of("limit(" + wrap + ".set(value).limit());"));
    }

    private void octetsSetters(JavaWriter out, Member member, List<String> preamble)
    {
        final String buffer = context.use("org.agrona.DirectBuffer");
        List<String> check = null;
        final List<String> body = new ArrayList<>();
        if (member.kind == Member.Kind.OCTETS_FIXED)
        {
            final int size = ((OctetsModel) member.type).fixedSize();
            check = guard("length != " + size, "throw new IllegalArgumentException(builderName() + \": " + member.name
                + " takes " + size + " bytes, not \" + length);");
        }
        else if (member.kind == Member.Kind.OCTETS_SIZED)
        {
            final Primitive size = member.sizeField.integer();
            final long max = Math.min(size.max(), Integer.MAX_VALUE);
            check = rangeCheck(member.name + " length", "length", 0, max, Primitive.INT32);
            body.add(size.isVarint()
                ? putVarint(size, "length")
                : context.write(size, "buffer()", sizePosition(member.sizeField), "length", member.sizeField.nativeOrder));
        }
        body.add("buffer().putBytes(claim(length), value, index, length);");
        setter(out, member, buffer + " value, int index, int length", check, preamble, body);

        out.blank();
        out.open("public Builder " + member.name + "(" + context.runtime("OctetsFW") + " value)");
        out.line("return " + member.name + "(value.buffer(), value.offset(), value.sizeof());");
        out.close();
        out.blank();
        out.open("public Builder " + member.name + "(byte[] value)");
        out.line("return " + member.name + "(view(value), 0, value.length);");
        out.close();
    }

    private void nestedSetters(JavaWriter out, Member member, List<String> preamble)
    {
        final String flyweight = context.flyweight((NamedModel) member.type);
        setter(out, member, context.use("java.util.function.Consumer") + "<" + flyweight + ".Builder> mutator", null, preamble,
            List.of(member.rw() + ".wrap(buffer(), limit(), maxLimit());",
                "mutator.accept(" + member.rw() + ");",
                "limit(" + member.rw() + ".build().limit());"));
        setter(out, member, flyweight + " value", null, preamble,
            List.of("buffer().putBytes(claim(value.sizeof()), value.buffer(), value.offset(), value.sizeof());"));
    }

    private void arraySetter(JavaWriter out, Member member)
    {
        final ArrayModel array = (ArrayModel) member.type;
        final String consumer = context.use("java.util.function.Consumer");
        out.blank();
        out.line("/** Appends an item to " + member.name + ". */");
        out.open("public Builder " + JavaNames.itemSetterName(member.name) + "(" + consumer + "<"
            + itemBuilderType(array.item(), member.nativeOrder) + "> mutator)");
        out.open("if (lastFieldSet() != " + member.indexConstant + ")");
        out.line("prepare(" + member.indexConstant + ");");
        out.line(member.rw() + ".wrap(buffer(), limit(), maxLimit());");
        out.line("fieldSet(" + member.indexConstant + ");");
        out.close();
        out.line(member.rw() + ".item(mutator);");
        out.line("limit(" + member.rw() + ".limit());");
        out.line("return this;");
        out.close();
    }

    private void setter(JavaWriter out, Member member, String parameters, List<String> check, List<String> preamble,
        List<String> body)
    {
        out.blank();
        out.open("public Builder " + member.name + "(" + parameters + ")");
        if (check != null)
        {
            check.forEach(out::line);
        }
        out.line("prepare(" + member.indexConstant + ");");
        preamble.forEach(out::line);
        body.forEach(out::line);
        out.line("fieldSet(" + member.indexConstant + ");");
        out.line("return this;");
        out.close();
    }

    private static List<String> rangeCheck(String field, String value, long min, long max, Primitive type)
    {
        final String suffix = "long".equals(type.setterType()) ? "L" : "";
        return guard(value + " < " + min + suffix + " || " + value + " > " + max + suffix,
            "throw outOfRange(\"" + field + "\", " + value + ", " + min + "L, " + max + "L);");
    }

    private static List<String> guard(String condition, String statement)
    {
        return List.of("if (" + condition + ")", "{", "    " + statement, "}");
    }

    // ---- types and expressions --------------------------------------------------------------------------------

    private String accessorType(Member member)
    {
        return switch (member.kind)
        {
            case INTEGER, VARINT -> member.integer().javaType();
            case ENUM, STRING_ENUM -> context.enumType((EnumModel) member.type);
            default -> readerType(member.type, member.nativeOrder);
        };
    }

    private String accessorValue(Member member)
    {
        return switch (member.kind)
        {
            case INTEGER -> context.read(member.integer(), "buffer()", member.position(false), member.nativeOrder);
            case ENUM -> context.enumType((EnumModel) member.type) + ".valueOf("
                + context.read(member.integer(), "buffer()", member.position(false), member.nativeOrder) + ")";
            case VARINT -> member.ro() + ".value()";
            case STRING_ENUM -> member.ro() + ".get()";
            case OCTETS_SIZED -> member.sizeField.integer().isSigned()
                ? sizeValue(member.sizeField, false) + " == -1 ? null : " + member.ro()
                : member.ro();
            default -> member.ro();
        };
    }

    /** The value of a size field, during decode or in an accessor. */
    private String sizeValue(Member sizeField, boolean decoding)
    {
        return sizeField.integer().isVarint()
            ? sizeField.ro() + ".value()"
            : context.read(sizeField.integer(), decoding ? "buffer" : "buffer()", sizeField.position(decoding),
                sizeField.nativeOrder);
    }

    /** The flyweight class that reads a type. */
    String readerType(Type type, boolean nativeOrder)
    {
        final String name;
        if (type instanceof Primitive primitive)
        {
            name = context.runtime(switch (primitive)
            {
                case VARINT32 -> "Varint32FW";
                case VARINT64 -> "Varint64FW";
                default -> "Varuint32FW";
            });
        }
        else if (type instanceof StringKind string)
        {
            name = context.runtime(string.flyweight());
        }
        else if (type instanceof OctetsModel)
        {
            name = context.runtime("OctetsFW");
        }
        else if (type instanceof ArrayModel array)
        {
            name = context.runtime(array.kind().flyweight()) + "<" + readerType(array.item(), nativeOrder) + ">";
        }
        else
        {
            name = context.flyweight((NamedModel) type);
        }
        return name;
    }

    private String newReader(Type type, boolean nativeOrder)
    {
        final String creation;
        if (type instanceof StringKind string && string.isOrdered())
        {
            creation = "new " + readerType(type, nativeOrder) + "(" + context.byteOrder(nativeOrder) + ")";
        }
        else if (type instanceof ArrayModel array)
        {
            final String item = newReader(array.item(), nativeOrder);
            final String order = array.kind().isOrdered() ? ", " + context.byteOrder(nativeOrder) : "";
            creation = "new " + context.runtime(array.kind().flyweight()) + "<>(" + item + order + ")";
        }
        else
        {
            creation = "new " + readerType(type, nativeOrder) + "()";
        }
        return creation;
    }

    private String builderType(Member member)
    {
        final String type;
        if (member.type instanceof ArrayModel array)
        {
            final String item = array.item() instanceof StringKind || array.item() instanceof NamedModel
                ? itemBuilderType(array.item(), member.nativeOrder) + ", " + readerType(array.item(), member.nativeOrder)
                : "";
            type = context.runtime(array.kind().flyweight()) + ".Builder<" + item + ">";
        }
        else if (member.type instanceof EnumModel enumeration)
        {
            type = context.runtime(((StringKind) enumeration.underlying()).flyweight()) + ".Builder";
        }
        else
        {
            type = itemBuilderType(member.type, member.nativeOrder);
        }
        return type;
    }

    private String itemBuilderType(Type type, boolean nativeOrder)
    {
        return readerType(type, nativeOrder) + ".Builder";
    }

    private String newBuilder(Member member)
    {
        final String creation;
        if (member.type instanceof ArrayModel array)
        {
            final String order = array.kind().isOrdered() ? ", " + context.byteOrder(member.nativeOrder) : "";
            creation = "new " + context.runtime(array.kind().flyweight()) + ".Builder<>(" + newItemBuilder(array.item(),
                member.nativeOrder) + ", " + newReader(array.item(), member.nativeOrder) + order + ")";
        }
        else if (member.type instanceof EnumModel enumeration)
        {
            // a string enum is written as its underlying string, in the order of the enum's own scope
            final NamedModel model = enumeration;
            creation = newItemBuilder(enumeration.underlying(), model.scope().nativeOrder());
        }
        else
        {
            creation = newItemBuilder(member.type, member.nativeOrder);
        }
        return creation;
    }

    private String newItemBuilder(Type type, boolean nativeOrder)
    {
        final boolean ordered = type instanceof StringKind string && string.isOrdered();
        return "new " + itemBuilderType(type, nativeOrder) + "(" + (ordered ? context.byteOrder(nativeOrder) : "") + ")";
    }

    private String setterType(Member member)
    {
        return member.integer().setterType();
    }

    private String defaultConstant(Member member)
    {
        return JavaNames.constantName("DEFAULT_", member.name);
    }

    private static String sizePosition(Member sizeField)
    {
        return sizeField.name + "Position";
    }
}
