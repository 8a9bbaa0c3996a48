/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.zilla.specs.flyweight.Samples.Sample;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random and corrupted bytes never make tryWrap throw, and never make a flyweight read past maxLimit: each
 * input sits in an agrona buffer whose capacity is exactly maxLimit, so any read past it throws from agrona's
 * bounds checks. When tryWrap accepts the bytes, every accessor is called and must not throw either.
 * <p>
 * The inputs come from a seeded {@link Random}; every failure names the seed, the iteration and the bytes.
 * Run again with {@code -Dflyweight.seed=...} to explore other inputs.
 */
class RandomInputTest
{
    private static final long SEED = Long.getLong("flyweight.seed", 0x2026_f1e7_5eedL);
    private static final int ITERATIONS = 3000;

    /** Bytes that random input should hit often: small counts, kinds and enum values, signs and continuation bits. */
    private static final int[] INTERESTING = {
        0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x10, 0x2c, 0x50, 0x51,
        0x7e, 0x7f, 0x80, 0x81, 0xc0, 0xfe, 0xff
    };

    static Stream<Sample> samples()
    {
        return Samples.all().stream();
    }

    @Test
    void shouldSampleEveryGeneratedFlyweight() throws Exception
    {
        final Set<String> sampled = new TreeSet<>();
        Samples.all().forEach(sample -> sampled.add(sample.reader().getClass().getName()));
        final Set<String> generated = new TreeSet<>();
        for (String scope : List.of("io/zilla/specs/test/types", "io/zilla/specs/test/types/host"))
        {
            final Path directory = Path.of(getClass().getClassLoader().getResource(scope).toURI());
            try (Stream<Path> files = Files.list(directory))
            {
                files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith("FW.class"))
                    .forEach(name -> generated.add(scope.replace('/', '.') + "." + name.substring(0, name.length() - 6)));
            }
        }

