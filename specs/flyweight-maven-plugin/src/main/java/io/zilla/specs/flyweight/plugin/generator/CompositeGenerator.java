/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.flyweight.plugin.model.FieldModel;
import io.zilla.specs.flyweight.plugin.model.JavaNames;
import io.zilla.specs.flyweight.plugin.model.NamedModel;

/**
 * The shape shared by the flyweights of structs and unions: index constants, reader declarations,
 * accessors, a {@code decode} that walks the members in order, and a builder that writes them in order.
 */
abstract class CompositeGenerator
{
    protected final NamedModel model;
    protected final CodeContext context;
    protected final MemberWriter writer;
    protected final String name;

    /** The members before any union case, in wire order: a struct's fields, or a union's inherited fields and kind. */
    protected final List<Member> members = new ArrayList<>();

    CompositeGenerator(NamedModel model)
    {
        this.model = model;
        this.context = new CodeContext(model.scope().packageName());
        this.name = model.flyweightName();
        this.writer = new MemberWriter(context);
    }

    final JavaFile generate()
    {
        final JavaWriter out = new JavaWriter();
        final String flyweight = context.runtime("Flyweight");
        context.use("org.agrona.DirectBuffer");
        context.use("org.agrona.MutableDirectBuffer");

        out.line("/** The flyweight of " + kindName() + " {@code " + model.qualifiedName() + "}. */");
        out.open("public final class " + name + " extends " + flyweight);
        constants(out);
        for (Member member : members)
        {
            writer.declareReader(out, member);
        }
        readerDeclarations(out);
        for (Member member : members)
        {
            writer.accessor(out, member, null);
        }
        accessors(out);
        decode(out);
        wrapOverrides(out);
        toStringMethod(out);
        builder(out, flyweight);
        out.close();
        return new JavaFile(context.packageName(), name, context.file(out.toString()));
    }

    /** "struct" or "union", for the class comment. */
    abstract String kindName();

    /** Writes constants beyond the field indexes: a union's kinds. */
    abstract void moreConstants(JavaWriter out);

    /** Declares the readers of a union's cases. */
    abstract void readerDeclarations(JavaWriter out);

    /** Writes the accessors of a union's cases, and its raw kind. */
    abstract void accessors(JavaWriter out);

    /** Decodes what follows the members: a union's case. */
    abstract void decodeTail(JavaWriter out);

    /** The parts of {@code toString} after the members. */
    abstract String describeTail();

    /** The names of the builder's fields in order, for its error messages. */
    abstract List<String> fieldNames();

    /** Writes the builder state and setters beyond the members': a union's cases. */
    abstract void builderTail(JavaWriter out);

    /** Members as the builder numbers them (a union's kind is not one: its cases write it). */
    final List<Member> settable()
    {
        return members.stream().filter(member -> member.indexConstant != null).toList();
    }

    /** Makes the members of fields, linking each {@code octets[field]} to its size field. */
    final void addFields(List<FieldModel> fields)
    {
        for (FieldModel field : fields)
        {
            members.add(new Member(field.name(), field.type(), field.nativeOrder(), field.defaultValue(),
                JavaNames.constantName("FIELD_", field.name())));
        }
        for (int i = 0; i < fields.size(); i++)
        {
            final FieldModel sizeField = fields.get(i).sizeField();
            if (sizeField != null)
            {
                final Member sized = members.get(i);
                sized.sizeField = members.get(fields.indexOf(sizeField));
                sized.sizeField.sizedField = sized;
            }
        }
    }

    private void constants(JavaWriter out)
    {
        final Long typeId = typeId();
        if (typeId != null)
        {
            out.line("public static final int TYPE_ID = " + String.format("0x%08x", typeId.intValue()) + ";");
        }
        if (!members.isEmpty() && members.stream().allMatch(Member::isInline) && this instanceof StructGenerator)
        {
            final int size = members.stream().mapToInt(Member::inlineSize).sum();
            out.line("public static final int SIZEOF = " + size + ";");
        }
        moreConstants(out);
        final List<String> fieldNames = fieldNames();
        if (out.toString().endsWith(";\n"))
        {
            out.blank();
        }
        final List<Member> settable = settable();
        for (int i = 0; i < settable.size(); i++)
        {
            out.line("private static final int " + settable.get(i).indexConstant + " = " + i + ";");
        }
        final StringBuilder names = new StringBuilder();
        for (String fieldName : fieldNames)
        {
            names.append(names.length() == 0 ? "" : ", ").append(Literals.string(fieldName));
        }
        out.line("private static final String[] SETTER_NAMES = {" + names + "};");
        out.blank();
    }

