/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.config;

import java.util.Locale;

/**
 * The HTTP driver's fields of a driver file (our extension, OMB has no HTTP driver): where the producers send, over
 * which transport, with how many connections and streams, and where an HTTP consumer reads. Other drivers ignore them.
 *
 * @param url the produce endpoint of a topic, {@code {topic}} standing for the topic's name
 *     ({@code http://127.0.0.1:7114/{topic}}); a {@code /{key}} in it is the message's key (URL-encoded), or nothing
 *     for a message without one; null in a {@code throughZilla} file, whose url is the in-process zilla's
 * @param transport {@code http/1.1} (keep-alive, one request in flight per connection) or {@code h2c} (HTTP/2 over
 *     cleartext with prior knowledge, many concurrent streams on one connection)
 * @param connections connections per producer: for HTTP/1.1 the requests each producer has in flight at most
 * @param maxStreams h2c: concurrent streams per connection at most (the server's SETTINGS_MAX_CONCURRENT_STREAMS
 *     caps it further)
 * @param maxPending requests a producer queues beyond those in flight before {@code sendAsync} waits (as
 *     kafka-clients' {@code send} waits when its {@code buffer.memory} is full)
 * @param selectorThreads the client's selector threads, over which the producers' connections are spread
 * @param keyHeader a request header that carries the message's key too ({@code idempotency-key}, say), or null
 * @param consumer {@code kafka} (the Kafka driver's consumers, per message) or {@code fetch} (HTTP long-poll of
 *     {@code fetchUrl}: what the latest state was when it changed, not each message; README.md)
 * @param fetchUrl the fetch endpoint of a topic for {@code consumer: fetch}, {@code {topic}} standing for its name
 * @param fetchWaitSeconds {@code Prefer: wait=N} of each long-poll
 */
public record HttpOptions(
    String url,
    String transport,
    int connections,
    int maxStreams,
    int maxPending,
    int selectorThreads,
    String keyHeader,
    String consumer,
    String fetchUrl,
    int fetchWaitSeconds)
{
    public static final String HTTP_1_1 = "http/1.1";
    public static final String H2C = "h2c";
    public static final String CONSUMER_KAFKA = "kafka";
    public static final String CONSUMER_FETCH = "fetch";

    public static final int DEFAULT_H1_CONNECTIONS = 32;

    public static final HttpOptions DEFAULT = new HttpOptions(null, HTTP_1_1, DEFAULT_H1_CONNECTIONS, 128, 16_384,
        1, null, CONSUMER_KAFKA, null, 10);

    public boolean h2c()
    {
        return H2C.equals(transport);
    }

    public boolean fetchConsumer()
    {
        return CONSUMER_FETCH.equals(consumer);
    }

    public HttpOptions withUrls(String url, String fetchUrl)
    {
        return new HttpOptions(url, transport, connections, maxStreams, maxPending, selectorThreads, keyHeader, consumer,
            this.fetchUrl != null ? this.fetchUrl : fetchUrl, fetchWaitSeconds);
    }

    static HttpOptions read(YamlFields fields)
    {
        final String url = template(fields, "httpUrl");
        final String transport = fields.string("httpTransport", DEFAULT.transport()).toLowerCase(Locale.ROOT);
        if (!HTTP_1_1.equals(transport) && !H2C.equals(transport))
        {
            throw fields.invalid("httpTransport", "must be http/1.1 or h2c, was " + transport);
        }
        final String consumer = fields.string("httpConsumer", DEFAULT.consumer()).toLowerCase(Locale.ROOT);
        if (!CONSUMER_KAFKA.equals(consumer) && !CONSUMER_FETCH.equals(consumer))
        {
            throw fields.invalid("httpConsumer", "must be kafka or fetch, was " + consumer);
        }
        final String keyHeader = fields.string("httpKeyHeader", null);
        if (keyHeader != null && !keyHeader.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+"))
        {
            throw fields.invalid("httpKeyHeader", "must be a header name, was " + keyHeader);
        }
        final boolean h2c = H2C.equals(transport);
        return new HttpOptions(url, transport,
            fields.intValue("httpConnections", h2c ? 1 : DEFAULT.connections(), 1, 4096),
            fields.intValue("httpMaxStreams", DEFAULT.maxStreams(), 1, 1 << 20),
            fields.intValue("httpMaxPending", DEFAULT.maxPending(), 1, 1 << 24),
            fields.intValue("httpSelectorThreads", DEFAULT.selectorThreads(), 1, 64),
            keyHeader != null ? keyHeader.toLowerCase(Locale.ROOT) : null,
            consumer,
            template(fields, "httpFetchUrl"),
            fields.intValue("httpFetchWaitSeconds", DEFAULT.fetchWaitSeconds(), 0, 3600));
    }

    private static String template(YamlFields fields, String name)
    {
        final String url = fields.string(name, null);
        if (url != null && !url.startsWith("http://"))
        {
            throw fields.invalid(name, "must be an http:// URL (the HTTP client speaks HTTP/1.1 and h2c without TLS), "
                + "was " + url);
        }
        if (url != null && !url.contains("{topic}"))
        {
            throw fields.invalid(name, "must name the topic's place with {topic}, was " + url);
        }
        return url;
    }
}
