/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.zilla.specs.test.types.ArraysFW;
import io.zilla.specs.test.types.BaseFW;
import io.zilla.specs.test.types.BlobsFW;
import io.zilla.specs.test.types.CircleFW;
import io.zilla.specs.test.types.CodeFW;
import io.zilla.specs.test.types.CodedFW;
import io.zilla.specs.test.types.ColorFW;
import io.zilla.specs.test.types.ConditionFW;
import io.zilla.specs.test.types.DefaultsFW;
import io.zilla.specs.test.types.DerivedFW;
import io.zilla.specs.test.types.EmptyFW;
import io.zilla.specs.test.types.EntryFW;
import io.zilla.specs.test.types.FramedFW;
import io.zilla.specs.test.types.GrandFW;
import io.zilla.specs.test.types.HeaderFW;
import io.zilla.specs.test.types.HolderFW;
import io.zilla.specs.test.types.IntegersFW;
import io.zilla.specs.test.types.LevelFW;
import io.zilla.specs.test.types.LeveledFW;
import io.zilla.specs.test.types.MethodFW;
import io.zilla.specs.test.types.MixedFW;
import io.zilla.specs.test.types.MoreDefaultsFW;
import io.zilla.specs.test.types.MoreEnumsFW;
import io.zilla.specs.test.types.NestedFW;
import io.zilla.specs.test.types.OtherPayloadFW;
import io.zilla.specs.test.types.PointFW;
import io.zilla.specs.test.types.PortFW;
import io.zilla.specs.test.types.PortedFW;
import io.zilla.specs.test.types.ShapeFW;
import io.zilla.specs.test.types.SizeFieldsFW;
import io.zilla.specs.test.types.SizedFW;
import io.zilla.specs.test.types.SizedPayloadFW;
import io.zilla.specs.test.types.StringsFW;
import io.zilla.specs.test.types.TaggedFW;
import io.zilla.specs.test.types.TintedFW;
import io.zilla.specs.test.types.TinyFW;
import io.zilla.specs.test.types.TokenFW;
import io.zilla.specs.test.types.TypedefsFW;
import io.zilla.specs.test.types.UnsignedFW;
import io.zilla.specs.test.types.VariantFW;
import io.zilla.specs.test.types.VarintsFW;
import io.zilla.specs.test.types.WideFW;
import io.zilla.specs.test.types.WiderFW;
import io.zilla.specs.test.types.host.FlagFW;
import io.zilla.specs.test.types.host.NativeDerivedFW;
import io.zilla.specs.test.types.host.NativeFW;
import io.zilla.specs.test.types.host.NativeFramedFW;
import io.zilla.specs.test.types.host.NativeUnionFW;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.function.Executable;

/**
 * Reads everything a wrapped flyweight offers: every accessor, every nested flyweight, every array item and
 * the active case of every union (the other cases must throw), plus toString(). It checks as it goes that
 * each nested value lies within its parent and that enum accessors of validated values are never null.
 */
final class Readers
{
    private Readers()
    {
    }

    static void readAll(Flyweight value)
    {
        assertNotNull(value.buffer(), "wrapped");
        assertTrue(value.offset() >= 0, "offset >= 0");
        assertTrue(value.offset() <= value.limit(), "offset <= limit");
        assertTrue(value.limit() <= value.maxLimit(), "limit <= maxLimit");
        assertTrue(value.maxLimit() <= value.buffer().capacity(), "maxLimit <= capacity");
        assertEquals(value.limit() - value.offset(), value.sizeof(), "sizeof");
        read(value);
        assertNotNull(value.toString());
    }

    private static void nested(Flyweight parent, Flyweight child)
    {
        assertNotNull(child, () -> "nested value of " + parent.getClass().getSimpleName());
        assertSame(parent.buffer(), child.buffer(), "nested value reads the parent's buffer");
        assertTrue(child.offset() >= parent.offset() && child.limit() <= parent.limit(),
            () -> String.format("%s [%d, %d) lies within %s [%d, %d)", child.getClass().getSimpleName(), child.offset(),
                child.limit(), parent.getClass().getSimpleName(), parent.offset(), parent.limit()));
        readAll(child);
    }

    private static void nullable(Flyweight parent, Flyweight child, boolean expectNull)
    {
        if (expectNull)
        {
            assertNull(child, "null octets");
        }
        else
        {
            nested(parent, child);
        }
    }

    private static void whenKind(boolean active, Executable accessor)
    {
        if (active)
        {
            try
            {
                accessor.execute();
            }
            catch (Throwable ex)
            {
                fail("the accessor of the active case threw", ex);
            }
        }
        else
        {
            assertThrows(IllegalStateException.class, accessor, "the accessor of an inactive case");
        }
    }