    abstract Long typeId();

    private void decode(JavaWriter out)
    {
        out.blank();
        out.line("@Override");
        out.open("public int decode(DirectBuffer buffer, int offset, int maxLimit)");
        if (members.isEmpty())
        {
            // an empty struct reads nothing, but must still start within its bounds
            out.guard("offset > maxLimit", "return TRUNCATED;");
        }
        out.line("int limit = offset;");
        int i = 0;
        while (i < members.size())
        {
            if (members.get(i).isInline())
            {
                int end = i;
                int size = 0;
                while (end < members.size() && members.get(end).isInline())
                {
                    size += members.get(end).inlineSize();
                    end++;
                }
                decodeInlineRun(out, members.subList(i, end), size);
                i = end;
            }
            else
            {
                writer.decodeFlyweight(out, members.get(i));
                i++;
            }
        }
        decodeTail(out);
        out.line("return wrapped(buffer, offset, limit, maxLimit);");
        out.close();
    }

    /** Checks a run of inline members fits with one comparison, validates any enums among them, and skips them. */
    final void decodeInlineRun(JavaWriter out, List<Member> run, int size)
    {
        out.guard("maxLimit - limit < " + size, "return TRUNCATED;");
        int offset = 0;
        for (Member member : run)
        {
            writer.validateInline(out, member, offset == 0 ? "limit" : "limit + " + offset);
            offset += member.inlineSize();
        }
        out.line("limit += " + size + ";");
    }

    private void wrapOverrides(JavaWriter out)
    {
        out.blank();
        out.line("@Override");
        out.open("public " + name + " wrap(DirectBuffer buffer, int offset, int maxLimit)");
        out.line("super.wrap(buffer, offset, maxLimit);");
        out.line("return this;");
        out.close();
        out.blank();
        out.line("@Override");
        out.open("public " + name + " tryWrap(DirectBuffer buffer, int offset, int maxLimit)");
        out.line("return (" + name + ") super.tryWrap(buffer, offset, maxLimit);");
        out.close();
    }

    private void toStringMethod(JavaWriter out)
    {
        final List<String> parts = new ArrayList<>();
        members.forEach(member -> parts.add(writer.describe(member)));
        final String tail = describeTail();
        if (tail != null)
        {
            parts.add(tail);
        }
        out.blank();
        out.line("@Override");
        out.open("public String toString()");
        out.line("return \"" + name + "[\" +");
        for (int i = 0; i < parts.size(); i++)
        {
            out.line("    " + parts.get(i) + (i < parts.size() - 1 ? " + \", \" +" : " +"));
        }
        out.line("    \"]\";");
        out.close();
    }

    private void builder(JavaWriter out, String flyweight)
    {
        out.blank();
        out.open("public static final class Builder extends " + flyweight + ".Builder<" + name + ">");
        for (Member member : settable())
        {
            writer.declareBuilder(out, member);
        }
        builderDeclarations(out);
        out.blank();
        out.open("public Builder()");
        out.line("super(new " + name + "(), SETTER_NAMES);");
        out.close();
        out.blank();
        out.line("@Override");
        out.open("public Builder wrap(MutableDirectBuffer buffer, int offset, int maxLimit)");
        out.line("super.wrap(buffer, offset, maxLimit);");
        out.line("return this;");
        out.close();
        for (Member member : settable())
        {
            writer.setters(out, member, List.of());
        }
        builderTail(out);
        out.blank();
        out.line("@Override");
        out.open("protected void fillDefault(int index)");
        out.open("switch (index)");
        for (Member member : settable())
        {
            writer.fillDefault(out, member);
        }
        out.label("default:");
        out.line("throw missingField(index);");
        out.endLabel();
        out.close();
        out.close();
        out.close();
    }

    /** Declares the builder state of a union's cases. */
    abstract void builderDeclarations(JavaWriter out);
}
