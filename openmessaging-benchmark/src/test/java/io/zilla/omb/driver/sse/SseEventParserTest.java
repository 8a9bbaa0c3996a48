/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class SseEventParserTest
{
    @Test
    void shouldJoinDataLinesWithLineFeed()
    {
        assertEquals(List.of("message|first\nsecond\n|null"), parse("data: first\ndata:second\ndata\n\n"));
    }

    @Test
    void shouldEndLinesAtCrLfCrAndLf()
    {
        assertEquals(List.of("message|a|null", "message|b|null", "message|c|null"),
            parse("data: a\r\n\r\ndata: b\r\rdata: c\n\n"));
    }

    @Test
    void shouldIgnoreCommentsAndUnknownFields()
    {
        assertEquals(List.of("message|x|null"), parse(": keep-alive\n:\nfoo: bar\ndata: x\n: more\n\n: idle\n\n"));
    }

    @Test
    void shouldKeepIdAndTakeEventPerEvent()
    {
        assertEquals(List.of("update|1|a", "message|2|a", "message|3|"),
            parse("id: a\nevent: update\ndata: 1\n\ndata: 2\n\nid\ndata: 3\n\n"));
    }

    @Test
    void shouldIgnoreIdWithNulAndEventWithoutData()
    {
        assertEquals(List.of("message|x|b"), parse("id: b\n\nevent: lost\n\nid: c\0d\ndata: x\n\n"));
    }

    @Test
    void shouldStripOneSpaceAndBom()
    {
        assertEquals(List.of("message| two spaces|null"), parse("\ufeffdata:  two spaces\n\n"));
    }

    @Test
    void shouldReadRetryDigitsOnly()
    {
        final SseEventParser parser = new SseEventParser(event -> { }, 1024);
        feed(parser, "retry: 250\n\n");
        assertEquals(250, parser.retryMillis());
        feed(parser, "retry: 1x\n\n");
        assertEquals(250, parser.retryMillis());
    }

    @Test
    void shouldNotDispatchIncompleteEvent()
    {
        assertEquals(List.of(), parse("data: never ended\n"));
    }

    @Test
    void shouldParseTheSameSplitAnywhere()
    {
        final String stream = "\ufeffretry: 10\r\n: hi\r\nid: 7\r\nevent: e\r\ndata: one\r\ndata: two\r\n\r\n"
            + "data: x\r\rdata:y\n\n";
        final byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        final List<String> whole = parse(stream);
        assertEquals(List.of("e|one\ntwo|7", "message|x|7", "message|y|7"), whole);
        for (int split = 0; split <= bytes.length; split++)
        {
            for (int second = split; second <= bytes.length; second += 3)
            {
                final List<String> events = new ArrayList<>();
                final SseEventParser parser = new SseEventParser(event -> events.add(describe(event)), 1024);
                parser.parse(bytes, 0, split);
                parser.parse(bytes, split, second - split);
                parser.parse(bytes, second, bytes.length - second);
                assertEquals(whole, events, "split at " + split + " and " + second);
            }
        }
    }

    @Test
    void shouldRefuseOverlongLine()
    {
        final SseEventParser parser = new SseEventParser(event -> { }, 16);
        assertThrows(IllegalStateException.class, () -> feed(parser, "data: 0123456789abcdef"));
    }

    private static List<String> parse(String stream)
    {
        final List<String> events = new ArrayList<>();
        feed(new SseEventParser(event -> events.add(describe(event)), 1024), stream);
        return events;
    }

    private static void feed(SseEventParser parser, String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        parser.parse(bytes, 0, bytes.length);
    }

    private static String describe(SseEventParser event)
    {
        return event.type() + "|" + new String(event.data(), 0, event.dataLength(), StandardCharsets.UTF_8) + "|"
            + event.lastEventId();
    }
}
