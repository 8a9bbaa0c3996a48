/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.filesystem;

import java.net.URL;
import java.nio.file.Path;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.filesystem.config.FilesystemOptionsConfig;
import io.zilla.bindings.filesystem.stream.FilesystemBindingContext;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.OptionsConfig;

/**
 * The filesystem binding type: kind {@code server} answers each filesystem stream with one file of its
 * {@code location}, read off the worker. See docs/bindings/filesystem.md.
 */
public final class FilesystemBinding implements Binding
{
    public static final String NAME = "filesystem";

    /** The type id that tags filesystem's frame extensions: the type name's {@link String#hashCode()}. */
    public static final int TYPE_ID = NAME.hashCode();

    private static final String SCHEMA = "/io/zilla/specs/filesystem/schema/filesystem.schema.json";

    @Override
    public String type()
    {
        return NAME;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.SERVER);
    }

    /** A filesystem server answers every stream itself. */
    @Override
    public boolean hasExits(KindConfig kind)
    {
        return false;
    }

    @Override
    public URL schema()
    {
        return FilesystemBinding.class.getResource(SCHEMA);
    }

    @Override
    public OptionsConfig options(KindConfig kind, JsonNode options)
    {
        return options(kind, options, Path.of("").toAbsolutePath());
    }

    @Override
    public OptionsConfig options(KindConfig kind, JsonNode options, Path directory)
    {
        final String location = options.path("location").asText();
        final boolean follow = "follow".equals(options.path("symlinks").asText("ignore"));
        return FilesystemOptionsConfig.of(directory, location, follow);
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new FilesystemBindingContext(context);
    }
}
