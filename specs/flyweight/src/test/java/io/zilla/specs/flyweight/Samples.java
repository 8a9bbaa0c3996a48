/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.bytes;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

import io.zilla.specs.test.types.ArraysFW;
import io.zilla.specs.test.types.BaseFW;
import io.zilla.specs.test.types.BlobsFW;
import io.zilla.specs.test.types.CircleFW;
import io.zilla.specs.test.types.Code;
import io.zilla.specs.test.types.CodeFW;
import io.zilla.specs.test.types.CodedFW;
import io.zilla.specs.test.types.Color;
import io.zilla.specs.test.types.ColorFW;
import io.zilla.specs.test.types.ConditionFW;
import io.zilla.specs.test.types.DefaultsFW;
import io.zilla.specs.test.types.DerivedFW;
import io.zilla.specs.test.types.EmptyFW;
import io.zilla.specs.test.types.EntryFW;
import io.zilla.specs.test.types.FramedFW;
import io.zilla.specs.test.types.GrandFW;
import io.zilla.specs.test.types.Header;
import io.zilla.specs.test.types.HeaderFW;
import io.zilla.specs.test.types.HolderFW;
import io.zilla.specs.test.types.IntegersFW;
import io.zilla.specs.test.types.Level;
import io.zilla.specs.test.types.LevelFW;
import io.zilla.specs.test.types.LeveledFW;
import io.zilla.specs.test.types.Method;
import io.zilla.specs.test.types.MethodFW;
import io.zilla.specs.test.types.MixedFW;
import io.zilla.specs.test.types.MoreDefaultsFW;
import io.zilla.specs.test.types.MoreEnumsFW;
import io.zilla.specs.test.types.NestedFW;
import io.zilla.specs.test.types.OtherPayloadFW;
import io.zilla.specs.test.types.PointFW;
import io.zilla.specs.test.types.Port;
import io.zilla.specs.test.types.PortFW;
import io.zilla.specs.test.types.PortedFW;
import io.zilla.specs.test.types.ShapeFW;
import io.zilla.specs.test.types.SizeFieldsFW;
import io.zilla.specs.test.types.SizedFW;
import io.zilla.specs.test.types.SizedPayloadFW;
import io.zilla.specs.test.types.StringsFW;
import io.zilla.specs.test.types.TaggedFW;
import io.zilla.specs.test.types.TintedFW;
import io.zilla.specs.test.types.Tiny;
import io.zilla.specs.test.types.TinyFW;
import io.zilla.specs.test.types.Token;
import io.zilla.specs.test.types.TokenFW;
import io.zilla.specs.test.types.TypedefsFW;
import io.zilla.specs.test.types.Unsigned;
import io.zilla.specs.test.types.UnsignedFW;
import io.zilla.specs.test.types.VariantFW;
import io.zilla.specs.test.types.VarintsFW;
import io.zilla.specs.test.types.Wide;
import io.zilla.specs.test.types.WideFW;
import io.zilla.specs.test.types.WiderFW;
import io.zilla.specs.test.types.host.Flag;
import io.zilla.specs.test.types.host.FlagFW;
import io.zilla.specs.test.types.host.NativeDerivedFW;
import io.zilla.specs.test.types.host.NativeFW;
import io.zilla.specs.test.types.host.NativeFramedFW;
import io.zilla.specs.test.types.host.NativeUnionFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One or more valid values of every flyweight type, generated or built in, each with the builder steps that
 * write it, so that tests can write it anywhere, read it back, cut it and corrupt it.
 */
final class Samples
{
    private static final List<Sample> ALL = Collections.unmodifiableList(create());

    private Samples()
    {
    }

    static List<Sample> all()
    {
        return ALL;
    }

    /** Writes a value with a builder wrapped over {@code [offset, maxLimit)}, returning what build() returns. */
    @FunctionalInterface
    interface Encoder
    {
        Flyweight encode(MutableDirectBuffer buffer, int offset, int maxLimit);
    }

    /** A valid value of one type: how to write it, how to read it, and how many trailing octets it ends with. */
    static final class Sample
    {
        private final String name;
        private final Supplier<? extends Flyweight> reader;
        private final Encoder encoder;
        private final int trailing;
        private final byte[] bytes;

