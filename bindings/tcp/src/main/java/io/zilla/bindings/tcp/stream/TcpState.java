/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

/**
 * The state of a stream's two directions, as bits of one int. A direction is opened by its Begin, open once
 * its first Window flowed, closing when its End arrived but bytes still wait to reach the socket, and closed once
 * nothing more will flow (End, Abort or Reset).
 */
final class TcpState
{
    static final int INITIAL_OPENING = 0x01;
    static final int INITIAL_OPENED = 0x02;
    static final int INITIAL_CLOSING = 0x04;
    static final int INITIAL_CLOSED = 0x08;
    static final int REPLY_OPENING = 0x10;
    static final int REPLY_OPENED = 0x20;
    static final int REPLY_CLOSING = 0x40;
    static final int REPLY_CLOSED = 0x80;

    private TcpState()
    {
    }

    static boolean initialOpening(int state)
    {
        return (state & INITIAL_OPENING) != 0;
    }

    static boolean initialOpened(int state)
    {
        return (state & INITIAL_OPENED) != 0;
    }

    static boolean initialClosing(int state)
    {
        return (state & INITIAL_CLOSING) != 0;
    }

    static boolean initialClosed(int state)
    {
        return (state & INITIAL_CLOSED) != 0;
    }

    static boolean replyOpening(int state)
    {
        return (state & REPLY_OPENING) != 0;
    }

    static boolean replyOpened(int state)
    {
        return (state & REPLY_OPENED) != 0;
    }

    static boolean replyClosing(int state)
    {
        return (state & REPLY_CLOSING) != 0;
    }

    static boolean replyClosed(int state)
    {
        return (state & REPLY_CLOSED) != 0;
    }

    static boolean closed(int state)
    {
        return initialClosed(state) && replyClosed(state);
    }
}
