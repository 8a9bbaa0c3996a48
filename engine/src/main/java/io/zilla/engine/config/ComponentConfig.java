/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

/**
 * A named vault, guard or telemetry exporter: its type and its options.
 *
 * @param name    its name in zilla.yaml
 * @param type    its type, such as {@code filesystem} or {@code stdout}
 * @param options its type's options, or null
 */
public record ComponentConfig(String name, String type, OptionsConfig options)
{
}
