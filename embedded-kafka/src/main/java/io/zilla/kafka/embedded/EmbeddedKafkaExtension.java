/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One real Kafka broker ({@link EmbeddedKafka}) shared by a whole test run: started on first use, kept in the
 * root {@link ExtensionContext.Store} and stopped (data directory deleted) when the run ends.
 * <p>
 * Either {@code @ExtendWith(EmbeddedKafkaExtension.class)} and take {@link EmbeddedKafka} or {@link KafkaTopics}
 * as test (or constructor, or lifecycle method) parameters, or
 * {@code @RegisterExtension static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();} and call
 * {@link #kafka()}. {@link KafkaTopics} creates topics named after the current test.
 * <p>
 * {@code @RegisterExtension static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.withSsl();} gives the
 * tests that need it a broker with an SSL listener too ({@link EmbeddedKafka#withSsl()}): another shared broker,
 * started only when a test asks for it, so that the others do not pay for its keys.
 * <p>
 * junit-jupiter-api is an optional dependency of this module: the tests that use the extension bring it.
 */
public final class EmbeddedKafkaExtension implements BeforeAllCallback, ParameterResolver
{
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EmbeddedKafkaExtension.class);
    private static final String KEY = "broker";
    private static final String SSL_KEY = "ssl-broker";

    private final boolean ssl;

    private volatile EmbeddedKafka kafka;

    /** The shared broker, PLAINTEXT only. */
    public EmbeddedKafkaExtension()
    {
        this(false);
    }

    private EmbeddedKafkaExtension(boolean ssl)
    {
        this.ssl = ssl;
    }

    /** The shared broker with an SSL listener beside the PLAINTEXT one: a broker of its own, shared by such tests. */
    public static EmbeddedKafkaExtension withSsl()
    {
        return new EmbeddedKafkaExtension(true);
    }

    @Override
    public void beforeAll(ExtensionContext context)
    {
        kafka = broker(context);
    }

    /** The shared broker, once {@code beforeAll} ran (for {@code @RegisterExtension static} fields). */
    public EmbeddedKafka kafka()
    {
        if (kafka == null)
        {
            throw new IllegalStateException("the broker starts before all tests: register the extension as a static field");
        }
        return kafka;
    }

    /** The shared broker of this test run, started on first use. */
    public static EmbeddedKafka kafka(ExtensionContext context)
    {
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        return store.getOrComputeIfAbsent(KEY, k -> new SharedBroker(new EmbeddedKafka().start()), SharedBroker.class).kafka;
    }

    /** The shared broker with an SSL listener ({@link #withSsl()}) of this test run, started on first use. */
    public static EmbeddedKafka sslKafka(ExtensionContext context)
    {
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        return store.getOrComputeIfAbsent(SSL_KEY, k -> new SharedBroker(new EmbeddedKafka().withSsl().start()),
            SharedBroker.class).kafka;
    }

    /** Topics named after the current test (class, and method when there is one). */
    public static KafkaTopics topics(ExtensionContext context)
    {
        return topics(kafka(context), context);
    }

    private static KafkaTopics topics(EmbeddedKafka kafka, ExtensionContext context)
    {
        String prefix = context.getRequiredTestClass().getSimpleName()
            + context.getTestMethod().map(m -> "-" + m.getName()).orElse("");
        return new KafkaTopics(kafka, prefix);
    }

    private EmbeddedKafka broker(ExtensionContext context)
    {
        return ssl ? sslKafka(context) : kafka(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context)
    {
        Class<?> type = parameter.getParameter().getType();
        return type == EmbeddedKafka.class || type == KafkaTopics.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
    {
        Class<?> type = parameter.getParameter().getType();
        if (type == EmbeddedKafka.class)
        {
            return broker(context);
        }
        if (type == KafkaTopics.class)
        {
            return topics(broker(context), context);
        }
        throw new ParameterResolutionException("unsupported parameter " + parameter.getParameter());
    }

    // CloseableResource is deprecated since JUnit 5.13 in favour of AutoCloseable, which 5.13+ closes by default;
    // implementing both keeps the broker stopped at the end of the run whatever that setting is
    @SuppressWarnings("deprecation")
    private static final class SharedBroker implements ExtensionContext.Store.CloseableResource, AutoCloseable
    {
        private final EmbeddedKafka kafka;

        SharedBroker(EmbeddedKafka kafka)
        {
            this.kafka = kafka;
        }

        @Override
        public void close()
        {
            kafka.close();
        }
    }
}