        assertTrue(generated.size() > 40, () -> "generated flyweights found: " + generated);
        generated.removeAll(sampled);
        assertEquals(Set.of(), generated, "generated flyweights without a sample in Samples");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldSurviveRandomBytes(Sample sample)
    {
        final long seed = seed(sample, 1);
        final Random random = new Random(seed);
        final Flyweight reused = sample.reader();
        final int maxLength = Math.max(32, Math.min(2 * sample.bytes().length, 512));
        for (int i = 0; i < ITERATIONS; i++)
        {
            final byte[] bytes = new byte[random.nextInt(maxLength + 1)];
            final boolean biased = random.nextBoolean();
            for (int j = 0; j < bytes.length; j++)
            {
                bytes[j] = biased ? (byte) INTERESTING[random.nextInt(INTERESTING.length)] : (byte) random.nextInt(256);
            }
            final int offset = random.nextInt(Math.min(bytes.length, 4) + 1);
            check(sample, reused, bytes, offset, seed, i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldSurviveCorruptedEncodings(Sample sample)
    {
        final long seed = seed(sample, 2);
        final Random random = new Random(seed);
        final Flyweight reused = sample.reader();
        final byte[] valid = sample.bytes();
        int accepted = 0;
        for (int i = 0; i < ITERATIONS; i++)
        {
            final byte[] bytes = valid.clone();
            final int flips = 1 + random.nextInt(3);
            for (int f = 0; f < flips && bytes.length > 0; f++)
            {
                final int index = random.nextInt(bytes.length);
                switch (random.nextInt(3))
                {
                    case 0:
                        bytes[index] ^= (byte) (1 << random.nextInt(8));
                        break;
                    case 1:
                        bytes[index] = (byte) INTERESTING[random.nextInt(INTERESTING.length)];
                        break;
                    default:
                        bytes[index] = (byte) random.nextInt(256);
                        break;
                }
            }
            if (check(sample, reused, bytes, 0, seed, i))
            {
                accepted++;
            }
        }
        if (valid.length == 0)
        {
            assertEquals(ITERATIONS, accepted, "an empty value is always accepted");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldSurviveTruncatedAndExtendedEncodings(Sample sample)
    {
        final long seed = seed(sample, 3);
        final Random random = new Random(seed);
        final Flyweight reused = sample.reader();
        final byte[] valid = sample.bytes();
        for (int i = 0; i < ITERATIONS; i++)
        {
            final int length = random.nextInt(valid.length + 9);
            final byte[] bytes = Arrays.copyOf(valid, length);
            for (int j = valid.length; j < length; j++)
            {
                bytes[j] = (byte) random.nextInt(256);
            }
            if (length > 0 && random.nextBoolean())
            {
                bytes[random.nextInt(length)] = (byte) random.nextInt(256);
            }
            final boolean accepted = check(sample, reused, bytes, 0, seed, i);
            if (length >= valid.length && Arrays.equals(valid, Arrays.copyOf(bytes, valid.length)))
            {
                assertTrue(accepted, () -> context(sample, seed, -1, bytes, 0) + ": a valid prefix is accepted");
            }
        }
    }

    /**
     * Wraps {@code bytes} from {@code offset} up to their end, in a buffer of exactly their length.
     *
     * @return whether tryWrap accepted them
     */
    private static boolean check(Sample sample, Flyweight reused, byte[] bytes, int offset, long seed, int iteration)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final int maxLimit = bytes.length;
        final Supplier<String> context = () -> context(sample, seed, iteration, bytes, offset);

        final Flyweight wrapped;
        final int status;
        try
        {
            wrapped = reused.tryWrap(buffer, offset, maxLimit);
            status = sample.reader().decode(buffer, offset, maxLimit);
        }
        catch (Throwable ex)
        {
            throw new AssertionError(context.get() + ": tryWrap threw " + ex, ex);
        }

        if (wrapped == null)
        {
            assertTrue(status == Flyweight.TRUNCATED || status == Flyweight.MALFORMED,
                () -> context.get() + ": status " + status);
            final Class<? extends Throwable> expected = status == Flyweight.TRUNCATED
                ? IndexOutOfBoundsException.class
                : IllegalArgumentException.class;
            try
            {
                sample.reader().wrap(buffer, offset, maxLimit);
                fail(context.get() + ": wrap accepted what tryWrap refused");
            }
            catch (RuntimeException ex)
            {
                assertSame(expected, ex.getClass(), () -> context.get() + ": wrap threw " + ex);
            }
            return false;
        }

        assertSame(reused, wrapped, context);
        assertEquals(status, wrapped.limit(), () -> context.get() + ": decode and tryWrap agree");
        assertEquals(offset, wrapped.offset(), context);
        assertTrue(wrapped.limit() >= offset && wrapped.limit() <= maxLimit,
            () -> context.get() + ": limit " + wrapped.limit());
        try
        {
            Readers.readAll(wrapped);
        }
        catch (Throwable ex)
        {
            throw new AssertionError(context.get() + ": reading the accepted value failed: " + ex, ex);
        }

        final byte[] exact = Arrays.copyOfRange(bytes, offset, wrapped.limit());
        final Flyweight alone = sample.reader().tryWrap(new UnsafeBuffer(exact), 0, exact.length);
        assertTrue(alone != null && alone.limit() == exact.length,
            () -> context.get() + ": the accepted value is self-delimiting");
        assertEquals(wrapped.toString().replace("offset=" + offset, "offset=0"), alone.toString(), context);
        return true;
    }

    private static long seed(Sample sample, int test)
    {
        return SEED * 31 * 31 + sample.name().hashCode() * 31L + test;
    }

    private static String context(Sample sample, long seed, int iteration, byte[] bytes, int offset)
    {
        return String.format("%s seed=%d (base %d) iteration=%d offset=%d bytes=%s", sample, seed, SEED, iteration, offset,
            hex(bytes));
    }
}
