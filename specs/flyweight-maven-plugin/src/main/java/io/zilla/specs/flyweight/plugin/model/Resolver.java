/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.zilla.specs.flyweight.plugin.idl.Ast;
import io.zilla.specs.flyweight.plugin.idl.Position;

/**
 * Turns parsed IDL files into a {@link Model}: resolves names through scopes and typedefs, flattens
 * {@code extends}, checks every rule of docs/idl.md, and reports every problem it finds, not just the first.
 */
public final class Resolver
{
    public static final String DEFAULT_PACKAGE_PREFIX = "io.zilla.specs";

    private static final Set<String> JAVA_KEYWORDS = Set.of(
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
        "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
        "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
        "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
        "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null", "var", "yield",
        "record", "sealed", "permits", "_");

    /** Members of every generated flyweight and builder; a field by one of these names would hide it. */
    private static final Set<String> RESERVED_MEMBERS = Set.of(
        "buffer", "offset", "limit", "maxLimit", "sizeof", "wrap", "tryWrap", "decode", "wrapped", "build",
        "claim", "prepare", "prepareRepeated", "fieldSet", "lastFieldSet", "fillDefault", "missingField", "outOfRange",
        "builderName", "toString", "hashCode", "equals", "getClass", "notify", "notifyAll", "wait", "clone", "finalize");

    /** Names whose flyweight class ({@code <name>FW}) would be one of the runtime's. */
    private static final Set<String> RESERVED_FLYWEIGHTS = Set.of(
        "Octets", "String", "String8", "String16", "VarString", "Varint32", "Varint64", "Varuint32", "Array", "Array8",
        "Array16", "Array32", "VarArray");

    /** Names that a generated Java enum would clash with: java.lang, agrona and runtime classes it refers to. */
    private static final Set<String> RESERVED_ENUMS = Set.of(
        "String", "Object", "Integer", "Long", "Short", "Byte", "Math", "Override", "StringBuilder", "Enum", "Class",
        "System", "Consumer", "ByteOrder", "DirectBuffer", "MutableDirectBuffer", "UnsafeBuffer", "StandardCharsets",
        "IllegalStateException", "IllegalArgumentException", "IndexOutOfBoundsException", "Flyweight", "Varints", "Bytes",
        "Builder");

    /** Members of a generated Java enum; a constant by one of these names would clash with it. */
    private static final Set<String> RESERVED_CONSTANTS = Set.of("value", "encoded", "VALUES");

    private final String packagePrefix;
    private final List<Problem> errors = new ArrayList<>();
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final Map<NamedModel, Entry> entriesByModel = new HashMap<>();
    private final Map<String, Type> typedefs = new HashMap<>();
    private final Set<String> typedefsInProgress = new HashSet<>();
    private final Set<NamedModel> resolved = new HashSet<>();
    private final Set<NamedModel> inProgress = new HashSet<>();

    private Resolver(String packagePrefix)
    {
        this.packagePrefix = packagePrefix;
    }

    /**
     * Resolves the module's own files (generated) together with the files of its dependencies (referenced only).
     *
     * @throws IdlErrors with every problem found
     */
    public static Model resolve(List<Ast.File> own, List<Ast.File> dependencies, String packagePrefix)
    {
        final Resolver resolver = new Resolver(packagePrefix);
        dependencies.forEach(file -> resolver.register(file, false));
        own.forEach(file -> resolver.register(file, true));
        return resolver.resolveAll();
    }

    private record Entry(Ast.Definition ast, ScopeModel scope, NamedModel model)
    {
    }

    private void register(Ast.File file, boolean generated)
    {
        for (Ast.Scope scope : file.scopes())
        {
            register(scope, null, null, false, generated);
        }
    }

