/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.util.List;

import io.zilla.bindings.http.config.HttpAccessControlConfig;
import org.agrona.DirectBuffer;

/**
 * A cross-origin policy (the Fetch standard's CORS protocol) as an http server answers it: preflights get 204 with
 * what they may do, or 403; the responses to allowed origins get Access-Control-Allow-Origin and the rest. Same-origin
 * does nothing. The joined header values are made once, when the binding attaches.
 */
final class HttpCors
{
    private final HttpAccessControlConfig config;
    private final String methods;
    private final String headers;
    private final String expose;

    HttpCors(HttpAccessControlConfig config)
    {
        this.config = config;
        this.methods = config.methods() != null ? String.join(", ", config.methods()) : null;
        this.headers = config.headers() != null ? String.join(", ", config.headers()) : null;
        this.expose = config.expose() != null ? String.join(", ", config.expose()) : null;
    }

    boolean enabled()
    {
        return config.crossOrigin();
    }

    /** Whether the origin of {@code length} bytes at {@code offset} may make cross-origin requests. */
    boolean allowsOrigin(DirectBuffer buffer, int offset, int length)
    {
        final List<String> origins = config.origins();
        if (origins == null)
        {
            return true;
        }
        for (int i = 0; i < origins.size(); i++)
        {
            if (HttpRequestHead.equalsIgnoreCase(buffer, offset, length, origins.get(i)))
            {
                return true;
            }
        }
        return false;
    }

    boolean allowsMethod(DirectBuffer buffer, int offset, int length)
    {
        final List<String> allowed = config.methods();
        if (allowed == null)
        {
            return true;
        }
        for (int i = 0; i < allowed.size(); i++)
        {
            if (HttpRequestHead.equalsAscii(buffer, offset, length, allowed.get(i)))
            {
                return true;
            }
        }
        return false;
    }

    /** Whether each of the comma-separated header names in the range is allowed. */
    boolean allowsHeaders(DirectBuffer buffer, int offset, int length)
    {
        final List<String> allowed = config.headers();
        if (allowed == null)
        {
            return true;
        }
        final int limit = offset + length;
        int index = offset;
        while (index < limit)
        {
            while (index < limit && (buffer.getByte(index) == ' ' || buffer.getByte(index) == ','))
            {
                index++;
            }
            final int start = index;
            while (index < limit && buffer.getByte(index) != ',' && buffer.getByte(index) != ' ')
            {
                index++;
            }
            if (index > start && !contains(allowed, buffer, start, index - start))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes a preflight's answer headers: the origin, the methods and headers (the configured lists, or what was
     * asked for when any is allowed), credentials and max-age.
     */
    void preflight(HttpAsciiWriter out, DirectBuffer buffer, int originOffset, int originLength, int methodOffset,
        int methodLength, int headersOffset, int headersLength)
    {
        origin(out, buffer, originOffset, originLength);
        out.text("access-control-allow-methods: ");
        if (methods != null)
        {
            out.text(methods);
        }
        else
        {
            out.bytes(buffer, methodOffset, methodLength);
        }
        out.crlf();
        if (headersLength > 0)
        {
            out.text("access-control-allow-headers: ");
            if (headers != null)
            {
                out.text(headers);
            }
            else
            {
                out.bytes(buffer, headersOffset, headersLength);
            }
            out.crlf();
        }
        if (config.maxAge() >= 0)
        {
            out.text("access-control-max-age: ").decimal(config.maxAge()).crlf();
        }
    }

    /** Writes the headers of an actual response to an allowed origin; the exposed names follow from the response. */
    void response(HttpAsciiWriter out, DirectBuffer buffer, int originOffset, int originLength)
    {
        origin(out, buffer, originOffset, originLength);
        if (expose != null && !expose.isEmpty())
        {
            out.header("access-control-expose-headers", expose);
        }
    }

    /** Whether the response's header names are to be listed as exposed: expose was not configured. */
    boolean exposeAll()
    {
        return expose == null;
    }

    private void origin(HttpAsciiWriter out, DirectBuffer buffer, int originOffset, int originLength)
    {
        // a wildcard answers anyone, unless credentials are allowed or origins listed: then the origin is echoed
        if (config.origins() == null && !config.credentials())
        {
            out.header("access-control-allow-origin", "*");
        }
        else
        {
            out.text("access-control-allow-origin: ").bytes(buffer, originOffset, originLength).crlf();
            out.header("vary", "origin");
        }
        if (config.credentials())
        {
            out.header("access-control-allow-credentials", "true");
        }
    }

    private static boolean contains(List<String> allowed, DirectBuffer buffer, int offset, int length)
    {
        for (int i = 0; i < allowed.size(); i++)
        {
            if (HttpRequestHead.equalsIgnoreCase(buffer, offset, length, allowed.get(i)))
            {
                return true;
            }
        }
        return false;
    }
}
