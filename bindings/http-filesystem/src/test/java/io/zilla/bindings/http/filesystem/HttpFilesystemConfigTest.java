/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.filesystem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.zilla.bindings.filesystem.FilesystemBindingFactory;
import io.zilla.bindings.filesystem.config.FilesystemOptionsConfig;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.config.ConfigError;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.NamespaceConfig;
import org.junit.jupiter.api.Test;

/** filesystem's and http-filesystem's parts of zilla.yaml, read by the engine's config reader. */
class HttpFilesystemConfigTest
{
    private final ConfigReader reader;

    HttpFilesystemConfigTest()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final Map<String, Binding> bindings = Map.of(
            "filesystem", new FilesystemBindingFactory().create(configuration),
            "http-filesystem", new HttpFilesystemBindingFactory().create(configuration));
        this.reader = new ConfigReader(bindings, name -> null);
    }

    private static String yaml(String files, String web)
    {
        return "---\nname: test\nbindings:\n  files:\n    type: http-filesystem\n    kind: proxy\n" + files
            + "  web:\n    type: filesystem\n    kind: server\n" + web;
    }

    private static final String ROUTES = """
            routes:
              - when:
                  - path: /{path}
                exit: web
                with:
                  path: ${params.path}
        """;

    @Test
    void shouldResolveARelativeLocationFromTheFilesDirectory()
    {
        final NamespaceConfig config = reader.read("/srv/site/zilla.yaml", yaml(ROUTES, """
                options:
                  location: web/
                  symlinks: follow
            """), 1);
        final FilesystemOptionsConfig options = (FilesystemOptionsConfig) config.bindings().get(1).options();
        assertEquals(Path.of("/srv/site/web"), options.location());
        assertEquals(true, options.followSymlinks());

        final NamespaceConfig absolute = reader.read("/srv/site/zilla.yaml", yaml(ROUTES, """
                options:
                  location: file:/var/www/
            """), 1);
        final FilesystemOptionsConfig absoluteOptions = (FilesystemOptionsConfig) absolute.bindings().get(1).options();
        assertEquals(Path.of("/var/www"), absoluteOptions.location());
        assertEquals(false, absoluteOptions.followSymlinks());
    }

    @Test
    void shouldRefuseBadValuesWithTheirPlace()
    {
        assertEquals(List.of("zilla.yaml:13:3 bindings.web: missing required property 'options'"),
            errors(yaml(ROUTES, "")));
        assertEquals(List.of("zilla.yaml:16:5 bindings.web.options: missing required property 'location'"),
            errors(yaml(ROUTES, "    options:\n      symlinks: follow\n")));
        assertEquals(List.of("zilla.yaml:18:17 bindings.web.options.symlinks: must be follow or ignore"),
            errors(yaml(ROUTES, "    options:\n      location: web/\n      symlinks: always\n")));
        assertEquals(List.of("zilla.yaml:18:7 bindings.web.options: unknown property 'index'"),
            errors(yaml(ROUTES, "    options:\n      location: web/\n      index: index.html\n")));
        assertEquals(List.of("zilla.yaml:9:19 bindings.files.routes[0].when[0].path: must start with /"),
            errors(yaml(ROUTES.replace("path: /{path}", "path: '{path}'"), "    options:\n      location: web/\n")));
        assertEquals(List.of("zilla.yaml:12:17 bindings.files.routes[0].with.path: ${params.file}: not captured by the "
                + "route's path /{path}"),
            errors(yaml(ROUTES.replace("${params.path}", "${params.file}"), "    options:\n      location: web/\n")));
        assertEquals(List.of("zilla.yaml:9:19 bindings.files.routes[0].when[0].path: '{a-b}' is not a parameter: a name of "
                + "letters and digits"),
            errors(yaml(ROUTES.replace("/{path}", "/{a-b}"), "    options:\n      location: web/\n")));
        assertEquals(List.of("zilla.yaml:12:17 bindings.files.routes[0].with.path: '${env.x}': only ${params.name} may be "
                + "substituted"),
            errors(yaml(ROUTES.replace("${params.path}", "'${env.x}'"), "    options:\n      location: web/\n")));
        assertEquals(List.of("zilla.yaml:7:5 bindings.files.options: the http-filesystem binding has no options"),
            errors(yaml("    options:\n      index: x\n" + ROUTES, "    options:\n      location: web/\n")));
    }

    private List<String> errors(String yaml)
    {
        return assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", yaml, 1)).errors().stream()
            .map(ConfigError::toString).toList();
    }
}
