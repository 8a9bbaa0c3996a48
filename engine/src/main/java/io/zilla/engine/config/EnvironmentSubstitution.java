/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;

/**
 * Replaces {@code ${{env.NAME}}} in string values. It runs on the parsed tree rather than on the text, so every
 * position stays the one in the file. A plain scalar that is nothing but one variable ({@code port: ${{env.PORT}}})
 * is then typed as YAML would type the substituted text, so that {@code 8080} is an integer; a quoted one stays a
 * string.
 */
final class EnvironmentSubstitution
{
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{\\{\\s*env\\.(\\w+)\\s*}}");

    private final UnaryOperator<String> environment;
    private final SourceMap sources;
    private final List<ConfigError> errors;

    EnvironmentSubstitution(UnaryOperator<String> environment, SourceMap sources, List<ConfigError> errors)
    {
        this.environment = environment;
        this.sources = sources;
        this.errors = errors;
    }

    /** The tree with every variable substituted; containers are updated in place. */
    JsonNode substitute(JsonNode root)
    {
        return visit(root, ConfigPath.ROOT);
    }

    private JsonNode visit(JsonNode node, ConfigPath path)
    {
        if (node.isObject())
        {
            for (Map.Entry<String, JsonNode> property : node.properties())
            {
                property.setValue(visit(property.getValue(), path.property(property.getKey())));
            }
        }
        else if (node.isArray())
        {
            final ArrayNode array = (ArrayNode) node;
            for (int index = 0; index < array.size(); index++)
            {
                array.set(index, visit(array.get(index), path.index(index)));
            }
        }
        else if (node.isTextual() && node.textValue().contains("${{"))
        {
            return substitute(node.textValue(), path);
        }
        return node;
    }

    private JsonNode substitute(String text, ConfigPath path)
    {
        final Matcher matcher = VARIABLE.matcher(text);
        final StringBuilder substituted = new StringBuilder();
        final Set<String> unset = new LinkedHashSet<>();
        while (matcher.find())
        {
            final String name = matcher.group(1);
            final String value = environment.apply(name);
            if (value == null)
            {
                unset.add(name);
                matcher.appendReplacement(substituted, Matcher.quoteReplacement(matcher.group()));
            }
            else
            {
                matcher.appendReplacement(substituted, Matcher.quoteReplacement(value));
            }
        }
        matcher.appendTail(substituted);

        unset.forEach(name -> errors.add(sources.error(path, "environment variable " + name + " is not set")));

        final String value = substituted.toString();
        final boolean wholeScalar = VARIABLE.matcher(text).matches();
        return unset.isEmpty() && wholeScalar && sources.isPlainScalar(path)
            ? typed(value)
            : JsonNodeFactory.instance.textNode(value);
    }

    /** The value as a plain YAML scalar would be typed: an integer, a number, a boolean, or else a string. */
    private static JsonNode typed(String value)
    {
        final JsonNodeFactory nodes = JsonNodeFactory.instance;
        try (YAMLParser parser = YamlTreeReader.YAML.createParser(value))
        {
            final JsonToken token = parser.nextToken();
            final JsonNode scalar = token == null ? null : switch (token)
            {
                case VALUE_NUMBER_INT -> YamlTreeReader.integer(parser);
                case VALUE_NUMBER_FLOAT -> nodes.numberNode(parser.getDoubleValue());
                case VALUE_TRUE, VALUE_FALSE -> nodes.booleanNode(token == JsonToken.VALUE_TRUE);
                default -> null;
            };
            if (scalar != null && parser.nextToken() == null)
            {
                return scalar;
            }
        }
        catch (IOException ex)
        {
            // not a YAML scalar on its own, such as "a: b" or "[": it stays the string it is
        }
        return nodes.textNode(value);
    }
}