    private static void read(Flyweight value)
    {
        if (value instanceof StringFW string)
        {
            readString(string);
        }
        else if (value instanceof OctetsFW octets)
        {
            readOctets(octets);
        }
        else if (value instanceof ArrayFW<?> array)
        {
            readArray(array);
        }
        else if (value instanceof Varint32FW || value instanceof Varint64FW || value instanceof Varuint32FW)
        {
            assertTrue(value.sizeof() >= 1 && value.sizeof() <= Varints.MAX_BYTES_64, "varint size");
            if (value instanceof Varuint32FW varuint)
            {
                assertTrue(varuint.value() >= 0 && varuint.value() <= Varuint32FW.MAX_VALUE, "varuint32 range");
            }
        }
        else if (!readEnum(value) && !readStruct(value) && !readUnion(value) && !readHost(value))
        {
            fail("no reader for " + value.getClass().getName());
        }
    }

    private static void readString(StringFW string)
    {
        final int length = string.length();
        assertTrue(length >= -1, "string length >= -1");
        assertEquals(length == -1, string.isNull());
        assertEquals(string.valueOffset() + Math.max(length, 0), string.limit(), "string limit");
        if (length == -1)
        {
            assertNull(string.value());
            assertNull(string.asString());
        }
        else
        {
            final DirectBuffer bytes = string.value();
            assertEquals(length, bytes.capacity());
            for (int i = 0; i < length; i++)
            {
                bytes.getByte(i);
            }
            assertNotNull(string.asString());
        }
        assertTrue(string.contentEquals(string));
    }

    private static void readOctets(OctetsFW octets)
    {
        final byte[] bytes = Buffers.copy(octets);
        assertEquals(octets.sizeof(), bytes.length);
        assertTrue(octets.contentEquals(octets.buffer(), octets.offset(), octets.sizeof()));
    }

    private static void readArray(ArrayFW<?> array)
    {
        final int count = array.count();
        assertTrue(count >= -1, "count >= -1");
        assertEquals(count == -1, array.isNull());
        assertEquals(count <= 0, array.isEmpty());
        final int[] visited = {0};
        final int[] previousLimit = {-1};
        array.forEach(item ->
        {
            if (previousLimit[0] != -1)
            {
                assertEquals(previousLimit[0], item.offset(), "items follow each other");
            }
            nested(array, item);
            previousLimit[0] = item.limit();
            visited[0]++;
        });
        assertEquals(Math.max(count, 0), visited[0], "forEach visits count items");
        if (count > 0)
        {
            assertEquals(array.limit(), previousLimit[0], "the last item ends the array");
            assertNotNull(array.matchFirst(item -> true));
        }
        assertNull(array.matchFirst(item -> false));
    }

    private static boolean readEnum(Flyweight value)
    {
        final Object constant;
        if (value instanceof ColorFW color)
        {
            constant = color.get();
        }
        else if (value instanceof WideFW wide)
        {
            constant = wide.get();
        }
        else if (value instanceof UnsignedFW unsigned)
        {
            constant = unsigned.get();
        }
        else if (value instanceof MethodFW method)
        {
            constant = method.get();
        }
        else if (value instanceof TinyFW tiny)
        {
            constant = tiny.get();
        }
        else if (value instanceof LevelFW level)
        {
            constant = level.get();
        }
        else if (value instanceof CodeFW code)
        {
            constant = code.get();
        }
        else if (value instanceof PortFW port)
        {
            constant = port.get();
        }
        else if (value instanceof TokenFW token)
        {
            constant = token.get();
        }
        else if (value instanceof HeaderFW header)
        {
            constant = header.get();
        }
        else if (value instanceof FlagFW flag)
        {
            constant = flag.get();
        }
        else
        {
            return false;
        }
        assertNotNull(constant, () -> "the constant of a validated " + value.getClass().getSimpleName());
        return true;
    }

