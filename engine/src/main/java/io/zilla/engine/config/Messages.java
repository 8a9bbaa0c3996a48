/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Small wording helpers, so that every message reads the same way. */
final class Messages
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private Messages()
    {
    }

    /** {@code a}, {@code a or b}, {@code a, b or c}. */
    static String either(List<String> choices)
    {
        final int last = choices.size() - 1;
        return last <= 0
            ? String.join("", choices)
            : String.join(", ", choices.subList(0, last)) + " or " + choices.get(last);
    }

    /** A JSON Schema type name as a phrase: {@code an integer}, {@code a string}, {@code null}. */
    static String withArticle(String type)
    {
        return switch (type)
        {
            case "null" -> "null";
            case "integer", "object", "array" -> "an " + type;
            default -> "a " + type;
        };
    }

    /** The indefinite article for a word as it is spelt: {@code an} before a vowel ({@code an echo}), else {@code a}. */
    static String article(String word)
    {
        return !word.isEmpty() && "aeiouAEIOU".indexOf(word.charAt(0)) >= 0 ? "an" : "a";
    }

    /** {@code 1 item}, {@code 2 items}. */
    static String count(String number, String singular)
    {
        return count(number, singular, singular + "s");
    }

    static String count(String number, String singular, String plural)
    {
        return number + " " + ("1".equals(number) ? singular : plural);
    }

    /** The values of a JSON array as a reader would write them: strings without quotes. */
    static List<String> jsonValues(String array)
    {
        final List<String> values = new ArrayList<>();
        try
        {
            for (JsonNode value : JSON.readTree(array))
            {
                values.add(value.isTextual() ? value.textValue() : value.toString());
            }
        }
        catch (JsonProcessingException ex)
        {
            values.add(array);
        }
        return values;
    }
}
