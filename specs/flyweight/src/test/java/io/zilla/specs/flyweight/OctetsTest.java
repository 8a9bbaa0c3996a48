/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.bytes;
import static io.zilla.specs.flyweight.Buffers.encode;
import static io.zilla.specs.flyweight.Buffers.exact;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zilla.specs.test.types.BlobsFW;
import io.zilla.specs.test.types.OtherPayloadFW;
import io.zilla.specs.test.types.SizeFieldsFW;
import io.zilla.specs.test.types.SizedFW;
import io.zilla.specs.test.types.SizedPayloadFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class OctetsTest
{
    private static final byte[] FIXED = bytes(0xde, 0xad, 0xbe, 0xef);

    @Test
    void shouldRoundTripEveryOctetsField()
    {
        final byte[] sized = "abc".getBytes(UTF_8);
        final byte[] nullable = bytes(0x00, 0xff);
        final byte[] varSized = filled(70, 0x5a);
        final byte[] rest = "tail".getBytes(UTF_8);
        final byte[] encoded = encode(new BlobsFW.Builder(), b -> b
            .fixed(FIXED)
            .between(-9)
            .sized(sized)
            .nullable(nullable)
            .varSized(varSized)
            .rest(rest));

        final BlobsFW blobs = new BlobsFW().wrap(exact(encoded), 0, encoded.length);

        assertOctets(FIXED, blobs.fixed());
        assertEquals(3, blobs.length());
        assertEquals(-9, blobs.between());
        assertOctets(sized, blobs.sized());
        assertEquals(2, blobs.nullableLength());
        assertOctets(nullable, blobs.nullable());
        assertEquals(70, blobs.varLength());
        assertOctets(varSized, blobs.varSized());
        assertOctets(rest, blobs.rest());
        assertEquals(4 + 2 + 4 + 3 + 4 + 2 + 2 + 70 + 4, blobs.sizeof());
        assertEquals(encoded.length, blobs.rest().limit());
    }

    @Test
    void shouldLayOutSizeFieldsBeforeTheirOctets()
    {
        final byte[] encoded = encode(new BlobsFW.Builder(), b -> b
            .fixed(bytes(1, 2, 3, 4))
            .sized(bytes(5, 6))
            .nullable(bytes(7))
            .varSized(bytes(8, 9, 10))
            .rest(bytes(11)));

        assertArrayEquals(bytes(
            1, 2, 3, 4,
            0x00, 0x02,
            0x00, 0x00, 0x00, 0x07,
            5, 6,
            0x00, 0x00, 0x00, 0x01,
            7,
            0x06,
            8, 9, 10,
            11), encoded);
    }

    @Test
    void shouldFillOctetsDefaultsWhenSkipped()
    {
        final byte[] encoded = encode(new BlobsFW.Builder(), b -> b.fixed(FIXED).sized(bytes(1)));

        assertArrayEquals(bytes(
            0xde, 0xad, 0xbe, 0xef,
            0x00, 0x01,
            0x00, 0x00, 0x00, 0x07,
            1,
            0xff, 0xff, 0xff, 0xff,
            0x01), encoded);

        final BlobsFW blobs = new BlobsFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(7, blobs.between());
        assertEquals(-1, blobs.nullableLength());
        assertNull(blobs.nullable());
        assertEquals(-1, blobs.varLength());
        assertNull(blobs.varSized());
        assertNotNull(blobs.rest());
        assertEquals(0, blobs.rest().sizeof());
        assertTrue(blobs.toString().contains("nullable=null"));
        assertTrue(blobs.toString().contains("varSized=null"));
        assertTrue(blobs.toString().contains("rest=octets[0]"));
    }

    @Test
    void shouldDistinguishEmptyFromNull()
    {
        final byte[] encoded = encode(new BlobsFW.Builder(), b -> b
            .fixed(FIXED)
            .sized(new byte[0])
            .nullable(new byte[0])
            .varSized(new byte[0]));

        final BlobsFW blobs = new BlobsFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals(0, blobs.length());
        assertEquals(0, blobs.sized().sizeof());
        assertEquals(0, blobs.nullableLength());
        assertNotNull(blobs.nullable());
        assertEquals(0, blobs.nullable().sizeof());
        assertEquals(0, blobs.varLength());
        assertNotNull(blobs.varSized());
        assertEquals(0, blobs.varSized().sizeof());
    }

    @Test
    void shouldSetOctetsFromBufferRegionAndFlyweight()
    {
        final UnsafeBuffer source = new UnsafeBuffer(bytes(9, 9, 1, 2, 3, 4, 5, 6, 9));
        final OctetsFW view = new OctetsFW().wrap(source, 4, 7);
        final byte[] encoded = encode(new BlobsFW.Builder(), b -> b
            .fixed(source, 2, 4)
            .sized(view)
            .nullable(source, 0, 2)
            .varSized(view)
            .rest(source, 8, 1));

        final BlobsFW blobs = new BlobsFW().wrap(exact(encoded), 0, encoded.length);

        assertOctets(bytes(1, 2, 3, 4), blobs.fixed());
        assertOctets(bytes(3, 4, 5), blobs.sized());
        assertOctets(bytes(9, 9), blobs.nullable());
        assertOctets(bytes(3, 4, 5), blobs.varSized());
        assertOctets(bytes(9), blobs.rest());

        final byte[] copied = encode(new BlobsFW.Builder(), b -> b
            .fixed(blobs.fixed())
            .sized(blobs.sized())
            .nullable(blobs.nullable())
            .varSized(blobs.varSized())
            .rest(blobs.rest()));
        assertArrayEquals(encoded, copied);
    }

    @Test
    void shouldTakeEveryByteUpToMaxLimitAsTrailingOctets()
    {
        final byte[] encoded = encode(new BlobsFW.Builder(), b -> b.fixed(FIXED).sized(bytes(1)).rest(bytes(1, 2)));
        final byte[] longer = new byte[encoded.length + 3];
        System.arraycopy(encoded, 0, longer, 0, encoded.length);
        final UnsafeBuffer buffer = exact(longer);

        final BlobsFW blobs = new BlobsFW().wrap(buffer, 0, buffer.capacity());
        assertEquals(5, blobs.rest().sizeof());
        assertEquals(longer.length, blobs.limit());

        final BlobsFW bounded = new BlobsFW().wrap(buffer, 0, encoded.length - 2);
        assertEquals(0, bounded.rest().sizeof());
        assertEquals(encoded.length - 2, bounded.limit());
    }

    @Test
    void shouldRoundTripLargestUint16SizedOctets()
    {
        final byte[] sized = filled(65535, 0x33);
        final byte[] encoded = encode(new BlobsFW.Builder(), b -> b.fixed(FIXED).sized(sized));

        final BlobsFW blobs = new BlobsFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals(65535, blobs.length());
        assertOctets(sized, blobs.sized());
        assertNull(blobs.nullable());
    }

    @Test
    void shouldRoundTripSizeFieldsOfEveryKind()
    {
        final byte[] bytes8 = filled(127, 8);
        final byte[] bytes64 = filled(300, 64);
        final byte[] bytesU8 = filled(255, 0xf8);
        final byte[] bytesVu = filled(128, 0x7f);
        final byte[] encoded = encode(new SizeFieldsFW.Builder(), b -> b
            .bytes8(bytes8)
            .bytes64(bytes64)
            .bytesU8(bytesU8)
            .bytesVu(bytesVu));

        final SizeFieldsFW fields = new SizeFieldsFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals(127, fields.len8());
        assertOctets(bytes8, fields.bytes8());
        assertEquals(300L, fields.len64());
        assertOctets(bytes64, fields.bytes64());
        assertEquals(255, fields.lenU8());
        assertOctets(bytesU8, fields.bytesU8());
        assertEquals(128L, fields.lenVu());
        assertOctets(bytesVu, fields.bytesVu());
        assertEquals(1 + 127 + 8 + 300 + 1 + 255 + 2 + 128, fields.sizeof());
    }

    @Test
    void shouldFillNullSizeFieldsWhenSkipped()
    {
        final byte[] encoded = encode(new SizeFieldsFW.Builder(), b -> b.bytesU8(new byte[0]).bytesVu(bytes(1)));

        assertArrayEquals(bytes(
            0xff,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0x00,
            0x01, 0x01), encoded);

        final SizeFieldsFW fields = new SizeFieldsFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(-1, fields.len8());
        assertNull(fields.bytes8());
        assertEquals(-1L, fields.len64());
        assertNull(fields.bytes64());
        assertEquals(0, fields.lenU8());
        assertEquals(0, fields.bytesU8().sizeof());
        assertEquals(1L, fields.lenVu());
        assertOctets(bytes(1), fields.bytesVu());
    }

    @Test
    void shouldBuildAndCompareStandaloneOctets()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        final OctetsFW octets = new OctetsFW.Builder()
            .wrap(buffer, 1, 8)
            .put(bytes(1, 2))
            .put(new UnsafeBuffer(bytes(0, 3, 4)), 1, 2)
            .build();

        assertEquals(1, octets.offset());
        assertEquals(5, octets.limit());
        assertEquals("octets[4]", octets.toString());
        assertTrue(octets.contentEquals(new UnsafeBuffer(bytes(7, 1, 2, 3, 4)), 1, 4));
        assertFalse(octets.contentEquals(new UnsafeBuffer(bytes(1, 2, 3, 5)), 0, 4));
        assertFalse(octets.contentEquals(new UnsafeBuffer(bytes(1, 2, 3)), 0, 3));

        final UnsafeBuffer target = new UnsafeBuffer(new byte[6]);
        octets.copyTo(target, 2);
        assertArrayEquals(bytes(0, 0, 1, 2, 3, 4), target.byteArray());

        final OctetsFW copy = new OctetsFW.Builder().wrap(new UnsafeBuffer(new byte[4]), 0, 4).put(octets).build();
        assertTrue(copy.contentEquals(octets.buffer(), octets.offset(), octets.sizeof()));
    }

    @Test
    void shouldCompareLongOctetsAcrossWordBoundaries()
    {
        final byte[] data = new byte[37];
        for (int i = 0; i < data.length; i++)
        {
            data[i] = (byte) (i * 7);
        }
        final UnsafeBuffer a = new UnsafeBuffer(data.clone());
        final UnsafeBuffer b = new UnsafeBuffer(data.clone());
        assertTrue(Bytes.equal(a, 0, b, 0, data.length));
        for (int i = 0; i < data.length; i++)
        {
            b.putByte(i, (byte) (data[i] + 1));
            assertFalse(Bytes.equal(a, 0, b, 0, data.length), "differs at " + i);
            assertTrue(Bytes.equal(a, 0, b, 0, i), "same before " + i);
            b.putByte(i, data[i]);
        }
    }

    private static void assertOctets(byte[] expected, OctetsFW actual)
    {
        assertNotNull(actual);
        assertEquals(expected.length, actual.sizeof());
        assertArrayEquals(expected, Buffers.copy(actual));
        assertTrue(actual.contentEquals(new UnsafeBuffer(expected), 0, expected.length));
        assertEquals("octets[" + expected.length + "]", actual.toString());
    }

    private static byte[] filled(int length, int value)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte) (value + i);
        }
        return bytes;
    }

    @Test
    void shouldSizeOctetsByInheritedField()
    {
        final byte[] encoded = encode(new SizedPayloadFW.Builder(), b -> b.tag(-1).payload(bytes(1, 2, 3)));

        assertArrayEquals(bytes(0x00, 0x03, 0xff, 0xff, 0xff, 0xff, 1, 2, 3), encoded);
        final SizedPayloadFW payload = new SizedPayloadFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(3, payload.size());
        assertEquals(-1, payload.tag());
        assertOctets(bytes(1, 2, 3), payload.payload());
        assertEquals(3, new SizedFW().wrap(exact(encoded), 0, encoded.length).size());

        final byte[] skipped = encode(new SizedPayloadFW.Builder(), b ->
        {
        });
        assertArrayEquals(bytes(0xff, 0xff, 0x00, 0x00, 0x00, 0x09), skipped);
        final SizedPayloadFW nullPayload = new SizedPayloadFW().wrap(exact(skipped), 0, skipped.length);
        assertEquals(-1, nullPayload.size());
        assertEquals(9, nullPayload.tag());
        assertNull(nullPayload.payload());
    }

    @Test
    void shouldSizeOctetsBySameInheritedFieldInSiblingSubtypes()
    {
        final byte[] encoded = encode(new OtherPayloadFW.Builder(), b -> b.other(bytes(7, 8)));

        assertArrayEquals(bytes(0x00, 0x02, 7, 8), encoded);
        final OtherPayloadFW other = new OtherPayloadFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(2, other.size());
        assertOctets(bytes(7, 8), other.other());
        assertNull(new SizedPayloadFW().tryWrap(exact(encoded), 0, encoded.length));
    }
}
