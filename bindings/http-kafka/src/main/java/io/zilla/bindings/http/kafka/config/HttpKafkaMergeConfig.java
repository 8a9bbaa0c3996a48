/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.config;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.zilla.engine.config.ConfigValueException;

/**
 * A fetch route's {@code merge}: the records' values go, comma separated, between {@code prefix} and {@code suffix},
 * the initial document split where its array at the items path ends (so {@code {"data":[]}} and {@code /data/-} give
 * {@code {"data":[} and {@code ]}}). Worked out once, when the config is read.
 */
public record HttpKafkaMergeConfig(String contentType, byte[] prefix, byte[] suffix)
{
    public static final String JSON = "application/json";

    private static final String MARK = "\u0000items\u0000";

    /** @throws ConfigValueException when the initial document is not JSON or the path names no array in it */
    public static HttpKafkaMergeConfig of(String contentType, String initial, String path)
    {
        final ObjectMapper mapper = new ObjectMapper();
        final JsonNode document;
        try
        {
            document = mapper.readTree(initial);
        }
        catch (JsonProcessingException ex)
        {
            throw new ConfigValueException("merge.initial", "is not a JSON document: " + ex.getOriginalMessage());
        }
        final String pointer = path.substring(0, path.length() - 2);
        final JsonNode target = pointer.isEmpty() ? document : document.at(pointer);
        if (!(target instanceof ArrayNode array) || !array.isEmpty())
        {
            throw new ConfigValueException("merge.path", path + " names no empty array of the initial document " + initial);
        }
        array.add(TextNode.valueOf(MARK));
        final String text = document.toString();
        final String mark = "\"" + MARK.replace("\u0000", "\\u0000") + "\"";
        final int at = text.indexOf(mark);
        return new HttpKafkaMergeConfig(contentType, text.substring(0, at).getBytes(UTF_8),
            text.substring(at + mark.length()).getBytes(UTF_8));
    }
}
