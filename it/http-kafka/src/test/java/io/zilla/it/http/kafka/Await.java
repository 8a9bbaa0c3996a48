/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.http.kafka;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Asks again until the answer is the expected one: what a record produced is read by zilla's cache a moment later. */
final class Await
{
    static final Duration WAIT = Duration.ofSeconds(30);

    private Await()
    {
    }

    static <T> T until(Supplier<T> ask, Predicate<T> expected) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        T answer = ask.get();
        while (!expected.test(answer) && System.nanoTime() < deadline)
        {
            Thread.sleep(100);
            answer = ask.get();
        }
        return answer;
    }
}
