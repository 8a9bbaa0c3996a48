/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

import java.util.List;

import io.zilla.specs.flyweight.plugin.model.EnumConstant;
import io.zilla.specs.flyweight.plugin.model.EnumModel;
import io.zilla.specs.flyweight.plugin.model.Primitive;
import io.zilla.specs.flyweight.plugin.model.StringKind;

/**
 * Generates an enum twice: a Java {@code enum} with a lookup by value that allocates nothing, and a flyweight
 * that reads and writes it in place (for arrays of enums and for standalone use).
 */
final class EnumGenerator
{
    private final EnumModel model;

    EnumGenerator(EnumModel model)
    {
        this.model = model;
    }

    List<JavaFile> generate()
    {
        return List.of(javaEnum(), flyweight());
    }

    private JavaFile javaEnum()
    {
        final CodeContext context = new CodeContext(model.scope().packageName());
        final JavaWriter out = new JavaWriter();
        final boolean numeric = model.isNumeric();
        final String valueType = numeric ? ((Primitive) model.underlying()).setterType() : "String";
        out.line("/** The constants of enum {@code " + model.qualifiedName() + "} (" + model.underlying().idlName() + "). */");
        out.open("public enum " + model.name());
        final List<EnumConstant> constants = model.constants();
        for (int i = 0; i < constants.size(); i++)
        {
            final EnumConstant constant = constants.get(i);
            final String value = numeric ? Literals.integer(constant.number(), valueType) : Literals.string(constant.text());
            out.line(constant.name() + "(" + value + ")" + (i < constants.size() - 1 ? "," : ";"));
        }
        out.blank();
        if (!numeric)
        {
            out.line("private static final " + model.name() + "[] VALUES = values();");
            out.blank();
        }
        out.line("private final " + valueType + " value;");
        if (!numeric)
        {
            out.line("private final " + context.use("org.agrona.DirectBuffer") + " encoded;");
        }
        out.blank();
        out.open(model.name() + "(" + valueType + " value)");
        out.line("this.value = value;");
        if (!numeric)
        {
            out.line("this.encoded = new " + context.use("org.agrona.concurrent.UnsafeBuffer") + "(value.getBytes("
                + context.use("java.nio.charset.StandardCharsets") + ".UTF_8));");
        }
        out.close();
        out.blank();
        out.open("public " + valueType + " value()");
        out.line("return value;");
        out.close();
        if (numeric)
        {
            numericLookup(out, valueType);
        }
        else
        {
            stringLookup(out, context);
        }
        out.close();
        return new JavaFile(context.packageName(), model.name(), context.file(out.toString()));
    }

    private void numericLookup(JavaWriter out, String valueType)
    {
        out.blank();
        out.line("/** The constant with {@code value}, or null. */");
        out.open("public static " + model.name() + " valueOf(" + valueType + " value)");
        if ("int".equals(valueType))
        {
            out.open("switch (value)");
            for (EnumConstant constant : model.constants())
            {
                out.label("case " + constant.number() + ":");
                out.line("return " + constant.name() + ";");
                out.endLabel();
            }
            out.label("default:");
            out.line("return null;");
            out.endLabel();
            out.close();
        }
        else
        {
            for (EnumConstant constant : model.constants())
            {
                out.guard("value == " + Literals.integer(constant.number(), valueType), "return " + constant.name() + ";");
            }
            out.line("return null;");
        }
        out.close();
    }

    private void stringLookup(JavaWriter out, CodeContext context)
    {
        out.blank();
        out.line("/** Its UTF-8 bytes: read them, never write them. */");
        out.open("public DirectBuffer encoded()");
        out.line("return encoded;");
        out.close();
        out.blank();
        out.line("/** The constant whose UTF-8 bytes are the {@code length} bytes at {@code index}, or null. */");
        out.open("public static " + model.name() + " valueOf(DirectBuffer buffer, int index, int length)");
        out.open("for (" + model.name() + " constant : VALUES)");
        out.open("if (constant.encoded.capacity() == length && "
            + context.runtime("Bytes") + ".equal(buffer, index, constant.encoded, 0, length))");
        out.line("return constant;");
        out.close();
        out.close();
        out.line("return null;");
        out.close();
    }