    private void register(Ast.Scope ast, String parentName, String parentPackage, boolean parentNative, boolean generated)
    {
        if (!ast.name().matches("[a-z][a-z0-9_]*") || JAVA_KEYWORDS.contains(ast.name()))
        {
            error(ast.position(), "scope name '" + ast.name() + "' must be lower case letters, digits and '_', "
                + "and not a Java keyword: it names a Java package");
        }
        final String qualifiedName = parentName == null ? ast.name() : parentName + "::" + ast.name();
        final String packageName = parentPackage == null
            ? packagePrefix + "." + ast.name() + ".types"
            : parentPackage + "." + ast.name();
        final boolean nativeOrder = ast.byteOrder() != null ? "native".equals(ast.byteOrder().value()) : parentNative;
        final ScopeModel scope = new ScopeModel(qualifiedName, packageName, nativeOrder);

        for (Ast.Definition definition : ast.definitions())
        {
            final String name = qualifiedName + "::" + definition.name();
            final Entry existing = entries.get(name);
            if (existing != null)
            {
                error(definition.position(), "'" + definition.name() + "' is already defined in scope '" + qualifiedName
                    + "' at " + existing.ast().position());
                continue;
            }
            if (JAVA_KEYWORDS.contains(definition.name()) || isBuiltIn(definition.name()))
            {
                error(definition.position(), "type name '" + definition.name() + "' is a Java keyword or a built-in IDL "
                    + "type");
            }
            else if (RESERVED_FLYWEIGHTS.contains(definition.name())
                || definition instanceof Ast.Enum && RESERVED_ENUMS.contains(definition.name()))
            {
                error(definition.position(), "type name '" + definition.name() + "' is reserved: the generated class "
                    + "would clash with a class of java.lang, agrona or the flyweight runtime");
            }
            final NamedModel model = newModel(definition, scope, generated);
            final Entry entry = new Entry(definition, scope, model);
            entries.put(name, entry);
            if (model != null)
            {
                entriesByModel.put(model, entry);
            }
        }
        for (Ast.Scope nested : ast.scopes())
        {
            register(nested, qualifiedName, packageName, nativeOrder, generated);
        }
    }

    private static boolean isBuiltIn(String name)
    {
        return Primitive.of(name) != null || StringKind.of(name) != null || ArrayKind.of(name) != null
            || "octets".equals(name);
    }

    private static NamedModel newModel(Ast.Definition definition, ScopeModel scope, boolean generated)
    {
        final NamedModel model;
        if (definition instanceof Ast.Struct struct)
        {
            model = new StructModel(struct.position(), struct.name(), scope, generated);
        }
        else if (definition instanceof Ast.Union union)
        {
            model = new UnionModel(union.position(), union.name(), scope, generated);
        }
        else if (definition instanceof Ast.Enum enumeration)
        {
            model = new EnumModel(enumeration.position(), enumeration.name(), scope, generated);
        }
        else
        {
            model = null;
        }
        return model;
    }

    private Model resolveAll()
    {
        for (Entry entry : entries.values())
        {
            if (entry.model() != null)
            {
                ensureResolved(entry.model());
            }
            else
            {
                resolveTypedef(entry.scope().qualifiedName() + "::" + entry.ast().name());
            }
        }
        // the structural checks run on what did resolve, so that one run reports an unknown type and a misplaced
        // field together; only a containment cycle stops them, as the size rules would recurse through it forever
        final List<NamedModel> models = entries.values().stream().map(Entry::model).filter(m -> m != null).toList();
        checkClassNames(models);
        models.forEach(this::checkMemberClashes);
        final int errorsBeforeContainment = errors.size();
        checkContainment(models);
        if (errors.size() == errorsBeforeContainment)
        {
            models.forEach(this::checkLayout);
        }
        if (!errors.isEmpty())
        {
            throw new IdlErrors(errors.stream().sorted(Problem.BY_POSITION).map(Problem::toString).toList());
        }
        return new Model(entries.values().stream().map(Entry::model).filter(m -> m != null).toList());
    }

    private void ensureResolved(NamedModel model)
    {
        if (resolved.contains(model) || !inProgress.add(model))
        {
            // a model in progress is being resolved further up the stack: extends cycles are reported there
            return;
        }
        final Entry entry = entriesByModel.get(model);
        if (model instanceof StructModel struct)
        {
            resolveStruct(struct, (Ast.Struct) entry.ast(), entry.scope());
        }
        else if (model instanceof UnionModel union)
        {
            resolveUnion(union, (Ast.Union) entry.ast(), entry.scope());
        }
        else
        {
            resolveEnum((EnumModel) model, (Ast.Enum) entry.ast(), entry.scope());
        }
        inProgress.remove(model);
        resolved.add(model);
    }

    private void resolveStruct(StructModel struct, Ast.Struct ast, ScopeModel scope)
    {
        struct.typeId(typeId(ast.typeId()));
        if (ast.supertype() != null)
        {
            final StructModel supertype = supertype(ast.supertype(), scope, struct);
            if (supertype != null)
            {
                struct.supertype(supertype);
                struct.fields().addAll(FieldModel.inherit(supertype.fields()));
            }
        }
        for (Ast.Field field : ast.fields())
        {
            final FieldModel model = field(field, scope, struct.fields());
            if (model != null)
            {
                struct.fields().add(model);
            }
        }
    }

