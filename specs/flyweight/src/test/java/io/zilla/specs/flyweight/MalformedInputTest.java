/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.bytes;
import static io.zilla.specs.flyweight.Buffers.encode;
import static io.zilla.specs.flyweight.Buffers.exact;
import static io.zilla.specs.flyweight.Buffers.hex;
import static io.zilla.specs.flyweight.Flyweight.MALFORMED;
import static io.zilla.specs.flyweight.Flyweight.TRUNCATED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.zilla.specs.flyweight.Samples.Sample;
import io.zilla.specs.test.types.ArraysFW;
import io.zilla.specs.test.types.BlobsFW;
import io.zilla.specs.test.types.CodedFW;
import io.zilla.specs.test.types.ColorFW;
import io.zilla.specs.test.types.ConditionFW;
import io.zilla.specs.test.types.DefaultsFW;
import io.zilla.specs.test.types.DerivedFW;
import io.zilla.specs.test.types.EmptyFW;
import io.zilla.specs.test.types.EntryFW;
import io.zilla.specs.test.types.HolderFW;
import io.zilla.specs.test.types.LeveledFW;
import io.zilla.specs.test.types.MethodFW;
import io.zilla.specs.test.types.MixedFW;
import io.zilla.specs.test.types.MoreEnumsFW;
import io.zilla.specs.test.types.PointFW;
import io.zilla.specs.test.types.PortedFW;
import io.zilla.specs.test.types.ShapeFW;
import io.zilla.specs.test.types.SizeFieldsFW;
import io.zilla.specs.test.types.StringsFW;
import io.zilla.specs.test.types.TintedFW;
import io.zilla.specs.test.types.TokenFW;
import io.zilla.specs.test.types.UnsignedFW;
import io.zilla.specs.test.types.VariantFW;
import io.zilla.specs.test.types.VarintsFW;
import io.zilla.specs.test.types.WideFW;
import io.zilla.specs.test.types.host.NativeDerivedFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MalformedInputTest
{
    static Stream<Sample> samples()
    {
        return Samples.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldRejectEveryTruncation(Sample sample)
    {
        final byte[] bytes = sample.bytes();
        final int bounded = bytes.length - sample.trailing();
        for (int cut = 0; cut < bytes.length; cut++)
        {
            final byte[] prefix = Arrays.copyOf(bytes, cut);
            final String context = sample + " cut at " + cut + " of " + hex(bytes);
            if (cut < bounded)
            {
                assertTruncated(sample::reader, exact(prefix), 0, context);
                assertTruncated(sample::reader, Buffers.at(5, prefix), 5, context + " at offset 5");
            }
            else
            {
                final Flyweight value = sample.reader().tryWrap(exact(prefix), 0, cut);
                assertEquals(cut, value.limit(), context + ": trailing octets end at maxLimit");
                Readers.readAll(value);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldRejectRegionOutsideBuffer(Sample sample)
    {
        final byte[] bytes = sample.bytes();
        final UnsafeBuffer buffer = Buffers.at(2, bytes);
        final int capacity = buffer.capacity();

        assertOutside(sample.reader(), buffer, -1, capacity);
        assertOutside(sample.reader(), buffer, Integer.MIN_VALUE, capacity);
        assertOutside(sample.reader(), buffer, 2, capacity + 1);
        assertOutside(sample.reader(), buffer, 2, Integer.MAX_VALUE);
        assertOutside(sample.reader(), buffer, capacity + 1, capacity);
        assertOutside(sample.reader(), buffer, 2, 1);
        assertOutside(sample.reader(), buffer, 2, -1);
    }

    @Test
    void shouldRejectEmptyStructAfterMaxLimit()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);

        assertNull(new EmptyFW().tryWrap(buffer, 6, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> new EmptyFW().wrap(buffer, 6, 5));
        assertEquals(8, new EmptyFW().wrap(buffer, 8, 8).limit());
    }

    @Test
    void shouldRejectUnknownEnumValues()
    {
        assertMalformed(ColorFW::new, bytes(1));
        assertMalformed(ColorFW::new, bytes(7));
        assertMalformed(ColorFW::new, bytes(0xff));
        assertMalformed(WideFW::new, bytes(0, 0, 0, 0, 0, 0, 0, 0));
        assertMalformed(WideFW::new, bytes(0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe));
        assertMalformed(UnsignedFW::new, bytes(0, 0, 0, 1));
        assertMalformed(MethodFW::new, bytes(3, 'P', 'U', 'T'));
        assertMalformed(MethodFW::new, bytes(3, 'g', 'e', 't'));
        assertMalformed(MethodFW::new, bytes(2, 'G', 'E'));
        assertMalformed(MethodFW::new, bytes(0xff));
        assertMalformed(MethodFW::new, bytes(0));
        assertMalformed(TokenFW::new, bytes(0, 5, 'a', 'l', 'p', 'h', 'a'));
        assertMalformed(TokenFW::new, bytes(0xff, 0xff));

        final byte[] defaults = encode(new DefaultsFW.Builder(), b -> b.required(0));
        defaults[8] = 1;
        assertMalformed(DefaultsFW::new, defaults);

        final byte[] derived = encode(new DerivedFW.Builder(), b -> b.typeId(DerivedFW.TYPE_ID).name("x"));
        derived[14 + 3] = 0x01;
        assertMalformed(DerivedFW::new, derived);

        final byte[] moreEnums = Samples.all().stream().filter(s -> s.name().equals("MoreEnumsFW")).findFirst().get().bytes();
        final byte[] badTiny = moreEnums.clone();
        badTiny[0] = 0;
        assertMalformed(MoreEnumsFW::new, badTiny);
        final byte[] badPort = moreEnums.clone();
        badPort[8] = 0x52;
        assertMalformed(MoreEnumsFW::new, badPort);
    }

    @Test
    void shouldRejectUnknownUnionKinds()
    {
        assertMalformed(ShapeFW::new, bytes(0, 0, 0, 0, 0));
        assertMalformed(ShapeFW::new, bytes(5, 0, 0, 0, 0));
        assertMalformed(ShapeFW::new, bytes(254, 0, 0, 0, 0));
        assertMalformed(ShapeFW::new, bytes(255, 1));
        assertMalformed(MixedFW::new, bytes(0, 0, 0, 0, 0, 0));
        assertMalformed(MixedFW::new, bytes(0x01, 0x2d, 0x01, 'x'));
        assertMalformed(MixedFW::new, bytes(0xff, 0xfe, 0));
        assertMalformed(PortedFW::new, bytes(0x00, 0x51, 0x00, 0x00));
        assertMalformed(PortedFW::new, bytes(0x12, 0x34, 0x00, 0x00));
        assertMalformed(LeveledFW::new, bytes(0x00, 0x00, 0x00, 0x00));

        final byte[] condition = encode(new ConditionFW.Builder(), b -> b.typeId(ConditionFW.TYPE_ID).key("k"));
        condition[12] = 1;
        assertMalformed(ConditionFW::new, condition);

        final byte[] entry = encode(new EntryFW.Builder(), b -> b.key("k").value(v -> v.code(1)));
        entry[2] = 9;
        assertMalformed(EntryFW::new, entry);
    }

    @Test
    void shouldRejectStringLengthsBelowMinusOne()
    {
        assertMalformed(String8FW::new, bytes(0xfe));
        assertMalformed(String8FW::new, bytes(0x80, 'x'));
        assertMalformed(String16FW::new, bytes(0xff, 0xfe));
        assertMalformed(String16FW::new, bytes(0x80, 0x00));
        assertMalformed(() -> new String16FW(ByteOrder.LITTLE_ENDIAN), bytes(0xfe, 0xff));
        assertMalformed(VarStringFW::new, bytes(0x03));
        assertMalformed(VarStringFW::new, bytes(0xff, 0xff, 0xff, 0xff, 0x0f));
        assertMalformed(StringsFW::new, bytes(0x00, 0x80, 0x00, 0x00, 0x00, 0x00));
        assertMalformed(StringsFW::new, bytes(0x00, 0x00, 0x00, 0x05, 0x00, 0x00));
    }

    @Test
    void shouldRejectArrayCountsBelowMinusOne()
    {
        assertMalformed(() -> new Array8FW<>(new PointFW()), bytes(0xfe));
        assertMalformed(() -> new Array8FW<>(new PointFW()), bytes(0x80));
        assertMalformed(() -> new Array16FW<>(new PointFW(), ByteOrder.BIG_ENDIAN), bytes(0xff, 0xfe));
        assertMalformed(() -> new Array32FW<>(new PointFW(), ByteOrder.BIG_ENDIAN), bytes(0xff, 0xff, 0xff, 0xfe));
        assertMalformed(() -> new Array32FW<>(new PointFW(), ByteOrder.BIG_ENDIAN), bytes(0x80, 0x00, 0x00, 0x00));
        assertMalformed(() -> new VarArrayFW<>(new PointFW()), bytes(0x03));
        assertMalformed(ArraysFW::new, bytes(0x00, 0xff, 0xfe, 0, 0, 0, 0, 0x00, 0x01, 0xff));
        assertMalformed(ArraysFW::new, bytes(0x00, 0xff, 0xff, 0, 0, 0, 0, 0x00, 0x05, 0xff));
    }

    @Test
    void shouldRejectCountsLargerThanTheBytesLeft()
    {
        assertTruncated(() -> new Array32FW<>(new PointFW(), ByteOrder.BIG_ENDIAN), bytes(0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0));
        assertTruncated(() -> new Array8FW<>(new ColorFW()), bytes(0x03, 0, 0));
        assertTruncated(() -> new VarArrayFW<>(new ColorFW()), bytes(0xfe, 0xff, 0xff, 0xff, 0x0f, 0));
        assertTruncated(String16FW::new, bytes(0x7f, 0xff, 'x'));
        assertTruncated(VarStringFW::new, bytes(0xfe, 0xff, 0xff, 0xff, 0x0f));
    }

    @Test
    void shouldRejectArrayItemsThatAreMalformed()
    {
        assertMalformed(() -> new Array8FW<>(new ColorFW()), bytes(0x02, 0x00, 0x01));
        assertMalformed(() -> new VarArrayFW<>(new MethodFW()), bytes(0x02, 0x03, 'G', 'E', 'X'));
        assertMalformed(HolderFW::new, bytes(0x02, 0x00, 0x00, 0x00));
    }

    @Test
    void shouldRejectOctetsSizesBelowMinusOne()
    {
        final byte[] blobs = encode(new BlobsFW.Builder(), b -> b.fixed(bytes(1, 2, 3, 4)).sized(bytes(5)));
        final byte[] nullable = blobs.clone();
        nullable[14] = (byte) 0xfe;
        assertMalformed(BlobsFW::new, nullable);
        final byte[] minimum = blobs.clone();
        minimum[11] = (byte) 0x80;
        minimum[12] = 0;
        minimum[13] = 0;
        minimum[14] = 0;
        assertMalformed(BlobsFW::new, minimum);
        final byte[] varLength = blobs.clone();
        varLength[15] = 0x03;
        assertMalformed(BlobsFW::new, varLength);

        final byte[] fields = encode(new SizeFieldsFW.Builder(), b -> b.bytesU8(new byte[0]).bytesVu(new byte[0]));
        final byte[] len8 = fields.clone();
        len8[0] = (byte) 0xfe;
        assertMalformed(SizeFieldsFW::new, len8);
        final byte[] len64 = fields.clone();
        len64[1] = (byte) 0x80;
        assertMalformed(SizeFieldsFW::new, len64);
        final byte[] len64Two = fields.clone();
        len64Two[8] = (byte) 0xfe;
        assertMalformed(SizeFieldsFW::new, len64Two);

        final byte[] nativeDerived = encode(new NativeDerivedFW.Builder(), b -> b.typeId(0).local(0));
        nativeDerived[nativeDerived.length - 2] = (byte) 0xfe;
        assertMalformed(NativeDerivedFW::new, nativeDerived);
    }

    @Test
    void shouldRejectOctetsSizesLargerThanTheBytesLeft()
    {
        final byte[] blobs = encode(new BlobsFW.Builder(), b -> b.fixed(bytes(1, 2, 3, 4)).sized(bytes(5)));
        final byte[] sized = blobs.clone();
        sized[4] = (byte) 0xff;
        sized[5] = (byte) 0xff;
        assertTruncated(BlobsFW::new, sized);
        final byte[] nullable = blobs.clone();
        nullable[11] = 0x7f;
        assertTruncated(BlobsFW::new, nullable);

        final byte[] fields = encode(new SizeFieldsFW.Builder(), b -> b.bytesU8(new byte[0]).bytesVu(new byte[0]));
        final byte[] len64 = fields.clone();
        len64[1] = 0x7f;
        assertTruncated(SizeFieldsFW::new, len64);
        final byte[] lenVu = Arrays.copyOf(fields, fields.length + 4);
        lenVu[10] = (byte) 0xff;
        lenVu[11] = (byte) 0xff;
        lenVu[12] = (byte) 0xff;
        lenVu[13] = (byte) 0xff;
        lenVu[14] = (byte) 0x0f;
        assertTruncated(SizeFieldsFW::new, lenVu);
    }

    @Test
    void shouldRejectOverlongVarints()
    {
        assertMalformed(Varint32FW::new, bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x00));
        assertMalformed(Varint32FW::new, bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0x01));
        assertMalformed(Varuint32FW::new, bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x00));
        assertMalformed(Varint64FW::new, bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00));
        assertMalformed(VarStringFW::new, bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x00));
        assertMalformed(() -> new VarArrayFW<>(new ColorFW()), bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x00));
        assertMalformed(VarintsFW::new, bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00, 0x00));
        assertMalformed(VarintsFW::new, bytes(0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00));
    }

    @Test
    void shouldRejectVarint32WithBitsBeyond32()
    {
        for (int last = 0x10; last < 0x80; last++)
        {
            final byte[] bytes = bytes(0xff, 0xff, 0xff, 0xff, last);
            assertMalformed(Varint32FW::new, bytes);
            assertMalformed(Varuint32FW::new, bytes);
        }
        assertMalformed(Varint32FW::new, bytes(0x80, 0x80, 0x80, 0x80, 0x10));
        assertEquals(Integer.MIN_VALUE, new Varint32FW().wrap(exact(bytes(0xff, 0xff, 0xff, 0xff, 0x0f)), 0, 5).value());
        assertEquals(0xffff_ffffL, new Varuint32FW().wrap(exact(bytes(0xff, 0xff, 0xff, 0xff, 0x0f)), 0, 5).value());

        assertMalformed(Varint64FW::new, bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02));
        assertMalformed(Varint64FW::new, bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f));
        assertEquals(Long.MIN_VALUE,
            new Varint64FW().wrap(exact(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)), 0, 10).value());
    }

    @Test
    void shouldRejectTruncatedVarints()
    {
        assertTruncated(Varint32FW::new, bytes());
        assertTruncated(Varint32FW::new, bytes(0x80));
        assertTruncated(Varint32FW::new, bytes(0xff, 0xff, 0xff, 0xff));
        assertTruncated(Varint64FW::new, bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
        assertTruncated(Varuint32FW::new, bytes(0x81));
    }

    @Test
    void shouldNotReadValueEndingExactlyAtMaxLimitPastIt()
    {
        final byte[] encoded = encode(new ShapeFW.Builder(), b -> b.label("abc"));
        final UnsafeBuffer buffer = new UnsafeBuffer(Arrays.copyOf(encoded, encoded.length + 4));

        final ShapeFW shape = new ShapeFW().wrap(buffer, 0, encoded.length);

        assertEquals(encoded.length, shape.limit());
        assertEquals(encoded.length, shape.maxLimit());
        assertTruncated(ShapeFW::new, buffer, 0, encoded.length - 1, "label cut by maxLimit");
    }

    private static void assertMalformed(Supplier<? extends Flyweight> reader, byte[] bytes)
    {
        final UnsafeBuffer buffer = exact(bytes);
        final String context = reader.get().getClass().getSimpleName() + " " + hex(bytes);
        assertEquals(MALFORMED, reader.get().decode(buffer, 0, bytes.length), context);
        assertNull(reader.get().tryWrap(buffer, 0, bytes.length), context);
        assertThrows(IllegalArgumentException.class, () -> reader.get().wrap(buffer, 0, bytes.length), context);

        final UnsafeBuffer shifted = Buffers.at(3, bytes);
        assertNull(reader.get().tryWrap(shifted, 3, shifted.capacity()), context + " at offset 3");
        assertThrows(IllegalArgumentException.class, () -> reader.get().wrap(shifted, 3, shifted.capacity()), context);
    }

    private static void assertTruncated(Supplier<? extends Flyweight> reader, byte[] bytes)
    {
        assertTruncated(reader, exact(bytes), 0, reader.get().getClass().getSimpleName() + " " + hex(bytes));
    }

    private static void assertTruncated(Supplier<? extends Flyweight> reader, UnsafeBuffer buffer, int offset, String context)
    {
        assertTruncated(reader, buffer, offset, buffer.capacity(), context);
    }

    private static void assertTruncated(Supplier<? extends Flyweight> reader, UnsafeBuffer buffer, int offset, int maxLimit,
        String context)
    {
        assertEquals(TRUNCATED, reader.get().decode(buffer, offset, maxLimit), context);
        assertNull(reader.get().tryWrap(buffer, offset, maxLimit), context);
        assertThrows(IndexOutOfBoundsException.class, () -> reader.get().wrap(buffer, offset, maxLimit), context);
    }

    private static void assertOutside(Flyweight reader, UnsafeBuffer buffer, int offset, int maxLimit)
    {
        final String context = reader.getClass().getSimpleName() + " [" + offset + ", " + maxLimit + ") of " + buffer.capacity();
        assertNull(reader.tryWrap(buffer, offset, maxLimit), context);
        assertThrows(IndexOutOfBoundsException.class, () -> reader.wrap(buffer, offset, maxLimit), context);
    }

    @Test
    void shouldRejectUnknownKindsOfEnumAndInheritingUnions()
    {
        assertMalformed(TintedFW::new, bytes(0x00, 0x00));
        assertMalformed(TintedFW::new, bytes(0x7f, 0x01));
        assertMalformed(CodedFW::new, bytes(0x00, 0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0));

        final byte[] variant = encode(new VariantFW.Builder(), b -> b.typeId(VariantFW.TYPE_ID).name("abc").number(1));
        final int kind = 4 + 8 + 4 + 4 + 8;
        variant[kind] = 3;
        assertMalformed(VariantFW::new, variant);
        variant[kind] = 2;
        variant[kind + 1] = 4;
        assertTruncated(VariantFW::new, variant);
        variant[kind + 1] = (byte) 0xfe;
        assertMalformed(VariantFW::new, variant);
        variant[kind + 1] = 0;
        variant[kind] = 1;
        assertEquals(1, new VariantFW().wrap(exact(variant), 0, variant.length).number());
    }
}
