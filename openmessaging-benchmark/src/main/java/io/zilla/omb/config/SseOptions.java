/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.config;

/**
 * The SSE driver's fields of a driver file (our extension, OMB has no SSE driver): where the connections go and how
 * fast they are opened. Other drivers ignore them.
 *
 * @param url the endpoint of a topic, {@code {topic}} standing for the topic's name
 *     ({@code http://127.0.0.1:7114/{topic}}); null in a {@code throughZilla} file, whose url is the in-process zilla's
 * @param connectionsPerSecond how many connections are opened per second at most, reconnections included: a burst of
 *     10,000 SYNs overflows a listener's accept backlog, and the dropped SYNs then wait for TCP's 1 s retransmission
 * @param selectorThreads the client's selector threads, over which all the connections are spread
 * @param reconnect whether a dropped connection is opened again, with {@code Last-Event-ID}
 */
public record SseOptions(String url, int connectionsPerSecond, int selectorThreads, boolean reconnect)
{
    public static final int DEFAULT_CONNECTIONS_PER_SECOND = 2_000;

    public static final SseOptions DEFAULT = new SseOptions(null, DEFAULT_CONNECTIONS_PER_SECOND,
        Math.min(2, Runtime.getRuntime().availableProcessors()), true);

    public SseOptions withUrl(String url)
    {
        return new SseOptions(url, connectionsPerSecond, selectorThreads, reconnect);
    }

    static SseOptions read(YamlFields fields)
    {
        final String url = fields.string("sseUrl", null);
        if (url != null && !url.startsWith("http://"))
        {
            throw fields.invalid("sseUrl", "must be an http:// URL (the SSE client speaks HTTP/1.1 without TLS), was "
                + url);
        }
        if (url != null && !url.contains("{topic}"))
        {
            throw fields.invalid("sseUrl", "must name the topic's place with {topic}, was " + url);
        }
        return new SseOptions(url,
            fields.intValue("sseConnectionsPerSecond", DEFAULT.connectionsPerSecond(), 1, 1_000_000),
            fields.intValue("sseSelectorThreads", DEFAULT.selectorThreads(), 1, 64),
            fields.booleanValue("sseReconnect", DEFAULT.reconnect()));
    }
}
