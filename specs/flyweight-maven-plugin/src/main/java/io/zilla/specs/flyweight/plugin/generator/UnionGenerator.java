/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.flyweight.plugin.model.CaseModel;
import io.zilla.specs.flyweight.plugin.model.JavaNames;
import io.zilla.specs.flyweight.plugin.model.UnionModel;

/**
 * Generates the flyweight of a union: its supertype's fields, its kind, then the one case the kind selects.
 * Reading a case that the kind does not select is an error; the builder writes the kind with the case.
 */
final class UnionGenerator extends CompositeGenerator
{
    private static final String FIELD_KIND = "FIELD_KIND";

    private final UnionModel union;
    private final Member kind;
    private final List<Member> cases = new ArrayList<>();

    UnionGenerator(UnionModel union)
    {
        super(union);
        this.union = union;
        addFields(union.inheritedFields());
        this.kind = new Member("kind", union.discriminator(), union.scope().nativeOrder(), null, null);
        members.add(kind);
        Member.layout(members);
        for (CaseModel c : union.cases())
        {
            final Member member = new Member(c.name(), c.type(), union.scope().nativeOrder(), null, FIELD_KIND);
            member.anchor = kind.anchor;
            member.delta = kind.delta + kind.inlineSize();
            cases.add(member);
        }
    }

    @Override
    String kindName()
    {
        return "union";
    }

    @Override
    Long typeId()
    {
        return union.typeId();
    }

    @Override
    void moreConstants(JavaWriter out)
    {
        for (int i = 0; i < cases.size(); i++)
        {
            out.line("public static final int " + kindConstant(cases.get(i)) + " = " + union.cases().get(i).label() + ";");
        }
    }

    @Override
    void readerDeclarations(JavaWriter out)
    {
        cases.forEach(member -> writer.declareReader(out, member));
    }

    @Override
    void accessors(JavaWriter out)
    {
        out.blank();
        out.line("/** The kind as a number, as the KIND_ constants spell it. */");
        out.open("public int rawKind()");
        out.line("return " + rawKind(false) + ";");
        out.close();
        for (Member member : cases)
        {
            final List<String> guard = List.of(
                "if (rawKind() != " + kindConstant(member) + ")",
                "{",
                "    throw new IllegalStateException(\"" + name + ": the kind is \" + rawKind() + \", not " + member.name
                    + " (\" + " + kindConstant(member) + " + \")\");",
                "}");
            writer.accessor(out, member, guard);
        }
    }

    @Override
    void decodeTail(JavaWriter out)
    {
        out.open("switch (" + rawKind(true) + ")");
        for (Member member : cases)
        {
            out.label("case " + kindConstant(member) + ":");
            if (member.isInline())
            {
                decodeInlineRun(out, List.of(member), member.inlineSize());
            }
            else
            {
                writer.decodeFlyweight(out, member);
            }
            out.line("break;");
            out.endLabel();
        }
        out.label("default:");
        out.line("return MALFORMED;");
        out.endLabel();
        out.close();
    }

    @Override
    String describeTail()
    {
        final StringBuilder text = new StringBuilder();
        for (Member member : cases)
        {
            text.append("(rawKind() == ").append(kindConstant(member)).append(" ? ")
                .append(writer.describe(member)).append(" : \"\") + ");
        }
        return text.append("\"\"").toString();
    }

    @Override
    List<String> fieldNames()
    {
        final List<String> names = new ArrayList<>();
        settable().forEach(member -> names.add(member.name));
        names.add("one of " + String.join(", ", cases.stream().map(member -> member.name).toList()));
        return names;
    }

    @Override
    void builderDeclarations(JavaWriter out)
    {
        cases.forEach(member -> writer.declareBuilder(out, member));
        out.line("private static final int " + FIELD_KIND + " = " + settable().size() + ";");
    }

    @Override
    void builderTail(JavaWriter out)
    {
        for (Member member : cases)
        {
            final String write = context.write(kind.integer(), "buffer()", "claim(" + kind.inlineSize() + ")",
                kindConstant(member), kind.nativeOrder);
            writer.setters(out, member, List.of(write));
        }
    }

    private String rawKind(boolean decoding)
    {
        return context.read(kind.integer(), decoding ? "buffer" : "buffer()", kind.position(decoding), kind.nativeOrder);
    }

    private static String kindConstant(Member member)
    {
        return JavaNames.constantName("KIND_", member.name);
    }
}
