/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.engine;

import java.lang.reflect.InvocationTargetException;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Chooses the provider of a tls binding's engines, as engine property {@value #PROVIDER} says: {@code auto} (the
 * default) takes OpenSSL when netty-tcnative loads here and the JDK otherwise, {@code jdk} and {@code openssl} take
 * that one, {@code openssl} failing when it cannot load. It tells the choice in one line, once per engine.
 *
 * <p>This class names no netty class: it loads {@link OpenSslTlsEngineProvider} by name and only when OpenSSL may be
 * chosen, so a class path without netty (or without a native library for this platform) runs on the JDK provider.
 */
public final class TlsEngineProviders
{
    /** Engine property: {@code auto}, {@code jdk} or {@code openssl}. */
    public static final String PROVIDER = "zilla.binding.tls.provider";

    public static final String AUTO = "auto";
    public static final String JDK = "jdk";
    public static final String OPENSSL = "openssl";

    public static final String DEFAULT_PROVIDER = AUTO;

    private static final String OPENSSL_PROVIDER = "io.zilla.bindings.tls.engine.OpenSslTlsEngineProvider";

    private TlsEngineProviders()
    {
    }

    /**
     * The provider {@code configured} names, told to {@code log} in one line such as {@code tls: provider openssl
     * (BoringSSL, netty-tcnative 2.0.84.Final)} or {@code tls: provider jdk (OpenSSL not available: ...)}.
     *
     * @param configured the property's value, or null for the default ({@code auto}); case does not matter
     * @param jdk        makes the JDK provider, called only when it is chosen
     * @param log        takes the line, as the engine's startup lines (System.err)
     * @throws IllegalArgumentException when {@code configured} is none of auto, jdk and openssl
     * @throws IllegalStateException    when {@code openssl} is configured and cannot load, with the reason
     */
    public static TlsEngineProvider select(String configured, Supplier<? extends TlsEngineProvider> jdk,
        Consumer<String> log)
    {
        final String choice = configured != null ? configured.trim().toLowerCase(Locale.ROOT) : DEFAULT_PROVIDER;
        final TlsEngineProvider provider;
        switch (choice)
        {
            case JDK ->
            {
                provider = jdk.get();
                log.accept("tls: provider " + provider.name() + " (" + PROVIDER + "=" + JDK + ")");
            }
            case OPENSSL ->
            {
                try
                {
                    provider = loadOpenSsl();
                }
                catch (OpenSslUnavailableException ex)
                {
                    throw new IllegalStateException(PROVIDER + "=" + OPENSSL + ": OpenSSL is not available: "
                        + ex.getMessage(), ex.getCause());
                }
                log.accept("tls: provider " + provider + " (" + PROVIDER + "=" + OPENSSL + ")");
            }
            case AUTO ->
            {
                TlsEngineProvider openssl;
                String unavailable = null;
                try
                {
                    openssl = loadOpenSsl();
                }
                catch (OpenSslUnavailableException ex)
                {
                    openssl = null;
                    unavailable = ex.getMessage();
                }
                if (openssl != null)
                {
                    provider = openssl;
                    log.accept("tls: provider " + provider);
                }
                else
                {
                    provider = jdk.get();
                    log.accept("tls: provider " + provider.name() + " (OpenSSL not available: " + unavailable + ")");
                }
            }
            default -> throw new IllegalArgumentException(PROVIDER + " must be " + AUTO + ", " + JDK + " or "
                + OPENSSL + ", not '" + configured + "'");
        }
        return provider;
    }

    /** As {@link #select(String, Supplier, Consumer)}, told to System.err as the engine's other startup lines. */
    public static TlsEngineProvider select(String configured, Supplier<? extends TlsEngineProvider> jdk)
    {
        return select(configured, jdk, System.err::println);
    }

    private static TlsEngineProvider loadOpenSsl() throws OpenSslUnavailableException
    {
        try
        {
            return Class.forName(OPENSSL_PROVIDER)
                .asSubclass(TlsEngineProvider.class)
                .getConstructor()
                .newInstance();
        }
        catch (InvocationTargetException ex)
        {
            // the constructor's IllegalStateException names OpenSsl.unavailabilityCause(); a missing netty-tcnative
            // jar shows as a NoClassDefFoundError from there
            final Throwable cause = ex.getCause();
            throw new OpenSslUnavailableException(reason(cause), cause);
        }
        catch (LinkageError ex)
        {
            // netty-handler is not on the class path
            throw new OpenSslUnavailableException(reason(ex), ex);
        }
        catch (ReflectiveOperationException ex)
        {
            throw new IllegalStateException("cannot make " + OPENSSL_PROVIDER, ex);
        }
    }

    private static String reason(Throwable cause)
    {
        if (cause instanceof NoClassDefFoundError || cause instanceof ClassNotFoundException)
        {
            return "netty-handler or netty-tcnative is not on the class path (" + cause + ")";
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }

    private static final class OpenSslUnavailableException extends Exception
    {
        private static final long serialVersionUID = 1L;

        OpenSslUnavailableException(String message, Throwable cause)
        {
            super(message, cause);
        }
    }
}
