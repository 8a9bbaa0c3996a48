/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.math.BigInteger;

/** One constant of an enum: a number for a numeric enum, a text for a string enum. */
public record EnumConstant(String name, BigInteger number, String text)
{
}
