/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

/**
 * The state of a connection's two directions, as bits of one int: <em>read</em> carries the bytes read from the socket
 * to the app, <em>write</em> the app's bytes to the socket (see {@link TcpConnection}). A direction is opening once
 * its Begin flowed, opened once its first Window flowed, closing when its End arrived but bytes still wait to reach
 * the socket, and closed once nothing more will flow (End, Abort or Reset).
 */
final class TcpState
{
    static final int READ_OPENING = 0x01;
    static final int READ_OPENED = 0x02;
    static final int READ_CLOSING = 0x04;
    static final int READ_CLOSED = 0x08;
    static final int WRITE_OPENING = 0x10;
    static final int WRITE_OPENED = 0x20;
    static final int WRITE_CLOSING = 0x40;
    static final int WRITE_CLOSED = 0x80;

    private TcpState()
    {
    }

    static boolean readOpening(int state)
    {
        return (state & READ_OPENING) != 0;
    }

    static boolean readOpened(int state)
    {
        return (state & READ_OPENED) != 0;
    }

    static boolean readClosing(int state)
    {
        return (state & READ_CLOSING) != 0;
    }

    static boolean readClosed(int state)
    {
        return (state & READ_CLOSED) != 0;
    }

    static boolean writeOpening(int state)
    {
        return (state & WRITE_OPENING) != 0;
    }

    static boolean writeOpened(int state)
    {
        return (state & WRITE_OPENED) != 0;
    }

    static boolean writeClosing(int state)
    {
        return (state & WRITE_CLOSING) != 0;
    }

    static boolean writeClosed(int state)
    {
        return (state & WRITE_CLOSED) != 0;
    }

    static boolean closed(int state)
    {
        return readClosed(state) && writeClosed(state);
    }
}