    private JavaFile flyweight()
    {
        final CodeContext context = new CodeContext(model.scope().packageName());
        final JavaWriter out = new JavaWriter();
        final String name = model.flyweightName();
        final String flyweight = context.runtime("Flyweight");
        final String buffer = context.use("org.agrona.DirectBuffer");
        final String mutable = context.use("org.agrona.MutableDirectBuffer");
        final boolean nativeOrder = model.scope().nativeOrder();
        out.line("/** Reads and writes enum {@code " + model.qualifiedName() + "} in place. */");
        out.open("public final class " + name + " extends " + flyweight);
        final StringKind string = model.isNumeric() ? null : (StringKind) model.underlying();
        final String stringType = string != null ? context.runtime(string.flyweight()) : null;
        final String orderArgument = string != null && string.isOrdered() ? context.byteOrder(nativeOrder) : "";
        if (string != null)
        {
            out.line("private final " + stringType + " valueRO = new " + stringType + "(" + orderArgument + ");");
            out.line("private " + model.name() + " value;");
            out.blank();
            out.open("public " + model.name() + " get()");
            out.line("return value;");
            out.close();
        }
        else
        {
            out.open("public " + model.name() + " get()");
            out.line("return " + model.name() + ".valueOf(" + read(context, "buffer()", "offset()") + ");");
            out.close();
        }
        out.blank();
        out.line("@Override");
        out.open("public int decode(" + buffer + " buffer, int offset, int maxLimit)");
        if (string != null)
        {
            out.line("final int limit = valueRO.decode(buffer, offset, maxLimit);");
            out.guard("limit < 0", "return limit;");
            out.line("final " + model.name() + " value = valueRO.isNull() ? null : " + model.name()
                + ".valueOf(buffer, valueRO.valueOffset(), valueRO.length());");
            out.guard("value == null", "return MALFORMED;");
            out.line("this.value = value;");
            out.line("return wrapped(buffer, offset, limit, maxLimit);");
        }
        else
        {
            final int size = ((Primitive) model.underlying()).size();
            out.guard("maxLimit - offset < " + size, "return TRUNCATED;");
            out.guard(model.name() + ".valueOf(" + read(context, "buffer", "offset") + ") == null", "return MALFORMED;");
            out.line("return wrapped(buffer, offset, offset + " + size + ", maxLimit);");
        }
        out.close();
        out.blank();
        out.line("@Override");
        out.open("public " + name + " wrap(" + buffer + " buffer, int offset, int maxLimit)");
        out.line("super.wrap(buffer, offset, maxLimit);");
        out.line("return this;");
        out.close();
        out.blank();
        out.line("@Override");
        out.open("public " + name + " tryWrap(" + buffer + " buffer, int offset, int maxLimit)");
        out.line("return (" + name + ") super.tryWrap(buffer, offset, maxLimit);");
        out.close();
        out.blank();
        out.line("@Override");
        out.open("public String toString()");
        out.line("return String.valueOf(get());");
        out.close();
        out.blank();
        out.open("public static final class Builder extends " + flyweight + ".Builder<" + name + ">");
        if (string != null)
        {
            out.line("private final " + stringType + ".Builder valueRW = new " + stringType + ".Builder(" + orderArgument + ");");
            out.blank();
        }
        out.open("public Builder()");
        out.line("super(new " + name + "(), new String[] {\"value\"});");
        out.close();
        out.blank();
        out.line("@Override");
        out.open("public Builder wrap(" + mutable + " buffer, int offset, int maxLimit)");
        out.line("super.wrap(buffer, offset, maxLimit);");
        out.line("return this;");
        out.close();
        out.blank();
        out.open("public Builder set(" + model.name() + " value)");
        out.line("prepare(0);");
        if (string != null)
        {
            out.line("limit(valueRW.wrap(buffer(), limit(), maxLimit()).set(value.encoded(), 0, value.encoded().capacity())"
                + ".limit());");
        }
        else
        {
            final Primitive underlying = (Primitive) model.underlying();
            out.line(context.write(underlying, "buffer()", "claim(" + underlying.size() + ")", "value.value()", nativeOrder));
        }
        out.line("fieldSet(0);");
        out.line("return this;");
        out.close();
        out.close();
        out.close();
        return new JavaFile(context.packageName(), name, context.file(out.toString()));
    }

    private String read(CodeContext context, String buffer, String index)
    {
        return context.read((Primitive) model.underlying(), buffer, index, model.scope().nativeOrder());
    }
}
