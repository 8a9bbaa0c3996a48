/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.networknt.schema.Error;
import com.networknt.schema.path.NodePath;

/**
 * Turns the schema validator's errors into one plain {@link ConfigError} per real problem.
 * <p>
 * When a value matches none of the alternatives of a {@code oneOf} or {@code anyOf}, the validator reports why
 * each alternative failed: noise to a reader. If only one alternative has the value's shape (the others fail on its
 * type or constant), that alternative's errors are the real problem and are kept: a port of 70000 is "at most
 * 65535", not "an integer, a range or a list". Otherwise the value gets one error: the schema's own {@code message}
 * for the {@code oneOf}, else the types that the alternatives expect.
 */
final class SchemaErrors
{
    /** Keywords whose failure at the value itself says that an alternative is for another shape of value. */
    private static final Set<String> SHAPE_KEYWORDS = Set.of("type", "const", "enum", "false");

    private final SourceMap sources;

    SchemaErrors(SourceMap sources)
    {
        this.sources = sources;
    }

    List<ConfigError> translate(List<Error> errors)
    {
        final Set<ConfigError> translated = new LinkedHashSet<>();
        reduce(errors, 0, translated);
        return new ArrayList<>(translated);
    }

    /** Collapses the alternatives found in evaluation paths from {@code depth} on, outermost first. */
    private void reduce(List<Error> errors, int depth, Set<ConfigError> translated)
    {
        final Map<List<Object>, List<Error>> bySchema = new LinkedHashMap<>();
        final List<Error> direct = new ArrayList<>();
        for (Error error : errors)
        {
            final List<Object> evaluation = elements(error.getEvaluationPath());
            final int at = alternativeAt(evaluation, depth);
            if (at < 0)
            {
                direct.add(error);
            }
            else
            {
                bySchema.computeIfAbsent(evaluation.subList(0, at + 1), prefix -> new ArrayList<>()).add(error);
            }
        }

        // a value of the wrong type fails its enum, pattern... too: the type is the problem
        final Set<NodePath> mistyped = new HashSet<>();
        direct.stream().filter(SchemaErrors::isTypeError).forEach(error -> mistyped.add(error.getInstanceLocation()));
        direct.removeIf(error -> !isTypeError(error) && mistyped.contains(error.getInstanceLocation()));

        // a failing oneOf also reports itself, with the evaluation path of its alternatives and the value's location
        final Map<List<Object>, List<Error>> summaries = new LinkedHashMap<>();
        for (Error error : direct)
        {
            final List<Object> evaluation = elements(error.getEvaluationPath());
            if ("oneOf".equals(error.getKeyword()) && bySchema.containsKey(evaluation))
            {
                summaries.computeIfAbsent(evaluation, prefix -> new ArrayList<>()).add(error);
            }
            else
            {
                translated.add(translate(error));
            }
        }

        bySchema.forEach((prefix, failures) ->
            byValue(failures, summaries.getOrDefault(prefix, List.of())).forEach((value, failuresOfValue) ->
            {
                final Error summary = summaryOf(summaries.getOrDefault(prefix, List.of()), value);
                if (mistyped.contains(value))
                {
                    return;
                }
                if (failuresOfValue.isEmpty())
                {
                    translated.add(translate(summary));
                }
                else
                {
                    reduceAlternatives(prefix, value, failuresOfValue, summary, translated);
                }
            }));
    }

    /**
     * The same schema's alternatives fail for several values (each item of a list, say): the failures of one value
     * are those at or below it. A oneOf's summary gives its value; otherwise the shallowest failure stands for it.
     */
    private static Map<NodePath, List<Error>> byValue(List<Error> failures, List<Error> summaries)
    {
        final Map<NodePath, List<Error>> byValue = new LinkedHashMap<>();
        summaries.forEach(summary -> byValue.put(summary.getInstanceLocation(), new ArrayList<>()));
        failures.stream()
            .sorted(Comparator.comparingInt(failure -> failure.getInstanceLocation().getNameCount()))
            .forEach(failure ->
            {
                final NodePath location = failure.getInstanceLocation();
                final NodePath value = byValue.keySet().stream().filter(location::startsWith).findFirst().orElse(location);
                byValue.computeIfAbsent(value, key -> new ArrayList<>()).add(failure);
            });
        return byValue;
    }

    private static Error summaryOf(List<Error> summaries, NodePath value)
    {
        return summaries.stream().filter(summary -> summary.getInstanceLocation().equals(value)).findFirst().orElse(null);
    }

    private void reduceAlternatives(List<Object> prefix, NodePath value, List<Error> failures, Error summary,
        Set<ConfigError> translated)
    {
        final Map<Object, List<Error>> byAlternative = new LinkedHashMap<>();
        failures.forEach(failure ->
            byAlternative.computeIfAbsent(elements(failure.getEvaluationPath()).get(prefix.size()), index -> new ArrayList<>())
                .add(failure));

        final List<List<Error>> sameShape = byAlternative.values().stream()
            .filter(alternative -> alternative.stream().noneMatch(failure -> isShapeMismatch(failure, value)))
            .toList();

        final ConfigPath path = path(value);
        if (sameShape.size() == 1)
        {
            reduce(sameShape.get(0), prefix.size() + 1, translated);
        }
        else if (summary != null && summary.isCustomMessage())
        {
            translated.add(sources.error(path, summary.getMessage()));
        }
        else
        {
            translated.add(sources.error(path, expectedShapes(byAlternative.values(), value)));
        }
    }

