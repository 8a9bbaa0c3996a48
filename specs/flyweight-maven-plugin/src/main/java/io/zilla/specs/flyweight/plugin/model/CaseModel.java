/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.math.BigInteger;

import io.zilla.specs.flyweight.plugin.idl.Position;

/** One case of a union: the discriminator value that selects it, and what follows the discriminator. */
public record CaseModel(Position position, String name, Type type, BigInteger label, EnumConstant constant)
{
}
