/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.vault.Vault;

/**
 * The JSON Schema that a zilla.yaml must satisfy: specs/core's zilla.schema.json, with the installed binding types
 * as the enum of a binding's {@code type}, and one {@code allOf} entry per type that applies that type's
 * {@code <type>.schema.json} to the whole binding when the binding is of that type; the same for the installed vault
 * types in {@code $defs/vault}.
 */
final class ConfigSchema
{
    static final String CORE_SCHEMA = "io/zilla/specs/core/schema/zilla.schema.json";

    /** The keyword under which a schema gives its own messages, as {@code "message": {"oneOf": "must be..."}}. */
    static final String MESSAGE_KEYWORD = "message";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Schema schema;

    ConfigSchema(Map<String, Binding> bindingsByType, Map<String, Vault> vaultsByType)
    {
        final ObjectNode assembled = assemble(bindingsByType, vaultsByType);
        final SchemaRegistryConfig config = SchemaRegistryConfig.builder()
            .errorMessageKeyword(MESSAGE_KEYWORD)
            .locale(Locale.ENGLISH)
            .build();
        final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaRegistryConfig(config));
        this.schema = registry.getSchema(assembled.toString(), InputFormat.JSON);
        schema.initializeValidators();
    }

    /** Every violation, as the validator reports it. */
    List<Error> validate(JsonNode document)
    {
        try
        {
            return schema.validate(JSON.writeValueAsString(document), InputFormat.JSON);
        }
        catch (JsonProcessingException ex)
        {
            throw new IllegalStateException("cannot write a parsed zilla.yaml as JSON", ex);
        }
    }

    static ObjectNode assemble(Map<String, Binding> bindingsByType, Map<String, Vault> vaultsByType)
    {
        final ObjectNode core = (ObjectNode) read(ConfigSchema.class.getClassLoader().getResource(CORE_SCHEMA), CORE_SCHEMA);
        final Map<String, URL> bindingSchemas = new TreeMap<>();
        bindingsByType.forEach((type, binding) -> bindingSchemas.put(type, binding.schema()));
        applyTypes(core, "binding", bindingSchemas);

        final Map<String, URL> vaultSchemas = new TreeMap<>();
        vaultsByType.forEach((type, vault) -> vaultSchemas.put(type, vault.schema()));
        applyTypes(core, "vault", vaultSchemas);
        return core;
    }

    /** Limits {@code $defs/<what>}'s type to the installed types, and applies each type's schema to its entries. */
    private static void applyTypes(ObjectNode core, String what, Map<String, URL> schemasByType)
    {
        final JsonNode definition = core.path("$defs").path(what);
        if (!definition.isObject())
        {
            throw new IllegalStateException(CORE_SCHEMA + " has no $defs/" + what);
        }
        final ObjectNode component = (ObjectNode) definition;
        final ArrayNode types = ((ObjectNode) component.path("properties").path("type")).putArray("enum");
        final ArrayNode allOf = component.has("allOf") ? (ArrayNode) component.get("allOf") : component.putArray("allOf");
        for (Map.Entry<String, URL> entry : schemasByType.entrySet())
        {
            final String type = entry.getKey();
            types.add(type);

            final ObjectNode when = allOf.addObject();
            final ObjectNode condition = when.putObject("if");
            condition.putObject("properties").putObject("type").put("const", type);
            // without it, an entry that has no type at all would satisfy every type's condition
            condition.putArray("required").add("type");
            when.set("then", typeSchema(what, type, entry.getValue()));
        }
    }

    private static JsonNode typeSchema(String what, String type, URL location)
    {
        if (location == null)
        {
            return JSON.createObjectNode();
        }
        final JsonNode schema = read(location, type + ".schema.json");
        if (!schema.isObject())
        {
            throw new IllegalStateException(location + ": the schema of " + what + " type '" + type + "' is not an object");
        }
        // its own resource, so that its "#/$defs/..." references resolve within it and not within the core schema
        final ObjectNode resource = (ObjectNode) schema;
        if (!resource.has("$id"))
        {
            resource.put("$id", "urn:zilla:schema:" + what + ":" + type);
        }
        return resource;
    }

    private static JsonNode read(URL location, String name)
    {
        if (location == null)
        {
            throw new IllegalStateException(name + " is not on the class path");
        }
        try (InputStream input = location.openStream())
        {
            return JSON.readTree(input);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException("cannot read " + location, ex);
        }
    }
}