    private static String expectedShapes(Iterable<List<Error>> alternatives, NodePath value)
    {
        final Set<String> types = new LinkedHashSet<>();
        String found = null;
        for (List<Error> alternative : alternatives)
        {
            final Error mismatch = alternative.stream()
                .filter(failure -> "type".equals(failure.getKeyword()) && failure.getInstanceLocation().equals(value))
                .findFirst()
                .orElse(null);
            if (mismatch == null)
            {
                return "does not match any of the allowed forms";
            }
            found = argument(mismatch, 0);
            types.addAll(typeNames(argument(mismatch, 1)));
        }
        return typeMismatch(types, found);
    }

    private static String typeMismatch(Iterable<String> expected, String found)
    {
        final List<String> phrases = new ArrayList<>();
        expected.forEach(type -> phrases.add(Messages.withArticle(type)));
        return "must be " + Messages.either(phrases) + ", not " + Messages.withArticle(found);
    }

    private static boolean isTypeError(Error error)
    {
        return "type".equals(error.getKeyword());
    }

    private static boolean isShapeMismatch(Error failure, NodePath value)
    {
        return SHAPE_KEYWORDS.contains(failure.getKeyword()) && failure.getInstanceLocation().equals(value);
    }

    private ConfigError translate(Error error)
    {
        final ConfigPath path = path(error.getInstanceLocation());
        if (error.isCustomMessage())
        {
            return sources.error(path, error.getMessage());
        }
        final String property = error.getProperty();
        switch (error.getKeyword())
        {
            case "required":
                return sources.error(path, "missing required property '" + property + "'");
            case "additionalProperties":
            case "unevaluatedProperties":
                return sources.error(path, sources.keyAt(path.property(property)), "unknown property '" + property + "'");
            case "propertyNames":
                return sources.error(path, sources.keyAt(path.property(property)),
                    "invalid name '" + property + "': " + argument(error, 1));
            case "dependentRequired":
                return sources.error(path,
                    "missing property '" + argument(error, 0) + "', required when '" + argument(error, 1) + "' is present");
            case "false":
                return sources.error(path, sources.keyAt(path), "is not allowed here");
            case "items":
                return sources.error(path.index(error.getIndex()), "is not allowed here");
            default:
                return sources.error(path, message(error));
        }
    }

    private static String message(Error error)
    {
        final String first = argument(error, 0);
        return switch (error.getKeyword())
        {
            case "type" -> typeMismatch(typeNames(argument(error, 1)), first);
            case "enum" -> "must be one of: " + String.join(", ", Messages.jsonValues(first));
            case "const" -> "must be '" + first + "'";
            case "oneOf" -> "matches more than one of the allowed forms";
            case "minimum" -> "must be at least " + first;
            case "maximum" -> "must be at most " + first;
            case "exclusiveMinimum" -> "must be greater than " + first;
            case "exclusiveMaximum" -> "must be less than " + first;
            case "multipleOf" -> "must be a multiple of " + first;
            case "minLength" -> "must be at least " + Messages.count(first, "character") + " long";
            case "maxLength" -> "must be at most " + Messages.count(first, "character") + " long";
            case "minItems" -> "must have at least " + Messages.count(first, "item");
            case "maxItems" -> "must have at most " + Messages.count(first, "item");
            case "minProperties" -> "must have at least " + Messages.count(first, "property", "properties");
            case "maxProperties" -> "must have at most " + Messages.count(first, "property", "properties");
            case "pattern" -> "must match the pattern " + first;
            case "format" -> "must be a valid " + first;
            case "uniqueItems" -> "must not list the same item twice";
            default -> error.getMessage();
        };
    }

    private static String argument(Error error, int index)
    {
        final Object[] arguments = error.getArguments();
        return arguments != null && index < arguments.length ? String.valueOf(arguments[index]) : "";
    }

    /** The validator writes one type as {@code integer} and several as {@code [string, integer]}. */
    private static List<String> typeNames(String types)
    {
        return List.of(types.replace("[", "").replace("]", "").split(",\\s*"));
    }

    private static ConfigPath path(NodePath location)
    {
        return new ConfigPath(elements(location));
    }

    private static List<Object> elements(NodePath path)
    {
        final List<Object> elements = new ArrayList<>(path.getNameCount());
        for (int index = 0; index < path.getNameCount(); index++)
        {
            elements.add(path.getElement(index));
        }
        return elements;
    }

    /** Where the first {@code oneOf} or {@code anyOf} from {@code depth} on is, followed by its alternative's index. */
    private static int alternativeAt(List<Object> evaluation, int depth)
    {
        for (int index = depth; index + 1 < evaluation.size(); index++)
        {
            final Object element = evaluation.get(index);
            if (("oneOf".equals(element) || "anyOf".equals(element)) && evaluation.get(index + 1) instanceof Integer)
            {
                return index;
            }
        }
        return -1;
    }
}