    private StructModel supertype(Ast.TypeRef ref, ScopeModel scope, NamedModel subtype)
    {
        final Type type = type(ref, scope);
        if (type == null)
        {
            return null;
        }
        if (!(type instanceof StructModel supertype))
        {
            error(ref.position(), subtype.name() + " can only extend a struct, not " + type.idlName());
            return null;
        }
        if (inProgress.contains(supertype))
        {
            error(ref.position(), subtype.name() + " extends itself through " + supertype.qualifiedName());
            return null;
        }
        ensureResolved(supertype);
        return supertype;
    }

    private FieldModel field(Ast.Field ast, ScopeModel scope, List<FieldModel> previous)
    {
        final Type type = type(ast.type(), scope);
        checkMemberName(ast.position(), "field", ast.name());
        for (FieldModel other : previous)
        {
            if (other.name().equals(ast.name()))
            {
                error(ast.position(), "field '" + ast.name() + "' is already defined at " + other.position());
                return null;
            }
        }
        if (type == null)
        {
            return null;
        }
        final DefaultValue defaultValue = ast.defaultValue() != null ? defaultValue(ast.defaultValue(), type) : null;
        final FieldModel field = new FieldModel(ast.position(), ast.name(), type, defaultValue, scope.nativeOrder());
        if (type instanceof OctetsModel octets && octets.isSized())
        {
            linkSizeField(field, octets, previous);
        }
        return field;
    }

    private void linkSizeField(FieldModel field, OctetsModel octets, List<FieldModel> previous)
    {
        FieldModel sizeField = null;
        for (FieldModel other : previous)
        {
            if (other.name().equals(octets.sizeField()))
            {
                sizeField = other;
            }
        }
        if (sizeField == null)
        {
            error(field.position(), "octets[" + octets.sizeField() + "] needs an integer field '" + octets.sizeField()
                + "' before it");
        }
        else if (!(sizeField.type() instanceof Primitive size))
        {
            error(field.position(), "octets[" + octets.sizeField() + "] needs an integer size field, but '"
                + octets.sizeField() + "' is " + sizeField.type().idlName());
        }
        else if (sizeField.sizedField() != null)
        {
            error(field.position(), "'" + octets.sizeField() + "' is already the size of '" + sizeField.sizedField().name()
                + "'");
        }
        else if (sizeField.defaultValue() != null)
        {
            error(sizeField.position(), "'" + sizeField.name() + "' is the size of '" + field.name()
                + "' and is set with it: it cannot have a default");
        }
        else if (size.isVarint() && previous.get(previous.size() - 1) != sizeField)
        {
            error(field.position(), "octets[" + octets.sizeField() + "] must come right after its varint size field");
        }
        else if (field.defaultValue() != null && !size.isSigned())
        {
            error(field.position(), "'" + field.name() + " = null' needs a signed size field to hold -1, but '"
                + sizeField.name() + "' is " + size.idlName());
        }
        else
        {
            field.sizedBy(sizeField);
        }
    }

