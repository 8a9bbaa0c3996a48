/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.health;

/** A check's answer: whether it holds (200, else 503), and the JSON object that says why. */
public record Verdict(boolean ok, String json)
{
    public int status()
    {
        return ok ? 200 : 503;
    }
}
