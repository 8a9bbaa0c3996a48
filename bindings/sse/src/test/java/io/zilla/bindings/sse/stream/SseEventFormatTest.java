/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The event writer against the rule written out byte by byte: every CR, LF and CRLF of a payload ends a data line,
 * wherever it falls in the eight-byte words the writer scans and however the payload is cut into fragments.
 */
class SseEventFormatTest
{
    private static final byte[] ALPHABET = "ab\r\n".getBytes(ISO_8859_1);

    @Test
    void shouldSplitDataLinesAtEveryLineBreakAsTheRuleSays()
    {
        final Random random = new Random(0x55e);
        for (int round = 0; round < 20_000; round++)
        {
            final byte[] payload = new byte[random.nextInt(40)];
            for (int i = 0; i < payload.length; i++)
            {
                // mostly plain bytes, so that whole words without a break are scanned too
                payload[i] = random.nextInt(4) == 0 ? ALPHABET[2 + random.nextInt(2)] : ALPHABET[random.nextInt(2)];
            }
            final int cut = payload.length == 0 ? 0 : random.nextInt(payload.length + 1);
            assertEquals(expected(payload), written(payload, cut), () -> "payload " + escape(payload) + " cut at " + cut);
        }
    }

    @Test
    void shouldTellOneLineValuesFromOthersAtAnyPosition()
    {
        for (int length = 0; length < 20; length++)
        {
            final byte[] value = new byte[length];
            java.util.Arrays.fill(value, (byte) 'x');
            assertEquals(true, SseEventFormat.oneLine(new UnsafeBuffer(value), 0, length));
            for (int at = 0; at < length; at++)
            {
                for (byte brk : new byte[] {'\r', '\n'})
                {
                    final byte[] broken = value.clone();
                    broken[at] = brk;
                    assertEquals(false, SseEventFormat.oneLine(new UnsafeBuffer(broken), 0, length), "break at " + at);
                }
            }
        }
    }

    // the event as two fragments, [0, cut) and [cut, length), the second told whether the first ended with a CR
    private static String written(byte[] payload, int cut)
    {
        final UnsafeBuffer out = new UnsafeBuffer(new byte[payload.length * SseEventFormat.BREAK_LENGTH + 64]);
        final DirectBuffer in = new UnsafeBuffer(payload);
        final DirectBuffer none = new UnsafeBuffer(new byte[0]);
        final int first = SseEventFormat.length(-1, -1, in, 0, cut, true, false, false);
        int index = SseEventFormat.write(out, 0, none, 0, -1, none, 0, -1, in, 0, cut, true, false, false);
        assertEquals(first, index, "length of the first fragment");
        final boolean cr = SseEventFormat.endsWithCr(in, 0, cut, false);
        final int second = SseEventFormat.length(-1, -1, in, cut, payload.length - cut, false, true, cr);
        final int end = SseEventFormat.write(out, index, none, 0, -1, none, 0, -1, in, cut, payload.length - cut, false,
            true, cr);
        assertEquals(second, end - index, "length of the second fragment");
        return out.getStringWithoutLengthAscii(0, end);
    }

    private static String expected(byte[] payload)
    {
        final StringBuilder event = new StringBuilder("data: ");
        for (int i = 0; i < payload.length; i++)
        {
            final char c = (char) payload[i];
            if (c == '\r' || c == '\n')
            {
                if (!(c == '\n' && i > 0 && payload[i - 1] == '\r'))
                {
                    event.append("\ndata: ");
                }
            }
            else
            {
                event.append(c);
            }
        }
        return event.append("\n\n").toString();
    }

    private static String escape(byte[] payload)
    {
        return new String(payload, ISO_8859_1).replace("\r", "\\r").replace("\n", "\\n");
    }
}