    private void resolveUnion(UnionModel union, Ast.Union ast, ScopeModel scope)
    {
        union.typeId(typeId(ast.typeId()));
        if (ast.supertype() != null)
        {
            union.supertype(supertype(ast.supertype(), scope, union));
        }
        final Type discriminator = type(ast.discriminator(), scope);
        if (discriminator instanceof EnumModel enumeration)
        {
            ensureResolved(enumeration);
        }
        final boolean integral = discriminator instanceof Primitive primitive && !primitive.isVarint() && primitive.fitsInt()
            || discriminator instanceof EnumModel enumeration && enumeration.underlying() instanceof Primitive underlying
                && underlying.fitsInt();
        if (discriminator != null && !integral)
        {
            error(ast.discriminator().position(), "a union switches on int8, int16, int32, uint8, uint16 or a numeric "
                + "enum over one of those, not " + discriminator.idlName());
            return;
        }
        union.discriminator(discriminator);
        for (FieldModel field : union.inheritedFields())
        {
            if ("kind".equals(field.name()) || "rawKind".equals(field.name()))
            {
                error(ast.position(), "union " + union.name() + " inherits a field named '" + field.name()
                    + "', which would hide the discriminator's accessor");
            }
        }
        if (ast.cases().isEmpty())
        {
            error(ast.position(), "union " + union.name() + " has no cases");
        }
        final Set<String> names = new HashSet<>();
        final Set<BigInteger> labels = new HashSet<>();
        for (Ast.Case c : ast.cases())
        {
            checkMemberName(c.position(), "case", c.name());
            if ("kind".equals(c.name()) || "rawKind".equals(c.name()))
            {
                error(c.position(), "case name '" + c.name() + "' is reserved for the discriminator");
            }
            for (FieldModel field : union.inheritedFields())
            {
                if (field.name().equals(c.name()))
                {
                    error(c.position(), "case '" + c.name() + "' has the name of inherited field at " + field.position());
                }
            }
            if (!names.add(c.name()))
            {
                error(c.position(), "case name '" + c.name() + "' is already used");
            }
            final Type type = type(c.type(), scope);
            if (type instanceof OctetsModel octets && octets.isSized())
            {
                error(c.type().position(), "a union case cannot be octets[field]: it has no fields to size it; use a struct");
            }
            if (type instanceof ArrayModel)
            {
                error(c.type().position(), "a union case cannot be an array: wrap it in a struct");
            }
            final CaseModel model = caseModel(c, type, discriminator);
            if (model != null && !labels.add(model.label()))
            {
                error(c.label().position(), "case " + c.label() + " is already used");
            }
            if (model != null && type != null)
            {
                union.cases().add(model);
            }
        }
    }

    private CaseModel caseModel(Ast.Case c, Type type, Type discriminator)
    {
        if (discriminator == null)
        {
            return null;
        }
        final Ast.Literal label = c.label();
        if (discriminator instanceof EnumModel enumeration)
        {
            final EnumConstant constant = label.kind() == Ast.LiteralKind.IDENTIFIER ? enumeration.constant(label.text()) : null;
            if (constant == null)
            {
                error(label.position(), "case " + label + " is not a constant of " + enumeration.qualifiedName());
                return null;
            }
            return new CaseModel(c.position(), c.name(), type, constant.number(), constant);
        }
        final Primitive primitive = (Primitive) discriminator;
        if (label.kind() != Ast.LiteralKind.NUMBER || !primitive.contains(label.number()))
        {
            error(label.position(), "case " + label + " is not a value of " + primitive.idlName());
            return null;
        }
        return new CaseModel(c.position(), c.name(), type, label.number(), null);
    }

    private void resolveEnum(EnumModel enumeration, Ast.Enum ast, ScopeModel scope)
    {
        final Type underlying = ast.underlying() != null ? type(ast.underlying(), scope) : Primitive.UINT8;
        if (underlying == null)
        {
            return;
        }
        if (!(underlying instanceof Primitive primitive && !primitive.isVarint()) && !(underlying instanceof StringKind))
        {
            error(ast.underlying().position(), "an enum is over a fixed-size integer or a string type, not "
                + underlying.idlName());
            return;
        }
        enumeration.underlying(underlying);
        final Set<String> names = new HashSet<>();
        final Set<Object> values = new HashSet<>();
        BigInteger next = BigInteger.ZERO;
        for (Ast.Constant constant : ast.constants())
        {
            if (!names.add(constant.name()))
            {
                error(constant.position(), "enum constant '" + constant.name() + "' is already defined");
            }
            if (JAVA_KEYWORDS.contains(constant.name()))
            {
                error(constant.position(), "enum constant '" + constant.name() + "' is a Java keyword");
            }
            else if (RESERVED_CONSTANTS.contains(constant.name()))
            {
                error(constant.position(), "enum constant '" + constant.name() + "' is reserved: it would clash with "
                    + "a member of the generated enum");
            }
            final EnumConstant model = underlying instanceof Primitive primitive
                ? numericConstant(constant, primitive, next)
                : stringConstant(constant, (StringKind) underlying);
            if (model == null)
            {
                continue;
            }
            if (!values.add(model.number() != null ? model.number() : model.text()))
            {
                error(constant.position(), "enum " + enumeration.name() + " already has a constant with the value of "
                    + constant.name());
            }
            if (model.number() != null)
            {
                next = model.number().add(BigInteger.ONE);
            }
            enumeration.constants().add(model);
        }
    }

