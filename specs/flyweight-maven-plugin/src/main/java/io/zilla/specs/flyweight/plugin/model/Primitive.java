/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.math.BigInteger;

/** The integer types: fixed-size, read in place, and the variable-length varints. */
public enum Primitive implements Type
{
    INT8("int8", 1, "byte", "int", Byte.MIN_VALUE, Byte.MAX_VALUE),
    INT16("int16", 2, "short", "int", Short.MIN_VALUE, Short.MAX_VALUE),
    INT32("int32", 4, "int", "int", Integer.MIN_VALUE, Integer.MAX_VALUE),
    INT64("int64", 8, "long", "long", Long.MIN_VALUE, Long.MAX_VALUE),
    UINT8("uint8", 1, "int", "int", 0, 0xffL),
    UINT16("uint16", 2, "int", "int", 0, 0xffffL),
    UINT32("uint32", 4, "long", "long", 0, 0xffff_ffffL),
    VARINT32("varint32", 0, "int", "int", Integer.MIN_VALUE, Integer.MAX_VALUE),
    VARINT64("varint64", 0, "long", "long", Long.MIN_VALUE, Long.MAX_VALUE),
    VARUINT32("varuint32", 0, "long", "long", 0, 0xffff_ffffL);

    private final String idlName;
    private final int size;
    private final String javaType;
    private final String setterType;
    private final long min;
    private final long max;

    Primitive(String idlName, int size, String javaType, String setterType, long min, long max)
    {
        this.idlName = idlName;
        this.size = size;
        this.javaType = javaType;
        this.setterType = setterType;
        this.min = min;
        this.max = max;
    }

    @Override
    public String idlName()
    {
        return idlName;
    }

    /** The size in bytes of a fixed-size integer; 0 for a varint. */
    public int size()
    {
        return size;
    }

    public boolean isVarint()
    {
        return size == 0;
    }

    public boolean isSigned()
    {
        return min < 0;
    }

    /** The Java type its accessor returns. */
    public String javaType()
    {
        return javaType;
    }

    /** The Java type its builder setter takes (int for the narrow types, range-checked). */
    public String setterType()
    {
        return setterType;
    }

    public long min()
    {
        return min;
    }

    public long max()
    {
        return max;
    }

    /** Whether the setter must check the range: its parameter type holds values the field cannot. */
    public boolean needsRangeCheck()
    {
        return "int".equals(setterType) ? min != Integer.MIN_VALUE || max != Integer.MAX_VALUE
            : min != Long.MIN_VALUE || max != Long.MAX_VALUE;
    }

    /** Whether every value fits a Java int, so that it can be switched on. */
    public boolean fitsInt()
    {
        return min >= Integer.MIN_VALUE && max <= Integer.MAX_VALUE;
    }

    public boolean contains(BigInteger value)
    {
        return value.compareTo(BigInteger.valueOf(min)) >= 0 && value.compareTo(BigInteger.valueOf(max)) <= 0;
    }

    public static Primitive of(String idlName)
    {
        for (Primitive primitive : values())
        {
            if (primitive.idlName.equals(idlName))
            {
                return primitive;
            }
        }
        return null;
    }
}
