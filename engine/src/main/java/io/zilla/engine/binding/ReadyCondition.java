/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding;

/**
 * One condition of the engine's readiness that a binding checks for itself, such as a kafka binding's cluster being
 * reachable ({@link EngineContext#supplyReadyCondition}). The engine asks for a check when the health endpoint is asked
 * whether zilla is ready; the binding answers with {@link #met} or {@link #unmet}, now or once it knows. Until its
 * first answer the condition is unmet.
 */
public interface ReadyCondition extends AutoCloseable
{
    /** The check passed. Called on the binding's worker. */
    void met();

    /** The check failed: {@code reason} says why in a few words ({@code "localhost:9092: connection failed"}). */
    void unmet(String reason);

    /** The binding detached: the engine's readiness no longer waits for this condition. Called on its worker. */
    @Override
    void close();
}
