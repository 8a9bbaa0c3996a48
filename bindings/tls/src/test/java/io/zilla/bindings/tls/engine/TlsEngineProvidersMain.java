/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

/**
 * Runs {@link TlsEngineProviders#select} in a JVM of its own, for the cases one JVM cannot show twice: OpenSSL turned
 * off (netty decides once per JVM) and netty missing from the class path. Prints the startup line, then what it got.
 */
public final class TlsEngineProvidersMain
{
    private TlsEngineProvidersMain()
    {
    }

    public static void main(String[] args)
    {
        try
        {
            final TlsEngineProvider provider = TlsEngineProviders.select(args.length > 0 ? args[0] : null,
                TestJdkEngines::new, line -> System.out.println("log: " + line));
            System.out.println("chose: " + provider.name());
        }
        catch (RuntimeException ex)
        {
            System.out.println("failed: " + ex.getClass().getSimpleName() + ": " + ex.getMessage());
        }
    }
}
