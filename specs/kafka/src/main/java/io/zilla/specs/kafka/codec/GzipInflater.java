/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static io.zilla.specs.kafka.codec.RecordsInflater.CORRUPT;
import static io.zilla.specs.kafka.codec.RecordsInflater.TOO_LARGE;

import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import org.agrona.ExpandableArrayBuffer;

/**
 * Gzip as kafka-clients reads it (java.util.zip.GZIPInputStream): members one after the other, each a header (with
 * its optional extra field, name, comment and header CRC), the raw deflate stream and a CRC32 and length trailer
 * that must match; bytes after the last member that do not start another are ignored, as GZIPInputStream does.
 * The Inflater and CRC32 are reset per member, never reallocated.
 */
final class GzipInflater
{
    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;

    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();

    /**
     * Inflates {@code [offset, offset + length)} of {@code input} to {@code output} from index 0.
     *
     * @return the inflated length, or {@link RecordsInflater#TOO_LARGE} beyond {@code maxLength}, or
     *     {@link RecordsInflater#CORRUPT}
     */
    int inflate(
        byte[] input,
        int offset,
        int length,
        ExpandableArrayBuffer output,
        int maxLength) throws DataFormatException
    {
        final int limit = offset + length;
        int position = offset;
        int size = 0;
        do
        {
            position = skipHeader(input, position, limit);
            if (position < 0)
            {
                size = CORRUPT;
                break;
            }
            final int memberSize = inflateMember(input, position, limit, output, size, maxLength);
            if (memberSize < 0)
            {
                size = memberSize;
                break;
            }
            crc.reset();
            crc.update(output.byteArray(), size, memberSize);
            position = limit - inflater.getRemaining();
            if (limit - position < GzipDeflater.TRAILER_LENGTH
                || readIntLE(input, position) != (int) crc.getValue()
                || readIntLE(input, position + Integer.BYTES) != memberSize)
            {
                size = CORRUPT;
                break;
            }
            position += GzipDeflater.TRAILER_LENGTH;
            size += memberSize;
        }
        while (startsMember(input, position, limit));
        return size;
    }

    private int inflateMember(
        byte[] input,
        int position,
        int limit,
        ExpandableArrayBuffer output,
        int start,
        int maxLength) throws DataFormatException
    {
        // room for one byte beyond the bound tells "too large" apart from "exactly the bound"
        final long bound = maxLength + 1L;
        inflater.reset();
        inflater.setInput(input, position, limit - position);
        int size = start;
        int result = 0;
        while (!inflater.finished())
        {
            if (size == output.capacity())
            {
                if (size >= bound)
                {
                    result = TOO_LARGE;
                    break;
                }
                output.checkLimit((int) Math.min(bound, size * 2L + 64));
            }
            final int inflated = inflater.inflate(output.byteArray(), size, (int) Math.min(bound, output.capacity()) - size);
            if (inflated == 0 && (inflater.needsInput() || inflater.needsDictionary()))
            {
                result = CORRUPT;
                break;
            }
            size += inflated;
            if (size > maxLength)
            {
                result = TOO_LARGE;
                break;
            }
        }
        return result < 0 ? result : size - start;
    }

    private static boolean startsMember(
        byte[] input,
        int position,
        int limit)
    {
        return limit - position >= GzipDeflater.HEADER_LENGTH
            && input[position] == 0x1f && input[position + 1] == (byte) 0x8b;
    }

    /** @return the position after the member header, or -1 when it is not one */
    private static int skipHeader(
        byte[] input,
        int position,
        int limit)
    {
        int next = -1;
        if (startsMember(input, position, limit) && input[position + 2] == 8)
        {
            final int flags = input[position + 3] & 0xff;
            next = position + GzipDeflater.HEADER_LENGTH;
            if ((flags & FEXTRA) != 0)
            {
                next = next + 2 <= limit ? next + 2 + ((input[next] & 0xff) | (input[next + 1] & 0xff) << 8) : -1;
            }
            if ((flags & FNAME) != 0)
            {
                next = skipZeroTerminated(input, next, limit);
            }
            if ((flags & FCOMMENT) != 0)
            {
                next = skipZeroTerminated(input, next, limit);
            }
            if ((flags & FHCRC) != 0 && next >= 0)
            {
                next += 2;
            }
            next = next > limit ? -1 : next;
        }
        return next;
    }

    private static int skipZeroTerminated(
        byte[] input,
        int position,
        int limit)
    {
        int next = -1;
        for (int i = Math.max(position, 0); position >= 0 && i < limit; i++)
        {
            if (input[i] == 0)
            {
                next = i + 1;
                break;
            }
        }
        return next;
    }

    private static int readIntLE(
        byte[] input,
        int position)
    {
        return (input[position] & 0xff) | (input[position + 1] & 0xff) << 8 | (input[position + 2] & 0xff) << 16
            | (input[position + 3] & 0xff) << 24;
    }
}