    private EnumConstant numericConstant(Ast.Constant constant, Primitive underlying, BigInteger next)
    {
        final Ast.Literal literal = constant.value();
        if (literal != null && literal.kind() != Ast.LiteralKind.NUMBER)
        {
            error(literal.position(), "the value of " + constant.name() + " must be a number");
            return null;
        }
        final BigInteger value = literal != null ? literal.number() : next;
        if (!underlying.contains(value))
        {
            error(literal != null ? literal.position() : constant.position(), "the value " + value + " of "
                + constant.name() + " is out of range for " + underlying.idlName());
            return null;
        }
        return new EnumConstant(constant.name(), value, null);
    }

    private EnumConstant stringConstant(Ast.Constant constant, StringKind underlying)
    {
        final Ast.Literal literal = constant.value();
        if (literal != null && literal.kind() != Ast.LiteralKind.STRING)
        {
            error(literal.position(), "the value of " + constant.name() + " must be a string");
            return null;
        }
        final String text = literal != null ? literal.text() : constant.name();
        if (text.getBytes(StandardCharsets.UTF_8).length > underlying.maxLength())
        {
            error(literal != null ? literal.position() : constant.position(), "the value of " + constant.name()
                + " is longer than the " + underlying.maxLength() + " bytes of " + underlying.idlName());
            return null;
        }
        return new EnumConstant(constant.name(), null, text);
    }

    private Type type(Ast.TypeRef ref, ScopeModel scope)
    {
        final Type type;
        if (ref instanceof Ast.OctetsType octets)
        {
            type = octets(octets);
        }
        else if (ref instanceof Ast.ArrayType array)
        {
            final Type item = type(array.item(), scope);
            type = item != null ? new ArrayModel(ArrayKind.of(array.kind()), item) : null;
        }
        else
        {
            type = named((Ast.NamedType) ref, scope);
        }
        return type;
    }

    private Type octets(Ast.OctetsType octets)
    {
        final Type type;
        if (octets.fixedSize() != null)
        {
            final BigInteger size = octets.fixedSize().number();
            if (size.compareTo(BigInteger.valueOf(Integer.MAX_VALUE)) > 0)
            {
                error(octets.fixedSize().position(), "octets[" + size + "] is larger than a Java array");
                type = null;
            }
            else
            {
                type = new OctetsModel(size.intValue(), null);
            }
        }
        else if (octets.sizeField() != null)
        {
            type = new OctetsModel(-1, octets.sizeField());
        }
        else
        {
            type = OctetsModel.TRAILING;
        }
        return type;
    }

    private Type named(Ast.NamedType ref, ScopeModel scope)
    {
        final String name = ref.name();
        if (!name.contains("::"))
        {
            final Primitive primitive = Primitive.of(name);
            if (primitive != null)
            {
                return primitive;
            }
            final StringKind string = StringKind.of(name);
            if (string != null)
            {
                return string;
            }
        }
        // search the scope, then each enclosing scope, then from the root
        String enclosing = scope.qualifiedName();
        while (enclosing != null)
        {
            final String candidate = enclosing + "::" + name;
            if (entries.containsKey(candidate))
            {
                return lookup(candidate);
            }
            final int separator = enclosing.lastIndexOf("::");
            enclosing = separator >= 0 ? enclosing.substring(0, separator) : null;
        }
        if (!entries.containsKey(name))
        {
            error(ref.position(), "unknown type '" + name + "'");
            return null;
        }
        return lookup(name);
    }

    private Type lookup(String qualifiedName)
    {
        final Entry entry = entries.get(qualifiedName);
        if (entry == null)
        {
            return null;
        }
        return entry.model() != null ? entry.model() : resolveTypedef(qualifiedName);
    }

    private Type resolveTypedef(String qualifiedName)
    {
        if (typedefs.containsKey(qualifiedName))
        {
            return typedefs.get(qualifiedName);
        }
        final Entry entry = entries.get(qualifiedName);
        final Ast.Typedef typedef = (Ast.Typedef) entry.ast();
        if (!typedefsInProgress.add(qualifiedName))
        {
            error(typedef.position(), "typedef " + typedef.name() + " refers to itself");
            typedefs.put(qualifiedName, null);
            return null;
        }
        Type type = type(typedef.type(), entry.scope());
        if (type instanceof OctetsModel octets && octets.isSized())
        {
            error(typedef.type().position(), "a typedef cannot be octets[field]: the field belongs to a struct");
            type = null;
        }
        typedefsInProgress.remove(qualifiedName);
        typedefs.put(qualifiedName, type);
        return type;
    }

