/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Parses YAML into a Jackson tree, walking the parser's tokens itself so that it can record in a {@link SourceMap}
 * where every key and value is, and catch duplicate keys (a YAML mapping may not repeat a key; Jackson would keep
 * the last one silently).
 */
final class YamlTreeReader
{
    /** A plain empty value ({@code exit:}) is null in YAML, not the empty string. */
    static final YAMLFactory YAML = YAMLFactory.builder().enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL).build();

    /** The mappings whose keys name things, so that a repeated key is a duplicate name. */
    private static final Map<ConfigPath, String> NAMED = Map.of(
        ConfigPath.of("bindings"), "binding",
        ConfigPath.of("vaults"), "vault",
        ConfigPath.of("guards"), "guard",
        ConfigPath.of("telemetry", "exporters"), "exporter");

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String text;
    private final SourceMap sources;
    private final List<ConfigError> errors;

    YamlTreeReader(String text, SourceMap sources, List<ConfigError> errors)
    {
        this.text = text;
        this.sources = sources;
        this.errors = errors;
    }

    /** The document's tree, or null when the text is not YAML (the syntax error is then in the errors). */
    JsonNode read()
    {
        try (YAMLParser parser = YAML.createParser(text))
        {
            final JsonNode root = parser.nextToken() != null ? readValue(parser, ConfigPath.ROOT) : null;
            if (root == null || root.isNull())
            {
                errors.add(sources.error(ConfigPath.ROOT, new SourceMap.Position(1, 1), "the file is empty"));
                return null;
            }
            if (parser.nextToken() != null)
            {
                errors.add(sources.error(ConfigPath.ROOT, position(parser), "only one YAML document is allowed"));
            }
            return root;
        }
        catch (JsonProcessingException ex)
        {
            // Jackson's own location is where its parser stood, often a line before the problem; SnakeYAML's is exact
            if (ex.getCause() instanceof MarkedYAMLException marked)
            {
                errors.add(syntaxError(marked));
                return null;
            }
            final JsonLocation location = ex.getLocation();
            final SourceMap.Position position = location != null
                ? new SourceMap.Position(Math.max(location.getLineNr(), 1), Math.max(location.getColumnNr(), 1))
                : new SourceMap.Position(1, 1);
            errors.add(sources.error(ConfigPath.ROOT, position, ex.getOriginalMessage()));
            return null;
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private JsonNode readValue(YAMLParser parser, ConfigPath path) throws IOException
    {
        final JsonToken token = parser.currentToken();
        final SourceMap.Position position = position(parser);
        sources.recordValue(path, position, token.isStructStart() || token == JsonToken.VALUE_NULL);
        switch (token)
        {
            case START_OBJECT:
                return readObject(parser, path);
            case START_ARRAY:
                return readArray(parser, path);
            case VALUE_STRING:
                return readString(parser, path);
            case VALUE_NUMBER_INT:
                return integer(parser);
            case VALUE_NUMBER_FLOAT:
                return NODES.numberNode(parser.getDoubleValue());
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                errors.add(sources.error(path, position, "unsupported YAML value"));
                return NODES.nullNode();
        }
    }

    /** The current integer token, in the smallest node that holds it. */
    static JsonNode integer(YAMLParser parser) throws IOException
    {
        return switch (parser.getNumberType())
        {
            case INT -> NODES.numberNode(parser.getIntValue());
            case LONG -> NODES.numberNode(parser.getLongValue());
            default -> NODES.numberNode(parser.getBigIntegerValue());
        };
    }

    private ObjectNode readObject(YAMLParser parser, ConfigPath path) throws IOException
    {
        final ObjectNode object = NODES.objectNode();
        while (parser.nextToken() == JsonToken.FIELD_NAME)
        {
            final String name = parser.currentName();
            final ConfigPath property = path.property(name);
            final SourceMap.Position key = position(parser);
            parser.nextToken();
            if (object.has(name))
            {
                errors.add(sources.error(path, key, duplicate(path, property)));
                parser.skipChildren();
            }
            else
            {
                sources.recordKey(property, key);
                object.set(name, readValue(parser, property));
            }
        }
        return object;
    }

    private ArrayNode readArray(YAMLParser parser, ConfigPath path) throws IOException
    {
        final ArrayNode array = NODES.arrayNode();
        while (parser.nextToken() != JsonToken.END_ARRAY)
        {
            array.add(readValue(parser, path.index(array.size())));
        }
        return array;
    }

    private JsonNode readString(YAMLParser parser, ConfigPath path) throws IOException
    {
        if (parser.isCurrentAlias())
        {
            errors.add(sources.error(path, "YAML aliases (*" + parser.getText() + ") are not supported"));
        }
        final int offset = (int) parser.currentTokenLocation().getCharOffset();
        if (offset >= 0 && offset < text.length() && "\"'|>!&".indexOf(text.charAt(offset)) == -1)
        {
            sources.recordPlainScalar(path);
        }
        return NODES.textNode(parser.getText());
    }

    private String duplicate(ConfigPath path, ConfigPath property)
    {
        final String named = NAMED.get(path);
        final String name = property.elements().get(property.elements().size() - 1).toString();
        final int line = sources.keyAt(property).line();
        return named != null
            ? "duplicate " + named + " name '" + name + "' (first defined at line " + line + ")"
            : "duplicate property '" + name + "' (first defined at line " + line + ")";
    }

    private ConfigError syntaxError(MarkedYAMLException ex)
    {
        final Mark mark = ex.getProblemMark();
        final SourceMap.Position position = mark != null
            ? new SourceMap.Position(mark.getLine() + 1, mark.getColumn() + 1)
            : new SourceMap.Position(1, 1);
        final Mark contextMark = ex.getContextMark();
        final String context = ex.getContext() != null && contextMark != null
            ? " (" + ex.getContext() + " at " + (contextMark.getLine() + 1) + ":" + (contextMark.getColumn() + 1) + ")"
            : "";
        return sources.error(ConfigPath.ROOT, position, ex.getProblem() + context);
    }

    private static SourceMap.Position position(YAMLParser parser)
    {
        final JsonLocation location = parser.currentTokenLocation();
        return new SourceMap.Position(location.getLineNr(), location.getColumnNr());
    }
}
