/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;

import picocli.CommandLine;

/**
 * The {@code zilla} command run in-process, as {@code bin/zilla} runs it, with its stdout and stderr captured and
 * its shutdown hooks under the test's control.
 */
final class Zilla
{
    // StringWriter appends to a StringBuffer: safe to read from the test while a command writes from another thread
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final TestShutdownHooks hooks = new TestShutdownHooks();
    private volatile boolean finished;

    /** Runs {@code zilla args...} and returns its exit status. */
    int run(String... args)
    {
        final CommandLine command = ZillaMain.commandLine(hooks);
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        try
        {
            return command.execute(args);
        }
        finally
        {
            finished = true;
        }
    }

    String out()
    {
        return out.toString();
    }

    String err()
    {
        return err.toString();
    }

    TestShutdownHooks hooks()
    {
        return hooks;
    }

    /** Waits for a whole line of stdout containing {@code text}: the command may be halfway through printing it. */
    void awaitOut(String text, Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!hasLine(out(), text))
        {
            // read out again after finished: the command may have printed it just before returning
            if (finished && !hasLine(out(), text) || System.nanoTime() > deadline)
            {
                throw new AssertionError("no '" + text + "' on stdout (command returned: " + finished + "); stdout: "
                    + out() + " stderr: " + err());
            }
            sleep(10);
        }
    }

    private static boolean hasLine(String output, String text)
    {
        final int at = output.indexOf(text);
        return at >= 0 && output.indexOf('\n', at) >= 0;
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
}