    private static boolean readStruct(Flyweight value)
    {
        if (value instanceof IntegersFW v)
        {
            v.i8();
            v.i16();
            v.i32();
            v.i64();
            assertTrue(v.u8() >= 0 && v.u16() >= 0 && v.u32() >= 0, "unsigned");
        }
        else if (value instanceof VarintsFW v)
        {
            v.v32();
            v.v64();
            assertTrue(v.vu32() >= 0 && v.vu32() <= Varuint32FW.MAX_VALUE, "varuint32 range");
        }
        else if (value instanceof StringsFW v)
        {
            nested(v, v.s8());
            nested(v, v.s16());
            nested(v, v.vs());
            nested(v, v.typed());
            nested(v, v.greeting());
        }
        else if (value instanceof BlobsFW v)
        {
            nested(v, v.fixed());
            assertEquals(4, v.fixed().sizeof());
            assertEquals(v.length(), v.sized().sizeof());
            v.between();
            nested(v, v.sized());
            nullable(v, v.nullable(), v.nullableLength() == -1);
            nullable(v, v.varSized(), v.varLength() == -1);
            nested(v, v.rest());
        }
        else if (value instanceof DefaultsFW v)
        {
            v.required();
            v.answer();
            assertNotNull(v.color());
            v.timestamp();
            v.delta();
            assertNotNull(v.method());
            v.big();
        }
        else if (value instanceof MoreDefaultsFW v)
        {
            v.small();
            v.byteMax();
            v.shortMin();
            v.ushortMax();
            v.longMin();
            v.varMin();
            v.varMax();
            nested(v, v.note());
            nested(v, v.tag());
        }
        else if (value instanceof SizeFieldsFW v)
        {
            nullable(v, v.bytes8(), v.len8() == -1);
            nullable(v, v.bytes64(), v.len64() == -1L);
            nested(v, v.bytesU8());
            assertEquals(v.lenU8(), v.bytesU8().sizeof());
            nested(v, v.bytesVu());
            assertEquals(v.lenVu(), v.bytesVu().sizeof());
        }
        else if (value instanceof BaseFW v)
        {
            v.typeId();
            v.id();
        }
        else if (value instanceof DerivedFW v)
        {
            v.typeId();
            v.id();
            nested(v, v.name());
            assertNotNull(v.marker());
            assertNotNull(v.wide());
        }
        else if (value instanceof PointFW v)
        {
            v.x();
            v.y();
        }
        else if (value instanceof CircleFW v)
        {
            nested(v, v.center());
            v.radius();
        }
        else if (value instanceof EntryFW v)
        {
            nested(v, v.key());
            nested(v, v.value());
        }
        else if (value instanceof EmptyFW v)
        {
            assertEquals(0, v.sizeof());
        }
        else if (value instanceof TypedefsFW v)
        {
            nested(v, v.coord());
            assertNotNull(v.hue());
            nested(v, v.pair());
            nested(v, v.points());
            assertNotNull(v.verb());
            nested(v, v.text());
            v.at();
        }
        else if (value instanceof MoreEnumsFW v)
        {
            assertNotNull(v.tiny());
            assertNotNull(v.level());
            assertNotNull(v.code());
            assertNotNull(v.port());
            assertNotNull(v.token());
            assertNotNull(v.header());
        }
        else if (value instanceof ArraysFW v)
        {
            nested(v, v.points());
            nested(v, v.names());
            nested(v, v.entries());
            nested(v, v.colors());
            nested(v, v.methods());
            v.trailer();
        }
        else if (value instanceof HolderFW v)
        {
            nested(v, v.mixed());
            nested(v, v.tagged());
            nested(v, v.tokens());
            nested(v, v.derived());
            nested(v, v.ported());
        }
        else if (value instanceof SizedFW v)
        {
            v.size();
        }
        else if (value instanceof SizedPayloadFW v)
        {
            v.tag();
            nullable(v, v.payload(), v.size() == -1);
        }
        else if (value instanceof OtherPayloadFW v)
        {
            nullable(v, v.other(), v.size() == -1);
        }
        else if (value instanceof FramedFW v)
        {
            v.frameSize();
        }
        else if (value instanceof GrandFW v)
        {
            v.typeId();
            v.id();
            nested(v, v.name());
            assertNotNull(v.marker());
            assertNotNull(v.wide());
            v.extra();
            nested(v, v.coords());
        }
        else if (value instanceof NestedFW v)
        {
            nested(v, v.derived());
            nested(v, v.arrays());
            nested(v, v.condition());
        }
        else
        {
            return false;
        }
        return true;
    }