    private DefaultValue defaultValue(Ast.Literal literal, Type type)
    {
        if (type instanceof EnumModel enumeration)
        {
            ensureResolved(enumeration);
        }
        final DefaultValue value;
        if (type instanceof Primitive primitive && literal.kind() == Ast.LiteralKind.NUMBER)
        {
            value = primitive.contains(literal.number()) ? DefaultValue.number(literal.number()) : null;
        }
        else if (type instanceof StringKind string && literal.kind() == Ast.LiteralKind.STRING)
        {
            final boolean fits = literal.text().getBytes(StandardCharsets.UTF_8).length <= string.maxLength();
            value = fits ? DefaultValue.string(literal.text()) : null;
        }
        else if (literal.kind() == Ast.LiteralKind.NULL
            && (type instanceof StringKind || type instanceof ArrayModel
                || type instanceof OctetsModel octets && !octets.isFixed()))
        {
            value = DefaultValue.nullValue();
        }
        else if (type instanceof EnumModel enumeration && literal.kind() == Ast.LiteralKind.IDENTIFIER)
        {
            final EnumConstant constant = enumeration.constant(literal.text());
            value = constant != null ? DefaultValue.constant(constant) : null;
        }
        else
        {
            value = null;
        }
        if (value == null && type instanceof StringKind string && literal.kind() == Ast.LiteralKind.STRING)
        {
            error(literal.position(), "default " + literal + " is longer than the " + string.maxLength() + " bytes of "
                + type.idlName());
        }
        else if (value == null)
        {
            error(literal.position(), "default " + literal + " is not a value of " + type.idlName());
        }
        return value;
    }

    private Long typeId(Ast.Literal literal)
    {
        if (literal == null)
        {
            return null;
        }
        final BigInteger value = literal.number();
        // a type id is 32 bits: a signed int, or its unsigned hex spelling such as 0xc0000001
        if (value.compareTo(BigInteger.valueOf(Integer.MIN_VALUE)) < 0 || value.compareTo(BigInteger.valueOf(0xffff_ffffL)) > 0)
        {
            error(literal.position(), "type id " + literal + " does not fit in 32 bits");
            return null;
        }
        return value.longValue();
    }

    private void checkMemberName(Position position, String what, String name)
    {
        if (JAVA_KEYWORDS.contains(name))
        {
            error(position, what + " name '" + name + "' is a Java keyword");
        }
        else if (RESERVED_MEMBERS.contains(name))
        {
            error(position, what + " name '" + name + "' is reserved: it would hide a flyweight method");
        }
        else if (name.startsWith("FIELD_") || name.startsWith("KIND_"))
        {
            error(position, what + " name '" + name + "' is reserved for generated constants");
        }
    }

    /** Refuses two types whose generated classes would be the same file: struct Foo and enum FooFW both write FooFW. */
    private void checkClassNames(List<NamedModel> models)
    {
        final Map<String, NamedModel> classes = new HashMap<>();
        for (NamedModel model : models)
        {
            final List<String> names = model instanceof EnumModel
                ? List.of(model.name(), model.flyweightName())
                : List.of(model.flyweightName());
            for (String name : names)
            {
                final NamedModel other = classes.putIfAbsent(model.scope().packageName() + "." + name, model);
                if (other != null && other != model)
                {
                    error(model.position(), model.name() + " and " + other.name() + " (at " + other.position()
                        + ") would both generate the class " + name);
                }
            }
        }
    }

    /** Refuses member names that differ in IDL but not in the Java names generated from them. */
    private void checkMemberClashes(NamedModel model)
    {
        final List<JavaMember> members = new ArrayList<>();
        final List<FieldModel> fields = model instanceof StructModel struct ? struct.fields()
            : model instanceof UnionModel union ? union.inheritedFields()
            : List.of();
        fields.forEach(field -> members.add(new JavaMember(field.position(), field.name(),
            JavaNames.constantName("FIELD_", field.name()))));
        if (model instanceof UnionModel union)
        {
            union.cases().forEach(c -> members.add(new JavaMember(c.position(), c.name(),
                JavaNames.constantName("KIND_", c.name()))));
        }
        final Map<String, JavaMember> constants = new HashMap<>();
        final Map<String, JavaMember> names = new HashMap<>();
        for (JavaMember member : members)
        {
            final JavaMember other = constants.putIfAbsent(member.constant(), member);
            if (other != null && !other.name().equals(member.name())) // the same name twice is reported on its own
            {
                error(member.position(), "'" + member.name() + "' and '" + other.name() + "' both become the constant "
                    + member.constant() + " in " + model.flyweightName() + ": rename one");
            }
            names.put(member.name(), member);
        }
        for (FieldModel field : fields)
        {
            final JavaMember clash = names.get(JavaNames.itemSetterName(field.name()));
            if (field.type() instanceof ArrayModel && clash != null)
            {
                error(clash.position(), "'" + clash.name() + "' has the name of the builder method that appends to array "
                    + "'" + field.name() + "': rename it");
            }
        }
    }

