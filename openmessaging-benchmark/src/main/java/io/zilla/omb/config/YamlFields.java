/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * The top-level fields of one YAML mapping, each with the position of its value, read with typed and range-checked
 * getters. Fields nobody asks for are ignored, as OMB ignores them. Every error names the source, the field and the
 * line and column of its value.
 */
final class YamlFields
{
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final String source;
    private final Map<String, JsonNode> values = new LinkedHashMap<>();
    private final Map<String, JsonLocation> locations = new LinkedHashMap<>();

    private YamlFields(String source)
    {
        this.source = source;
    }

    static YamlFields read(Path file)
    {
        final String source = String.valueOf(file.getFileName());
        if (!Files.isRegularFile(file))
        {
            throw new InvalidConfigException(source + ": no such file: " + file.toAbsolutePath());
        }
        try
        {
            return parse(source, Files.readString(file));
        }
        catch (IOException ex)
        {
            throw new InvalidConfigException(source + ": cannot read: " + ex.getMessage(), ex);
        }
    }

    static YamlFields parse(String source, String text)
    {
        final YamlFields fields = new YamlFields(source);
        try (JsonParser parser = YAML.createParser(text))
        {
            final JsonToken first = parser.nextToken();
            if (first != JsonToken.START_OBJECT)
            {
                throw new InvalidConfigException(source + ": " + at(parser.currentTokenLocation())
                    + "expected a mapping of fields");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME)
            {
                final String name = parser.currentName();
                parser.nextToken();
                fields.locations.put(name, parser.currentTokenLocation());
                fields.values.put(name, YAML.readTree(parser));
            }
        }
        catch (JsonProcessingException ex)
        {
            final JsonLocation location = ex.getLocation();
            final String where = location != null ? at(location) : "";
            throw new InvalidConfigException(source + ": " + where + ex.getOriginalMessage(), ex);
        }
        catch (IOException ex)
        {
            throw new InvalidConfigException(source + ": cannot parse: " + ex.getMessage(), ex);
        }
        return fields;
    }

    String source()
    {
        return source;
    }

    boolean has(String name)
    {
        final JsonNode node = values.get(name);
        return node != null && !node.isNull();
    }

    String requiredString(String name)
    {
        if (!has(name))
        {
            throw new InvalidConfigException(source + ": " + name + ": required");
        }
        return string(name, null);
    }

    String string(String name, String defaultValue)
    {
        if (!has(name))
        {
            return defaultValue;
        }
        final JsonNode node = values.get(name);
        if (!node.isValueNode())
        {
            throw invalid(name, "expected text, was " + node.getNodeType().name().toLowerCase());
        }
        return node.asText();
    }

    boolean booleanValue(String name, boolean defaultValue)
    {
        if (!has(name))
        {
            return defaultValue;
        }
        final JsonNode node = values.get(name);
        if (!node.isBoolean())
        {
            throw invalid(name, "expected true or false, was " + node);
        }
        return node.booleanValue();
    }

    int intValue(String name, int defaultValue, int min, int max)
    {
        return (int) longValue(name, defaultValue, min, max);
    }

    long longValue(String name, long defaultValue, long min, long max)
    {
        if (!has(name))
        {
            return defaultValue;
        }
        final JsonNode node = values.get(name);
        if (!node.isIntegralNumber() || !node.canConvertToLong())
        {
            throw invalid(name, "expected a whole number, was " + node);
        }
        final long value = node.longValue();
        if (value < min || value > max)
        {
            throw invalid(name, range(min, max) + ", was " + value);
        }
        return value;
    }

    double doubleValue(String name, double defaultValue, double min, double max)
    {
        if (!has(name))
        {
            return defaultValue;
        }
        final JsonNode node = values.get(name);
        if (!node.isNumber())
        {
            throw invalid(name, "expected a number, was " + node);
        }
        final double value = node.doubleValue();
        if (!(value >= min && value <= max))
        {
            throw invalid(name, range(min, max) + ", was " + value);
        }
        return value;
    }

    /** An error about field {@code name}, at its value's line and column when it is present. */
    InvalidConfigException invalid(String name, String message)
    {
        final JsonLocation location = locations.get(name);
        return new InvalidConfigException(source + ": " + (location != null ? at(location) : "") + name + ": " + message);
    }

    private static String range(double min, double max)
    {
        return max == Double.MAX_VALUE || max == Long.MAX_VALUE || max == Integer.MAX_VALUE
            ? "must be at least " + format(min)
            : "must be between " + format(min) + " and " + format(max);
    }

    private static String format(double value)
    {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private static String at(JsonLocation location)
    {
        return "line " + location.getLineNr() + ", column " + location.getColumnNr() + ": ";
    }
}
