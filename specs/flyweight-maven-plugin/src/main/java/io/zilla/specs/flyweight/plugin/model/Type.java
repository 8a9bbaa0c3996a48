/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

/** A resolved IDL type: a built-in, octets, an array, or a named struct, union or enum. */
public sealed interface Type permits Primitive, StringKind, OctetsModel, ArrayModel, NamedModel
{
    /** How the type reads in IDL and in error messages. */
    String idlName();
}
