/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

/** The exit statuses of every command; picocli itself exits 2 on a usage error (an unknown option...). */
final class ExitStatus
{
    /** Done: started and stopped cleanly, valid, printed. */
    static final int OK = 0;

    /** Not done: an invalid config, a failed start, no counters; the reason is on stderr. */
    static final int FAILED = 1;

    /** A usage error the command finds itself, as picocli's own (a --watch interval below 1). */
    static final int USAGE = 2;

    private ExitStatus()
    {
    }
}
