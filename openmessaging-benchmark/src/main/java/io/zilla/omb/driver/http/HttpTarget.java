/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Where one topic's requests go: the address, the {@code Host} / {@code :authority}, and the path of a message, from
 * a url template whose {@code {topic}} is the topic's name and whose {@code /{key}}, when it has one, the message's
 * key (URL-encoded), or nothing for a message without a key.
 */
final class HttpTarget
{
    private static final String KEY = "/{key}";

    final InetSocketAddress address;
    final String authority;
    private final byte[] unkeyedPath;
    private final String keyedPrefix;
    private final String keyedSuffix;

    private HttpTarget(InetSocketAddress address, String authority, String path)
    {
        this.address = address;
        this.authority = authority;
        final int key = path.indexOf(KEY);
        if (key >= 0)
        {
            this.keyedPrefix = path.substring(0, key) + "/";
            this.keyedSuffix = path.substring(key + KEY.length());
            this.unkeyedPath = (path.substring(0, key) + keyedSuffix).getBytes(StandardCharsets.US_ASCII);
        }
        else
        {
            this.keyedPrefix = null;
            this.keyedSuffix = null;
            this.unkeyedPath = path.getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** The target of {@code topic} in {@code template} ({@code http://host:port/path/{topic}...}). */
    static HttpTarget of(String template, String topic)
    {
        final String encoded = URLEncoder.encode(topic, StandardCharsets.UTF_8).replace("+", "%20");
        // {key} is kept for later: URI would refuse its braces, so it stands in as a plain segment meanwhile
        final URI uri = URI.create(template.replace("{topic}", encoded).replace(KEY, "/__key__"));
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null)
        {
            throw new IllegalArgumentException("not an http://host[:port]/path url: " + template);
        }
        final int port = uri.getPort() != -1 ? uri.getPort() : 80;
        final String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
            .replace("/__key__", KEY)
            + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "");
        final String authority = uri.getHost() + (uri.getPort() != -1 ? ":" + port : "");
        return new HttpTarget(new InetSocketAddress(uri.getHost(), port), authority, path);
    }

    /** Whether the path names the key: then each keyed message has a path of its own. */
    boolean keyed()
    {
        return keyedPrefix != null;
    }

    /** The path of a message with {@code key} (null: none); the same array for every message without one. */
    byte[] path(String key)
    {
        if (key == null || keyedPrefix == null)
        {
            return unkeyedPath;
        }
        final String encoded = URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20");
        return (keyedPrefix + encoded + keyedSuffix).getBytes(StandardCharsets.US_ASCII);
    }
}