    private static boolean readUnion(Flyweight value)
    {
        if (value instanceof ShapeFW v)
        {
            final int kind = v.rawKind();
            assertEquals(kind, v.kind());
            whenKind(kind == ShapeFW.KIND_CIRCLE, () -> nested(v, v.circle()));
            whenKind(kind == ShapeFW.KIND_LABEL, () -> nested(v, v.label()));
            whenKind(kind == ShapeFW.KIND_CODE, v::code);
            whenKind(kind == ShapeFW.KIND_OFFSET64, v::offset64);
            whenKind(kind == ShapeFW.KIND_COLOR, () -> assertNotNull(v.color()));
        }
        else if (value instanceof ConditionFW v)
        {
            v.typeId();
            v.id();
            final int kind = v.rawKind();
            assertEquals(kind, v.kind().value());
            whenKind(kind == ConditionFW.KIND_KEY, () -> nested(v, v.key()));
            whenKind(kind == ConditionFW.KIND_NUMBERS, () -> nested(v, v.numbers()));
            whenKind(kind == ConditionFW.KIND_BYTES, () -> nested(v, v.bytes()));
        }
        else if (value instanceof MixedFW v)
        {
            final int kind = v.rawKind();
            assertEquals(kind, v.kind());
            whenKind(kind == MixedFW.KIND_SMALL, v::small);
            whenKind(kind == MixedFW.KIND_METHOD, () -> assertNotNull(v.method()));
            whenKind(kind == MixedFW.KIND_QUAD, () -> nested(v, v.quad()));
            whenKind(kind == MixedFW.KIND_UNSIGNED_VAR, () -> assertTrue(v.unsignedVar() >= 0));
            whenKind(kind == MixedFW.KIND_COORD, () -> nested(v, v.coord()));
            whenKind(kind == MixedFW.KIND_WIDE, () -> assertNotNull(v.wide()));
            whenKind(kind == MixedFW.KIND_TEXT, () -> nested(v, v.text()));
        }
        else if (value instanceof TaggedFW v)
        {
            final int kind = v.rawKind();
            assertEquals(kind, v.kind());
            whenKind(kind == TaggedFW.KIND_LOW, v::low);
            whenKind(kind == TaggedFW.KIND_TOKEN, () -> assertNotNull(v.token()));
        }
        else if (value instanceof WiderFW v)
        {
            final int kind = v.rawKind();
            assertEquals(kind, v.kind());
            whenKind(kind == WiderFW.KIND_UNSIGNED32, v::unsigned32);
            whenKind(kind == WiderFW.KIND_NAME, () -> nested(v, v.name()));
        }
        else if (value instanceof PortedFW v)
        {
            final int kind = v.rawKind();
            assertEquals(kind, v.kind().value());
            whenKind(kind == PortedFW.KIND_PLAIN, v::plain);
            whenKind(kind == PortedFW.KIND_REST, () -> nested(v, v.rest()));
        }
        else if (value instanceof TintedFW v)
        {
            final int kind = v.rawKind();
            assertEquals(kind, v.kind().value());
            whenKind(kind == TintedFW.KIND_MINUS, v::minus);
            whenKind(kind == TintedFW.KIND_COLOR, () -> assertNotNull(v.color()));
        }
        else if (value instanceof CodedFW v)
        {
            final int kind = v.rawKind();
            assertEquals(kind, v.kind().value());
            whenKind(kind == CodedFW.KIND_SHAPE, () -> nested(v, v.shape()));
            whenKind(kind == CodedFW.KIND_CONDITION, () -> nested(v, v.condition()));
        }
        else if (value instanceof VariantFW v)
        {
            v.typeId();
            v.id();
            nested(v, v.name());
            assertNotNull(v.marker());
            assertNotNull(v.wide());
            final int kind = v.rawKind();
            assertEquals(kind, v.kind());
            whenKind(kind == VariantFW.KIND_NUMBER, v::number);
            whenKind(kind == VariantFW.KIND_TEXT, () -> nested(v, v.text()));
        }
        else if (value instanceof LeveledFW v)
        {
            final int kind = v.rawKind();
            assertEquals(kind, v.kind().value());
            whenKind(kind == LeveledFW.KIND_LOW, v::low);
            whenKind(kind == LeveledFW.KIND_NOTHING, () -> nested(v, v.nothing()));
        }
        else
        {
            return false;
        }
        return true;
    }

    private static boolean readHost(Flyweight value)
    {
        if (value instanceof NativeFW v)
        {
            v.i16();
            v.i32();
            v.i64();
            v.u16();
            v.u32();
            nested(v, v.s16());
            nested(v, v.points());
        }
        else if (value instanceof NativeDerivedFW v)
        {
            v.typeId();
            v.id();
            v.local();
            assertNotNull(v.flag());
            nested(v, v.label());
            nested(v, v.more());
            nullable(v, v.data(), v.count() == -1);
        }
        else if (value instanceof NativeFramedFW v)
        {
            v.frameSize();
            v.local();
            nullable(v, v.payload(), v.frameSize() == -1);
        }
        else if (value instanceof NativeUnionFW v)
        {
            final int kind = v.rawKind();
            assertEquals(kind, v.kind().value());
            whenKind(kind == NativeUnionFW.KIND_NUMBER, v::number);
            whenKind(kind == NativeUnionFW.KIND_CIRCLE, () -> nested(v, v.circle()));
        }
        else
        {
            return false;
        }
        return true;
    }
}
