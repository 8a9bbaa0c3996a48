/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding;

import io.zilla.engine.config.BindingConfig;

/** A binding type on one worker: it attaches the bindings of its type that zilla.yaml declares. */
public interface BindingContext
{
    /** Starts serving a binding (a server opens its listening socket here); returns the handler for its streams. */
    BindingHandler attach(BindingConfig binding);

    /** Stops serving a binding: close its sockets, abort its streams. */
    void detach(BindingConfig binding);

    /** Called when the worker stops, after every binding is detached. */
    default void close()
    {
    }
}
