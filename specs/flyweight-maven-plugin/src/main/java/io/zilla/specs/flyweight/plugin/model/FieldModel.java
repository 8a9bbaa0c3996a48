/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.flyweight.plugin.idl.Position;

/** A field of a struct, or one inherited from its supertype, resolved. */
public final class FieldModel
{
    private final Position position;
    private final String name;
    private final Type type;
    private final DefaultValue defaultValue;
    private final boolean nativeOrder;

    private FieldModel sizeField;
    private FieldModel sizedField;

    public FieldModel(Position position, String name, Type type, DefaultValue defaultValue, boolean nativeOrder)
    {
        this.position = position;
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.nativeOrder = nativeOrder;
    }

    public Position position()
    {
        return position;
    }

    public String name()
    {
        return name;
    }

    public Type type()
    {
        return type;
    }

    /** The default, or null when the field is required. */
    public DefaultValue defaultValue()
    {
        return defaultValue;
    }

    /** The byte order of the scope that declares the field. */
    public boolean nativeOrder()
    {
        return nativeOrder;
    }

    /** For {@code octets[field]}: the integer field that holds its size. */
    public FieldModel sizeField()
    {
        return sizeField;
    }

    /** For an integer field that holds the size of a later {@code octets[field]}: that octets field. */
    public FieldModel sizedField()
    {
        return sizedField;
    }

    /**
     * Copies a supertype's fields for one subtype, size links included: each subtype may then size an inherited
     * integer field by its own {@code octets[field]} without touching the supertype or its other subtypes.
     */
    static List<FieldModel> inherit(List<FieldModel> fields)
    {
        final List<FieldModel> copies = new ArrayList<>(fields.size());
        for (FieldModel field : fields)
        {
            final FieldModel copy = new FieldModel(field.position, field.name, field.type, field.defaultValue,
                field.nativeOrder);
            if (field.sizeField != null)
            {
                copy.sizedBy(copies.get(fields.indexOf(field.sizeField)));
            }
            copies.add(copy);
        }
        return copies;
    }

    void sizedBy(FieldModel sizeField)
    {
        this.sizeField = sizeField;
        sizeField.sizedField = this;
    }
}