    private record JavaMember(Position position, String name, String constant)
    {
    }

    /** Refuses types that contain themselves: their flyweights would never finish constructing. */
    private void checkContainment(List<NamedModel> models)
    {
        final Set<NamedModel> checked = new HashSet<>();
        for (NamedModel model : models)
        {
            containment(model, new ArrayList<>(), checked);
        }
    }

    private void containment(NamedModel model, List<NamedModel> path, Set<NamedModel> checked)
    {
        if (path.contains(model))
        {
            final StringBuilder cycle = new StringBuilder();
            for (NamedModel step : path.subList(path.indexOf(model), path.size()))
            {
                cycle.append(step.name()).append(" -> ");
            }
            error(model.position(), model.name() + " contains itself (" + cycle + model.name() + ")");
            return;
        }
        if (!checked.add(model))
        {
            return;
        }
        path.add(model);
        for (Type member : members(model))
        {
            final Type contained = member instanceof ArrayModel array ? array.item() : member;
            if (contained instanceof StructModel || contained instanceof UnionModel)
            {
                containment((NamedModel) contained, path, checked);
            }
        }
        path.remove(path.size() - 1);
    }

    private static List<Type> members(NamedModel model)
    {
        final List<Type> members = new ArrayList<>();
        if (model instanceof StructModel struct)
        {
            struct.fields().forEach(field -> members.add(field.type()));
        }
        else if (model instanceof UnionModel union)
        {
            union.inheritedFields().forEach(field -> members.add(field.type()));
            union.cases().forEach(c -> members.add(c.type()));
        }
        return members;
    }

    /** Checks that unbounded members come last and that array items are non-empty, bounded flyweights. */
    private void checkLayout(NamedModel model)
    {
        if (!(model instanceof StructModel || model instanceof UnionModel) || !model.isGenerated())
        {
            return;
        }
        final List<FieldModel> fields = model instanceof StructModel struct
            ? struct.fields()
            : ((UnionModel) model).inheritedFields();
        for (int i = 0; i < fields.size(); i++)
        {
            final FieldModel field = fields.get(i);
            final boolean last = i == fields.size() - 1 && model instanceof StructModel;
            if (!last && Sizes.isUnbounded(field.type()))
            {
                error(field.position(), "'" + field.name() + "' (" + field.type().idlName() + ") takes the rest of the "
                    + "bytes, so it must be the last field of " + model.name());
            }
            checkArray(field.position(), field.type());
        }
        if (model instanceof UnionModel union)
        {
            union.cases().forEach(c -> checkArray(c.position(), c.type()));
        }
    }

    private void checkArray(Position position, Type type)
    {
        if (!(type instanceof ArrayModel array))
        {
            return;
        }
        final Type item = array.item();
        if (item instanceof Primitive || item instanceof OctetsModel || item instanceof ArrayModel)
        {
            error(position, "array items are structs, unions, enums or strings, not " + item.idlName()
                + ": wrap it in a struct");
        }
        else if (Sizes.isUnbounded(item))
        {
            error(position, "array items cannot take the rest of the bytes, as " + item.idlName() + " does");
        }
        else if (Sizes.minSize(item) == 0)
        {
            error(position, "array items must take at least one byte, but " + item.idlName() + " can be empty");
        }
    }

    private void error(Position position, String message)
    {
        errors.add(new Problem(position, message));
    }

    private record Problem(Position position, String message)
    {
        static final Comparator<Problem> BY_POSITION = Comparator
            .comparing((Problem error) -> error.position().file())
            .thenComparingInt(error -> error.position().line())
            .thenComparingInt(error -> error.position().column());

        @Override
        public String toString()
        {
            return position + ": " + message;
        }
    }
}
