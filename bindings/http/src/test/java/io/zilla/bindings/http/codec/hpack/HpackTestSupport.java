/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Hex blocks and a sink that collects "name: value" lines, for the HPACK tests. */
final class HpackTestSupport
{
    private HpackTestSupport()
    {
    }

    /** A buffer of exactly the hex's bytes (spaces and newlines ignored): reading past them throws. */
    static UnsafeBuffer hex(
        String hex)
    {
        return new UnsafeBuffer(HexFormat.of().parseHex(hex.replaceAll("\\s", "")));
    }

    static String hexOf(
        DirectBuffer buffer,
        int offset,
        int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return HexFormat.of().formatHex(bytes);
    }

    static String string(
        DirectBuffer buffer,
        int offset,
        int length)
    {
        return buffer.getStringWithoutLengthAscii(offset, length);
    }

    static UnsafeBuffer bytes(
        String text)
    {
        return new UnsafeBuffer(text.getBytes(ISO_8859_1));
    }

    /** Collects each field as "name: value", with a " (never indexed)" suffix when so. */
    static final class Collector implements HpackHeaderSink
    {
        final List<String> fields = new ArrayList<>();

        @Override
        public void onHeader(
            DirectBuffer name,
            int nameOffset,
            int nameLength,
            DirectBuffer value,
            int valueOffset,
            int valueLength,
            boolean neverIndexed)
        {
            fields.add(new String(copy(name, nameOffset, nameLength), ISO_8859_1) + ": "
                + new String(copy(value, valueOffset, valueLength), ISO_8859_1)
                + (neverIndexed ? " (never indexed)" : ""));
        }

        private static byte[] copy(
            DirectBuffer buffer,
            int offset,
            int length)
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            return bytes;
        }
    }

    /** The table's entries, newest first, as "name: value". */
    static List<String> entries(
        HpackDynamicTable table)
    {
        final List<String> entries = new ArrayList<>();
        for (int i = 1; i <= table.length(); i++)
        {
            entries.add(string(table.buffer(), table.nameOffset(i), table.nameLength(i)) + ": "
                + string(table.buffer(), table.valueOffset(i), table.valueLength(i)));
        }
        return entries;
    }
}
