/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.config;

import java.util.Locale;

/** A kafka client's SASL credentials: {@code mechanism} is {@code plain}, {@code scram-sha-256} or {@code scram-sha-512}. */
public record KafkaSaslConfig(String mechanism, String username, String password)
{
    /** The mechanism as Kafka names it in SaslHandshake: {@code PLAIN}, {@code SCRAM-SHA-256}... */
    public String kafkaMechanism()
    {
        return mechanism.toUpperCase(Locale.ROOT);
    }

    @Override
    public String toString()
    {
        // never print the password
        return "KafkaSaslConfig[mechanism=" + mechanism + ", username=" + username + "]";
    }
}
