/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.zilla.bindings.sse.SseBinding;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestServer;
import io.zilla.engine.test.TestStream;
import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.sse.types.stream.SseBeginExFW;
import io.zilla.specs.sse.types.stream.SseDataExFW;
import io.zilla.specs.sse.types.stream.SseEndExFW;
import io.zilla.specs.sse.types.stream.SseResetExFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** What the sse tests share: the engine they start, the extensions the test binding sends, curl as a process. */
final class SsePeers
{
    static final int WHOLE = 0x03;

    private SsePeers()
    {
    }

    /** Starts server.yaml on a free port; returns the port. */
    static int start(EngineExtension engine, int keepAlive)
    {
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).env("KEEP_ALIVE", Integer.toString(keepAlive)).start("server.yaml");
        return port;
    }

    static TestServer app()
    {
        return TestBinding.server("app");
    }

    /** Waits for the {@code index}-th stream to reach the test binding, its Begin recorded. */
    static TestStream awaitStream(int index)
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (app().streams().size() <= index)
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("no stream " + index + " reached the exit");
            }
            sleep(2);
        }
        final TestStream stream = app().streams().get(index);
        // listed as it is accepted, just before its Begin is recorded
        stream.await(Duration.ofSeconds(10), () -> !stream.frames().isEmpty());
        return stream;
    }

    /** The SseBeginEx of a stream's Begin, as {scheme, authority, path, lastId} (null where null). */
    static String[] beginEx(TestStream stream)
    {
        final byte[] bytes = stream.extensions().get(0);
        final SseBeginExFW beginEx = new SseBeginExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        if (beginEx.typeId() != SseBinding.TYPE_ID)
        {
            throw new AssertionError("not an SseBeginEx");
        }
        return new String[] {text(beginEx.scheme()), text(beginEx.authority()), text(beginEx.path()),
            text(beginEx.lastId())};
    }

    static byte[] dataEx(String id, String type)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final SseDataExFW.Builder builder = new SseDataExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(SseBinding.TYPE_ID).timestamp(0L);
        builder.id(id);
        builder.type(type);
        return bytes(buffer, builder.build().sizeof());
    }

    static byte[] endEx(String id)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final int length = new SseEndExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(SseBinding.TYPE_ID).id(id).build().sizeof();
        return bytes(buffer, length);
    }

    static byte[] resetEx(int status)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[64]);
        final int length = new SseResetExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(SseBinding.TYPE_ID).status(status).build().sizeof();
        return bytes(buffer, length);
    }

    /** A Challenge extension: a type id (any binding's), then the content the event carries. */
    static byte[] challengeEx(String content)
    {
        final byte[] text = content.getBytes(StandardCharsets.UTF_8);
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[Integer.BYTES + text.length]);
        buffer.putInt(0, "jwt".hashCode(), ByteOrder.nativeOrder());
        buffer.putBytes(Integer.BYTES, text);
        return bytes(buffer, buffer.capacity());
    }

    static byte[] utf8(String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** curl with {@code args}, its output read as it comes. */
    static Curl curl(String... args)
    {
        final List<String> command = new ArrayList<>(List.of("curl", "-N", "-s", "--max-time", "20"));
        command.addAll(List.of(args));
        try
        {
            return new Curl(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start());
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Any command, its output read as it comes. */
    static Curl process(List<String> command)
    {
        try
        {
            return new Curl(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start());
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static void sleep(long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    private static String text(String16FW string)
    {
        return string.isNull() ? null : string.asString();
    }

    private static byte[] bytes(MutableDirectBuffer buffer, int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /** A curl process whose standard output a thread collects. */
    static final class Curl implements AutoCloseable
    {
        private final Process process;
        private final ByteArrayOutputStream output = new ByteArrayOutputStream();
        private final Thread reader;

        Curl(Process process)
        {
            this.process = process;
            this.reader = new Thread(this::read, "curl-reader");
            reader.setDaemon(true);
            reader.start();
        }

        private void read()
        {
            try (InputStream in = process.getInputStream())
            {
                final byte[] chunk = new byte[8192];
                int n;
                while ((n = in.read(chunk)) >= 0)
                {
                    synchronized (output)
                    {
                        output.write(chunk, 0, n);
                    }
                }
            }
            catch (IOException ex)
            {
                // the process went away
            }
        }

        String output()
        {
            synchronized (output)
            {
                return output.toString(StandardCharsets.UTF_8);
            }
        }

        /** Waits until the output has {@code text} in it; returns the output. */
        String awaitOutput(String text)
        {
            final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!output().contains(text))
            {
                if (System.nanoTime() > deadline)
                {
                    throw new AssertionError("curl's output never had " + text.replace("\n", "\\n") + ": "
                        + output().replace("\n", "\\n"));
                }
                sleep(2);
            }
            return output();
        }

        /** Waits for curl to exit; returns its output. */
        String awaitExit() throws InterruptedException
        {
            process.waitFor();
            reader.join(5000);
            return output();
        }

        int exitValue()
        {
            return process.exitValue();
        }

        @Override
        public void close()
        {
            process.destroy();
        }
    }
}
