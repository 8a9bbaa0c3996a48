/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import io.zilla.bindings.tls.engine.TlsEngineProviders;

/** Every test of {@link TlsServerTest} with the binding's engines from OpenSSL (BoringSSL through netty-tcnative). */
class TlsServerOpenSslTest extends TlsServerTest
{
    @Override
    String provider()
    {
        return TlsEngineProviders.OPENSSL;
    }
}