        Sample(String name, Supplier<? extends Flyweight> reader, Encoder encoder, int trailing)
        {
            this.name = name;
            this.reader = reader;
            this.encoder = encoder;
            this.trailing = trailing;
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[Buffers.CAPACITY]);
            this.bytes = Buffers.copy(encoder.encode(buffer, 0, buffer.capacity()));
        }

        String name()
        {
            return name;
        }

        /** A new, unwrapped flyweight of the sample's type. */
        Flyweight reader()
        {
            return reader.get();
        }

        Flyweight encode(MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            return encoder.encode(buffer, offset, maxLimit);
        }

        /** The number of trailing octets at the end: cutting into them still leaves a valid, shorter value. */
        int trailing()
        {
            return trailing;
        }

        /** A copy of the encoded value. */
        byte[] bytes()
        {
            return bytes.clone();
        }

        @Override
        public String toString()
        {
            return name;
        }
    }

    private static List<Sample> create()
    {
        final List<Sample> samples = new ArrayList<>();
        addBuiltIns(samples);
        addStructs(samples);
        addInheritance(samples);
        addEnums(samples);
        addUnions(samples);
        addArrays(samples);
        addHost(samples);
        return samples;
    }

    private static void addBuiltIns(List<Sample> samples)
    {
        samples.add(new Sample("String8FW", String8FW::new,
            (b, o, m) -> new String8FW.Builder().wrap(b, o, m).set("string8").build(), 0));
        samples.add(new Sample("String8FW null", String8FW::new,
            (b, o, m) -> new String8FW.Builder().wrap(b, o, m).setNull().build(), 0));
        samples.add(new Sample("String16FW", String16FW::new,
            (b, o, m) -> new String16FW.Builder().wrap(b, o, m).set("string16 ☃").build(), 0));
        samples.add(new Sample("String16FW little-endian", () -> new String16FW(ByteOrder.LITTLE_ENDIAN),
            (b, o, m) -> new String16FW.Builder(ByteOrder.LITTLE_ENDIAN).wrap(b, o, m).set("le").build(), 0));
        samples.add(new Sample("VarStringFW", VarStringFW::new,
            (b, o, m) -> new VarStringFW.Builder().wrap(b, o, m).set("v".repeat(70)).build(), 0));
        samples.add(new Sample("VarStringFW empty", VarStringFW::new,
            (b, o, m) -> new VarStringFW.Builder().wrap(b, o, m).set("").build(), 0));
        samples.add(new Sample("OctetsFW", OctetsFW::new,
            (b, o, m) -> new OctetsFW.Builder().wrap(b, o, m).put(bytes(1, 2, 3)).build(), 3));
        samples.add(new Sample("Varint32FW", Varint32FW::new,
            (b, o, m) -> new Varint32FW.Builder().wrap(b, o, m).set(Integer.MIN_VALUE).build(), 0));
        samples.add(new Sample("Varint32FW small", Varint32FW::new,
            (b, o, m) -> new Varint32FW.Builder().wrap(b, o, m).set(-65).build(), 0));
        samples.add(new Sample("Varint64FW", Varint64FW::new,
            (b, o, m) -> new Varint64FW.Builder().wrap(b, o, m).set(Long.MAX_VALUE).build(), 0));
        samples.add(new Sample("Varuint32FW", Varuint32FW::new,
            (b, o, m) -> new Varuint32FW.Builder().wrap(b, o, m).set(0xffff_ffffL).build(), 0));
        samples.add(new Sample("Array8FW<PointFW>", () -> new Array8FW<>(new PointFW()),
            (b, o, m) -> new Array8FW.Builder<>(new PointFW.Builder(), new PointFW()).wrap(b, o, m)
                .item(p -> p.x(1).y(2))
                .item(p -> p.x(3).y(4))
                .build(), 0));
        samples.add(new Sample("Array16FW<String16FW>", () -> new Array16FW<>(new String16FW(), ByteOrder.BIG_ENDIAN),
            (b, o, m) -> new Array16FW.Builder<>(new String16FW.Builder(), new String16FW(), ByteOrder.BIG_ENDIAN)
                .wrap(b, o, m)
                .item(s -> s.set("a"))
                .item(s -> s.setNull())
                .item(s -> s.set(""))
                .build(), 0));
        samples.add(new Sample("Array32FW<EntryFW>", () -> new Array32FW<>(new EntryFW(), ByteOrder.BIG_ENDIAN),
            (b, o, m) -> new Array32FW.Builder<>(new EntryFW.Builder(), new EntryFW(), ByteOrder.BIG_ENDIAN)
                .wrap(b, o, m)
                .item(e -> e.key("k").value(v -> v.label("l")))
                .build(), 0));
        samples.add(new Sample("Array32FW null", () -> new Array32FW<>(new EntryFW(), ByteOrder.BIG_ENDIAN),
            (b, o, m) -> new Array32FW.Builder<>(new EntryFW.Builder(), new EntryFW(), ByteOrder.BIG_ENDIAN)
                .wrap(b, o, m)
                .setNull()
                .build(), 0));
        samples.add(new Sample("VarArrayFW<ColorFW> 64", () -> new VarArrayFW<>(new ColorFW()),
            (b, o, m) ->
            {
                final VarArrayFW.Builder<ColorFW.Builder, ColorFW> array =
                    new VarArrayFW.Builder<>(new ColorFW.Builder(), new ColorFW()).wrap(b, o, m);
                for (int i = 0; i < 64; i++)
                {
                    array.item(c -> c.set(Color.BLUE));
                }
                return array.build();
            }, 0));
    }

    private static void addStructs(List<Sample> samples)
    {
        samples.add(new Sample("IntegersFW", IntegersFW::new,
            (b, o, m) -> new IntegersFW.Builder().wrap(b, o, m)
                .i8(-1).i16(Short.MIN_VALUE).i32(Integer.MAX_VALUE).i64(Long.MIN_VALUE).u8(255).u16(65535).u32(0xffff_ffffL)
                .build(), 0));
        samples.add(new Sample("VarintsFW", VarintsFW::new,
            (b, o, m) -> new VarintsFW.Builder().wrap(b, o, m).v32(-65).v64(Long.MIN_VALUE).vu32(0xffff_ffffL).build(), 0));
        samples.add(new Sample("StringsFW", StringsFW::new,
            (b, o, m) -> new StringsFW.Builder().wrap(b, o, m).s8("s8").s16("s16").vs("vs").build(), 0));
        samples.add(new Sample("StringsFW nulls", StringsFW::new,
            (b, o, m) -> new StringsFW.Builder().wrap(b, o, m)
                .s8((String) null).s16((String) null).vs((String) null).typed("t").greeting((String) null)
                .build(), 0));
        samples.add(new Sample("BlobsFW", BlobsFW::new,
            (b, o, m) -> new BlobsFW.Builder().wrap(b, o, m)
                .fixed(bytes(1, 2, 3, 4)).between(-1).sized(bytes(5, 6)).nullable(bytes(7))
                .varSized(bytes(8, 9)).rest(bytes(10, 11))
                .build(), 2));
        samples.add(new Sample("BlobsFW defaults", BlobsFW::new,
            (b, o, m) -> new BlobsFW.Builder().wrap(b, o, m).fixed(bytes(1, 2, 3, 4)).sized(bytes(5)).build(), 0));
        samples.add(new Sample("DefaultsFW", DefaultsFW::new,
            (b, o, m) -> new DefaultsFW.Builder().wrap(b, o, m).required(1).build(), 0));
        samples.add(new Sample("MoreDefaultsFW", MoreDefaultsFW::new,
            (b, o, m) -> new MoreDefaultsFW.Builder().wrap(b, o, m).build(), 0));
        samples.add(new Sample("SizeFieldsFW", SizeFieldsFW::new,
            (b, o, m) -> new SizeFieldsFW.Builder().wrap(b, o, m)
                .bytes8(bytes(1)).bytes64(bytes(2, 3)).bytesU8(bytes(4, 5, 6)).bytesVu(bytes(7))
                .build(), 0));
        samples.add(new Sample("SizeFieldsFW nulls", SizeFieldsFW::new,
            (b, o, m) -> new SizeFieldsFW.Builder().wrap(b, o, m).bytesU8(new byte[0]).bytesVu(new byte[0]).build(), 0));
        samples.add(new Sample("BaseFW", BaseFW::new,
            (b, o, m) -> new BaseFW.Builder().wrap(b, o, m).typeId(BaseFW.TYPE_ID).id(-1L).build(), 0));
        samples.add(new Sample("DerivedFW", DerivedFW::new,
            (b, o, m) -> new DerivedFW.Builder().wrap(b, o, m).typeId(DerivedFW.TYPE_ID).name("derived").build(), 0));
        samples.add(new Sample("PointFW", PointFW::new,
            (b, o, m) -> new PointFW.Builder().wrap(b, o, m).x(1).y(-1).build(), 0));
        samples.add(new Sample("CircleFW", CircleFW::new,
            (b, o, m) -> new CircleFW.Builder().wrap(b, o, m).center(p -> p.x(1).y(2)).radius(3).build(), 0));
        samples.add(new Sample("EntryFW", EntryFW::new,
            (b, o, m) -> new EntryFW.Builder().wrap(b, o, m).key("key").value(v -> v.offset64(-1L)).build(), 0));
        samples.add(new Sample("EmptyFW", EmptyFW::new,
            (b, o, m) -> new EmptyFW.Builder().wrap(b, o, m).build(), 0));
        samples.add(new Sample("TypedefsFW", TypedefsFW::new,
            (b, o, m) -> new TypedefsFW.Builder().wrap(b, o, m)
                .coord(c -> c.x(1).y(2)).hue(Color.GREEN).pair(bytes(3, 4)).pointsItem(p -> p.x(5).y(6)).verb(Method.GET)
                .build(), 0));
        samples.add(new Sample("MoreEnumsFW", MoreEnumsFW::new,
            (b, o, m) -> new MoreEnumsFW.Builder().wrap(b, o, m)
                .tiny(Tiny.NEGATIVE).level(Level.FLOOR).code(Code.MAX_CODE).port(Port.HTTP).token(Token.BETA)
                .build(), 0));
        samples.add(new Sample("NestedFW", NestedFW::new,
            (b, o, m) -> new NestedFW.Builder().wrap(b, o, m)
                .derived(d -> d.typeId(DerivedFW.TYPE_ID).name("d"))
                .arrays(a -> a.pointsItem(p -> p.x(1).y(1)).colorsItem(c -> c.set(Color.RED)))
                .condition(c -> c.typeId(ConditionFW.TYPE_ID).key("c"))
                .build(), 0));
        samples.add(new Sample("NestedFW trailing", NestedFW::new,
            (b, o, m) -> new NestedFW.Builder().wrap(b, o, m)
                .derived(d -> d.typeId(DerivedFW.TYPE_ID).name(""))
                .arrays(a -> a.trailer(0))
                .condition(c -> c.typeId(ConditionFW.TYPE_ID).bytes(bytes(1, 2, 3, 4)))
                .build(), 4));
    }

    private static void addInheritance(List<Sample> samples)
    {
        samples.add(new Sample("SizedFW", SizedFW::new, (b, o, m) -> new SizedFW.Builder().wrap(b, o, m).size(-2).build(), 0));
        samples.add(new Sample("SizedPayloadFW", SizedPayloadFW::new,
            (b, o, m) -> new SizedPayloadFW.Builder().wrap(b, o, m).tag(1).payload(bytes(2, 3)).build(), 0));
        samples.add(new Sample("SizedPayloadFW null", SizedPayloadFW::new,
            (b, o, m) -> new SizedPayloadFW.Builder().wrap(b, o, m).build(), 0));
        samples.add(new Sample("OtherPayloadFW", OtherPayloadFW::new,
            (b, o, m) -> new OtherPayloadFW.Builder().wrap(b, o, m).other(bytes(4, 5, 6)).build(), 0));
        samples.add(new Sample("FramedFW", FramedFW::new,
            (b, o, m) -> new FramedFW.Builder().wrap(b, o, m).frameSize(0x0102).build(), 0));
        samples.add(new Sample("GrandFW", GrandFW::new,
            (b, o, m) -> new GrandFW.Builder().wrap(b, o, m)
                .typeId(GrandFW.TYPE_ID).name("grand").extra(-1).coordsItem(c -> c.x(1).y(2))
                .build(), 0));
        samples.add(new Sample("VariantFW number", VariantFW::new,
            (b, o, m) -> new VariantFW.Builder().wrap(b, o, m).typeId(VariantFW.TYPE_ID).name("v").number(7).build(), 0));
        samples.add(new Sample("VariantFW text", VariantFW::new,
            (b, o, m) -> new VariantFW.Builder().wrap(b, o, m).typeId(VariantFW.TYPE_ID).name((String) null).text("t")
                .build(), 0));
    }

    private static void addEnums(List<Sample> samples)
    {
        samples.add(new Sample("ColorFW", ColorFW::new,
            (b, o, m) -> new ColorFW.Builder().wrap(b, o, m).set(Color.GREEN).build(), 0));
        samples.add(new Sample("WideFW", WideFW::new,
            (b, o, m) -> new WideFW.Builder().wrap(b, o, m).set(Wide.LOWEST).build(), 0));
        samples.add(new Sample("UnsignedFW", UnsignedFW::new,
            (b, o, m) -> new UnsignedFW.Builder().wrap(b, o, m).set(Unsigned.TOP).build(), 0));
        samples.add(new Sample("MethodFW", MethodFW::new,
            (b, o, m) -> new MethodFW.Builder().wrap(b, o, m).set(Method.CUSTOM).build(), 0));
        samples.add(new Sample("TinyFW", TinyFW::new,
            (b, o, m) -> new TinyFW.Builder().wrap(b, o, m).set(Tiny.POSITIVE).build(), 0));
        samples.add(new Sample("LevelFW", LevelFW::new,
            (b, o, m) -> new LevelFW.Builder().wrap(b, o, m).set(Level.FLOOR).build(), 0));
        samples.add(new Sample("CodeFW", CodeFW::new,
            (b, o, m) -> new CodeFW.Builder().wrap(b, o, m).set(Code.MIN_CODE).build(), 0));
        samples.add(new Sample("PortFW", PortFW::new,
            (b, o, m) -> new PortFW.Builder().wrap(b, o, m).set(Port.HTTPS).build(), 0));
        samples.add(new Sample("TokenFW", TokenFW::new,
            (b, o, m) -> new TokenFW.Builder().wrap(b, o, m).set(Token.BETA).build(), 0));
        samples.add(new Sample("TokenFW empty", TokenFW::new,
            (b, o, m) -> new TokenFW.Builder().wrap(b, o, m).set(Token.EMPTY).build(), 0));
        samples.add(new Sample("HeaderFW", HeaderFW::new,
            (b, o, m) -> new HeaderFW.Builder().wrap(b, o, m).set(Header.QUOTED).build(), 0));
    }

    private static void addUnions(List<Sample> samples)
    {
        samples.add(new Sample("ShapeFW circle", ShapeFW::new,
            (b, o, m) -> new ShapeFW.Builder().wrap(b, o, m).circle(c -> c.center(p -> p.x(1).y(2)).radius(3)).build(), 0));
        samples.add(new Sample("ShapeFW label", ShapeFW::new,
            (b, o, m) -> new ShapeFW.Builder().wrap(b, o, m).label("label").build(), 0));
        samples.add(new Sample("ShapeFW code", ShapeFW::new,
            (b, o, m) -> new ShapeFW.Builder().wrap(b, o, m).code(-1).build(), 0));
        samples.add(new Sample("ShapeFW offset64", ShapeFW::new,
            (b, o, m) -> new ShapeFW.Builder().wrap(b, o, m).offset64(Long.MIN_VALUE).build(), 0));
        samples.add(new Sample("ShapeFW color", ShapeFW::new,
            (b, o, m) -> new ShapeFW.Builder().wrap(b, o, m).color(Color.BLUE).build(), 0));
        samples.add(new Sample("ConditionFW key", ConditionFW::new,
            (b, o, m) -> new ConditionFW.Builder().wrap(b, o, m).typeId(ConditionFW.TYPE_ID).key("key").build(), 0));
        samples.add(new Sample("ConditionFW numbers", ConditionFW::new,
            (b, o, m) -> new ConditionFW.Builder().wrap(b, o, m).typeId(ConditionFW.TYPE_ID)
                .numbers(n -> n.i8(1).i16(2).i32(3).i64(4L).u8(5).u16(6).u32(7L))
                .build(), 0));
        samples.add(new Sample("ConditionFW bytes", ConditionFW::new,
            (b, o, m) -> new ConditionFW.Builder().wrap(b, o, m).typeId(ConditionFW.TYPE_ID).bytes(bytes(1, 2)).build(), 2));
        samples.add(new Sample("ConditionFW empty bytes", ConditionFW::new,
            (b, o, m) -> new ConditionFW.Builder().wrap(b, o, m).typeId(ConditionFW.TYPE_ID).bytes(new byte[0]).build(), 0));
        samples.add(new Sample("MixedFW small", MixedFW::new,
            (b, o, m) -> new MixedFW.Builder().wrap(b, o, m).small(-1).build(), 0));
        samples.add(new Sample("MixedFW method", MixedFW::new,
            (b, o, m) -> new MixedFW.Builder().wrap(b, o, m).method(Method.POST).build(), 0));
        samples.add(new Sample("MixedFW quad", MixedFW::new,
            (b, o, m) -> new MixedFW.Builder().wrap(b, o, m).quad(bytes(1, 2, 3, 4)).build(), 0));
        samples.add(new Sample("MixedFW unsignedVar", MixedFW::new,
            (b, o, m) -> new MixedFW.Builder().wrap(b, o, m).unsignedVar(300L).build(), 0));
        samples.add(new Sample("MixedFW coord", MixedFW::new,
            (b, o, m) -> new MixedFW.Builder().wrap(b, o, m).coord(p -> p.x(1).y(2)).build(), 0));
        samples.add(new Sample("MixedFW wide", MixedFW::new,
            (b, o, m) -> new MixedFW.Builder().wrap(b, o, m).wide(Wide.HIGHEST).build(), 0));
        samples.add(new Sample("MixedFW text", MixedFW::new,
            (b, o, m) -> new MixedFW.Builder().wrap(b, o, m).text("text").build(), 0));
        samples.add(new Sample("TaggedFW low", TaggedFW::new,
            (b, o, m) -> new TaggedFW.Builder().wrap(b, o, m).low(1L).build(), 0));
        samples.add(new Sample("TaggedFW token", TaggedFW::new,
            (b, o, m) -> new TaggedFW.Builder().wrap(b, o, m).token(Token.ALPHA).build(), 0));
        samples.add(new Sample("WiderFW unsigned32", WiderFW::new,
            (b, o, m) -> new WiderFW.Builder().wrap(b, o, m).unsigned32(1L).build(), 0));
        samples.add(new Sample("WiderFW name", WiderFW::new,
            (b, o, m) -> new WiderFW.Builder().wrap(b, o, m).name("name").build(), 0));
        samples.add(new Sample("PortedFW plain", PortedFW::new,
            (b, o, m) -> new PortedFW.Builder().wrap(b, o, m).plain(1).build(), 0));
        samples.add(new Sample("PortedFW rest", PortedFW::new,
            (b, o, m) -> new PortedFW.Builder().wrap(b, o, m).rest(bytes(1, 2, 3)).build(), 3));
        samples.add(new Sample("TintedFW minus", TintedFW::new,
            (b, o, m) -> new TintedFW.Builder().wrap(b, o, m).minus(-1).build(), 0));
        samples.add(new Sample("TintedFW color", TintedFW::new,
            (b, o, m) -> new TintedFW.Builder().wrap(b, o, m).color(Color.RED).build(), 0));
        samples.add(new Sample("CodedFW shape", CodedFW::new,
            (b, o, m) -> new CodedFW.Builder().wrap(b, o, m).shape(x -> x.label("l")).build(), 0));
        samples.add(new Sample("CodedFW condition", CodedFW::new,
            (b, o, m) -> new CodedFW.Builder().wrap(b, o, m).condition(c -> c.typeId(1).bytes(bytes(1, 2))).build(), 2));
        samples.add(new Sample("LeveledFW low", LeveledFW::new,
            (b, o, m) -> new LeveledFW.Builder().wrap(b, o, m).low(2).build(), 0));
        samples.add(new Sample("LeveledFW nothing", LeveledFW::new,
            (b, o, m) -> new LeveledFW.Builder().wrap(b, o, m).nothing(e ->
            {
            }).build(), 0));
    }

    private static void addArrays(List<Sample> samples)
    {
        samples.add(new Sample("ArraysFW", ArraysFW::new,
            (b, o, m) -> new ArraysFW.Builder().wrap(b, o, m)
                .pointsItem(p -> p.x(1).y(2))
                .namesItem(n -> n.set("name"))
                .namesItem(n -> n.setNull())
                .entriesItem(e -> e.key("circle").value(v -> v.circle(c -> c.center(p -> p.x(3).y(4)).radius(5))))
                .entriesItem(e -> e.key("color").value(v -> v.color(Color.RED)))
                .colorsItem(c -> c.set(Color.GREEN))
                .methodsItem(m2 -> m2.set(Method.GET))
                .trailer(7)
                .build(), 0));
        samples.add(new Sample("ArraysFW defaults", ArraysFW::new,
            (b, o, m) -> new ArraysFW.Builder().wrap(b, o, m).build(), 0));
        samples.add(new Sample("HolderFW", HolderFW::new,
            (b, o, m) -> new HolderFW.Builder().wrap(b, o, m)
                .mixedItem(x -> x.small(1))
                .mixedItem(x -> x.text("t"))
                .taggedItem(t -> t.low(2L))
                .tokensItem(t -> t.set(Token.ALPHA))
                .derivedItem(d -> d.typeId(DerivedFW.TYPE_ID).name("d"))
                .ported(p -> p.plain(3))
                .build(), 0));
        samples.add(new Sample("HolderFW trailing", HolderFW::new,
            (b, o, m) -> new HolderFW.Builder().wrap(b, o, m).ported(p -> p.rest(bytes(1))).build(), 1));
    }

    private static void addHost(List<Sample> samples)
    {
        samples.add(new Sample("NativeFW", NativeFW::new,
            (b, o, m) -> new NativeFW.Builder().wrap(b, o, m)
                .i16(1).i32(2).i64(3L).u16(4).u32(5L).s16("native").pointsItem(p -> p.x(6).y(7))
                .build(), 0));
        samples.add(new Sample("NativeDerivedFW", NativeDerivedFW::new,
            (b, o, m) -> new NativeDerivedFW.Builder().wrap(b, o, m)
                .typeId(NativeDerivedFW.TYPE_ID).local(1).label("l").moreItem(p -> p.x(2).y(3)).data(bytes(4, 5))
                .build(), 0));
        samples.add(new Sample("NativeDerivedFW defaults", NativeDerivedFW::new,
            (b, o, m) -> new NativeDerivedFW.Builder().wrap(b, o, m).typeId(0).local(0).build(), 0));
        samples.add(new Sample("NativeFramedFW", NativeFramedFW::new,
            (b, o, m) -> new NativeFramedFW.Builder().wrap(b, o, m).local(0x0102).payload(bytes(3, 4, 5)).build(), 0));
        samples.add(new Sample("NativeUnionFW number", NativeUnionFW::new,
            (b, o, m) -> new NativeUnionFW.Builder().wrap(b, o, m).number(1L).build(), 0));
        samples.add(new Sample("NativeUnionFW circle", NativeUnionFW::new,
            (b, o, m) -> new NativeUnionFW.Builder().wrap(b, o, m).circle(c -> c.center(p -> p.x(1).y(2)).radius(3)).build(), 0));
        samples.add(new Sample("FlagFW", FlagFW::new,
            (b, o, m) -> new FlagFW.Builder().wrap(b, o, m).set(Flag.HIGH_FLAG).build(), 0));
    }
}
