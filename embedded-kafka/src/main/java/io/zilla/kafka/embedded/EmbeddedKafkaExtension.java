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
 * junit-jupiter-api is an optional dependency of this module: the tests that use the extension bring it.
 */
public final class EmbeddedKafkaExtension implements BeforeAllCallback, ParameterResolver
{
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EmbeddedKafkaExtension.class);
    private static final String KEY = "broker";

    private volatile EmbeddedKafka kafka;

    @Override
    public void beforeAll(ExtensionContext context)
    {
        kafka = kafka(context);
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

    /** Topics named after the current test (class, and method when there is one). */
    public static KafkaTopics topics(ExtensionContext context)
    {
        String prefix = context.getRequiredTestClass().getSimpleName()
            + context.getTestMethod().map(m -> "-" + m.getName()).orElse("");
        return new KafkaTopics(kafka(context), prefix);
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
            return kafka(context);
        }
        if (type == KafkaTopics.class)
        {
            return topics(context);
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
